import { log } from '../log.js';
import { POOL_IDLE_TIMEOUT_S, settingMs, type Sql } from './index.js';

/**
 * A database may close sessions that stay idle (`idle_session_timeout`, Postgres 14+, set by a
 * DBA for the server, the database or the role). Two kinds of Tollgate's connections are idle by
 * design: those that hold a session lock (an indexer's network lock, a worker's liveness lock) or
 * listen for notifications (graphile-worker's jobs). Cut, the lock is lost (the indexer steps
 * down and takes it again) and the worker logs errors each time; so they opt out, for their own
 * session only: the lock connections with this statement, run right after they connect (a no-op
 * on a server without the setting, before Postgres 14); graphile-worker's pool with the same as a
 * startup option (nodePgOptions).
 */
export const NO_IDLE_SESSION_TIMEOUT =
  "select set_config(name, '0', false) from pg_settings where name = 'idle_session_timeout'";

/**
 * Seconds the pool may keep an idle connection: POOL_IDLE_TIMEOUT_S, or half the server's
 * idle_session_timeout when that is shorter than twice it, so that the pool always closes an
 * idle connection before the server would.
 */
export function poolIdleTimeoutS(serverMs: number): number {
  if (serverMs <= 0 || serverMs >= 2 * POOL_IDLE_TIMEOUT_S * 1000) return POOL_IDLE_TIMEOUT_S;
  return serverMs / 2000;
}

/**
 * The idle timeout the pool must have for this server (poolIdleTimeoutS), when it differs from
 * the one it was opened with; said once per start. Undefined: the pool is right as it is.
 */
export async function poolIdleTimeoutFor(sql: Sql): Promise<number | undefined> {
  // Pooled connections are idle between requests too: a pool that keeps them longer than the
  // server does may hand a request one the server is closing (a 503).
  const serverMs = await settingMs(sql, 'idle_session_timeout');
  const idle = poolIdleTimeoutS(serverMs);
  if (idle === POOL_IDLE_TIMEOUT_S) return undefined;
  log.info(
    { idle_session_timeout_ms: serverMs, pool_idle_timeout_s: idle },
    "the database closes idle sessions (idle_session_timeout): Tollgate's pool closes its idle connections sooner, and its lock and listener connections opt out",
  );
  return idle;
}
