import { log } from '../log.js';

/**
 * A defect of postgres.js 3.4.9 (porsager/postgres#1208, not fixed in a release yet): when a
 * connection a transaction (`sql.begin`) holds is closed by the server (a restart, a failover, a
 * cut), a query still issued on it (the transaction's own ROLLBACK, or the callback's next
 * statement) is written from a `setImmediate` to a socket that is already gone, and the
 * TypeError it throws there reaches no promise: by default it ends the process.
 *
 * Nothing is lost by surviving it: that transaction never commits, and `sql.begin` has already
 * rejected with the connection's error (postgres.js races every transaction against its
 * connection's close), so the caller retries as after any lost connection; the pool opens new
 * connections for the next queries. This guard recognises exactly that error (a TypeError thrown
 * from postgres.js's `nextWrite`) and logs it; any other uncaught exception ends the process as
 * Node's default would, after a fatal log line.
 */
export function isClosedSocketWrite(err: unknown): boolean {
  if (!(err instanceof TypeError)) return false;
  const stack = err.stack ?? '';
  return (
    /reading 'write'/.test(err.message) &&
    /nextWrite/.test(stack) &&
    /postgres[\\/]src[\\/]connection\.js/.test(stack)
  );
}

let installed = false;

export function guardClosedConnectionWrites(): void {
  if (installed) return;
  installed = true;
  process.on('uncaughtException', (err, origin) => {
    if (isClosedSocketWrite(err)) {
      log.warn(
        { error: `${err.name}: ${err.message}` },
        'a database connection closed under a transaction (postgres.js #1208); the transaction was rolled back by the server and is retried',
      );
      return;
    }
    log.fatal(
      {
        error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
        origin,
        stack: err instanceof Error ? err.stack : undefined,
      },
      'uncaught exception; exiting',
    );
    process.exit(1);
  });
}
