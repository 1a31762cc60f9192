import { isLostArrayTypesFetch } from '../../src/db/connection-guard.js';

/**
 * vitest's `onUnhandledError` for the test process's own database connections: the one defect of
 * postgres.js that the roles survive (src/db/connection-guard.ts, porsager/postgres#1192: a new
 * connection lost while it reads the array types rejects a promise nobody waits for) is said and
 * ignored; any other unhandled error fails the run as before. Seen in the fault suite when a
 * scenario's own connection to its Postgres met a restart.
 */
export function ignoreDriverDefect(error: unknown): false | undefined {
  if (!isLostArrayTypesFetch(error)) return undefined;
  console.warn(
    `[test] a database connection of the test process was lost while it read the array types (postgres.js #1192, as the roles survive it): ${(error as Error).message}`,
  );
  return false;
}
