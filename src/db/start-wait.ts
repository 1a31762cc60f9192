import { log } from '../log.js';
import { DatabaseUnreachableError } from './reach.js';
import { databaseCannotServe, isDatabaseOutage } from './unavailable.js';

/**
 * Why a start failed on a database that may serve in a moment (refused or cut while it restarts
 * or fails over, starting up or shutting down, out of connections, read-only, a statement it
 * cancelled), or undefined for what no wait mends: a host not found, a password or database name
 * refused, anything that is not the database's.
 */
export function startMayWait(err: unknown): string | undefined {
  if (err instanceof DatabaseUnreachableError) return err.transient ? err.message : undefined;
  // node-postgres (graphile-worker's migrations at the start) says a lost connection with no code:
  // "Connection terminated unexpectedly" when Postgres restarts under it.
  return (
    databaseCannotServe(err) ??
    (isDatabaseOutage(err) ? 'the database connection was lost' : undefined)
  );
}

/** Pauses between tries: 1 s, doubling up to 10 s. */
const FIRST_PAUSE_MS = 1000;
const LONGEST_PAUSE_MS = 10_000;

/**
 * Runs `start` (which leaves nothing open when it throws), and again while it fails on a database
 * that cannot serve yet, for up to `waitMs` in all: a role started while its Postgres restarts or
 * fails over (or, in a compose or a VM, starts beside it) comes up once the database does,
 * instead of exiting for a supervisor to start it again. Each failure is logged as a warning with
 * its cause and what is left of the wait; the last one, or any other, is thrown. Resolves
 * undefined, without starting, once `stopping()` says a signal came.
 */
export async function startWhenDatabaseServes<T>(
  start: () => Promise<T>,
  opts: { waitMs: number; stopping: () => boolean },
): Promise<T | undefined> {
  const deadline = Date.now() + opts.waitMs;
  let pause = FIRST_PAUSE_MS;
  for (let attempt = 1; ; attempt++) {
    if (opts.stopping()) return undefined;
    try {
      return await start();
    } catch (err) {
      const why = startMayWait(err);
      const left = deadline - Date.now();
      if (why === undefined || left <= 0) throw err;
      log.warn(
        {
          reason: why,
          attempt,
          retry_in_ms: Math.min(pause, left),
          wait_left_s: Math.ceil(left / 1000),
        },
        'the database cannot serve the start yet: trying again (TOLLGATE_DATABASE_START_WAIT_S)',
      );
      const until = Date.now() + Math.min(pause, left);
      while (Date.now() < until && !opts.stopping())
        await new Promise((r) => setTimeout(r, Math.min(100, until - Date.now())));
      pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
    }
  }
}
