import { describeError } from '../errors.js';
import { log } from '../log.js';
import { isDatabaseUnavailable } from './unavailable.js';

/**
 * A defect of postgres.js 3.4.9 (not fixed in a release yet) ends a process where nothing of ours
 * can catch it when the server closes a connection at the wrong moment (a restart, a failover, a
 * cut). This guard recognises exactly that one and lets the process carry on; any other uncaught
 * exception or unhandled rejection ends the process as Node's default would, after a fatal log
 * line. (Its other defects of that kind, around a connection closed under a transaction, are
 * mended in the dependency itself: patches/postgres+3.4.9.patch, README "Patched dependency".)
 *
 * porsager/postgres#1192 (also #1205, #1223): every new connection first reads the array types
 * from the catalog (`fetch_types`), in a promise nobody waits for; when the connection is lost
 * during that query, the promise rejects unhandled, with the bare socket or server error (`read
 * ECONNRESET`, 57P01). Seen in the fault suite: the indexer died during a Postgres restart.
 * Nothing is lost by surviving it: the connection opens again and reads the types again before
 * the query that was waiting for it runs (or that query fails like any lost connection's, and is
 * retried). Recognised by the query the error carries (postgres.js names it in `error.query`) and
 * by a connection-level cause; any other failure of that read (a cancelled statement, say) still
 * ends the process: the connection would carry on without the types, and arrays would be read as
 * text.
 */
export function isLostArrayTypesFetch(err: unknown): boolean {
  const query = (err as { query?: unknown } | null)?.query;
  return (
    typeof query === 'string' &&
    /select b\.oid, b\.typarray\s+from pg_catalog\.pg_type a/.test(query) &&
    isDatabaseUnavailable(err)
  );
}

/**
 * A connection the server refused or lost, in a promise of postgres.js's own that nobody waits for:
 * every frame of its stack is the driver's or Node's (a query of ours carries the frames of the
 * code that made it, which waits for it). Seen once in the fault suite's exhausted connections
 * (`sorry, too many clients already`, 53300, with postgres.js's frames alone, 28 ms after
 * graphile-worker's pool ended), and not again in 29 replays: nothing waits for such a promise, so
 * nothing depends on it, and the connection it was for is gone (the pool opens another). Refused:
 * 53300, class 08 but a protocol violation; lost: isDatabaseUnavailable.
 */
export function isUnwaitedDriverOutage(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  const refused =
    code === '53300' || (typeof code === 'string' && /^08/.test(code) && code !== '08P01');
  if (!refused && !isDatabaseUnavailable(err)) return false;
  const stack = err instanceof Error ? err.stack : undefined;
  if (!stack) return false;
  const frames = stack.split('\n').filter((line) => /^\s+at /.test(line));
  return (
    frames.length > 0 &&
    frames.every((line) =>
      /[\\/]node_modules[\\/]postgres[\\/]|\(node:|at node:|<anonymous>/.test(line),
    )
  );
}

/** The statement text postgres.js gives a query's error (none of its parameters), cut short. */
function statementOf(err: unknown): string | undefined {
  const query = (err as { query?: unknown } | null)?.query;
  return typeof query === 'string' ? query.replace(/\s+/g, ' ').slice(0, 300) : undefined;
}

let installed = false;

export function guardPostgresDefects(): void {
  if (installed) return;
  installed = true;
  process.on('uncaughtException', (err, origin) => {
    if (origin === 'unhandledRejection' && isLostArrayTypesFetch(err)) {
      log.warn(
        { error: `${(err as Error).name}: ${(err as Error).message}` },
        'a new database connection was lost while it read the array types (postgres.js #1192); it connects again',
      );
      return;
    }
    if (origin === 'unhandledRejection' && isUnwaitedDriverOutage(err)) {
      log.warn(
        { error: describeError(err), query: statementOf(err) },
        'a database query of the driver that nothing waited for failed with its connection (refused or lost); carrying on',
      );
      return;
    }
    log.fatal(
      {
        error: describeError(err),
        origin,
        // postgres.js names the statement of a failed query (its text, never its parameters):
        // which one nobody waited for.
        query: statementOf(err),
        // The frames only: the stack's first lines repeat the message, which may be viem's whole
        // one (a node's URL and the request body).
        stack:
          err instanceof Error
            ? err.stack
                ?.split('\n')
                .filter((line) => /^\s+at /.test(line))
                .join('\n')
            : undefined,
      },
      'uncaught exception; exiting',
    );
    process.exit(1);
  });
}
