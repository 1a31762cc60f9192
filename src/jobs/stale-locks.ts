import pg from 'pg';
import { NO_IDLE_SESSION_TIMEOUT } from '../db/idle-sessions.js';
import { describeError } from '../errors.js';
import { log } from '../log.js';
import { nodePgConnection } from '../config/database-url.js';

/**
 * Jobs locked by a worker process that died (kill -9, OOM, power loss). graphile-worker locks
 * each job it fetches with its pool's id and, on its own, frees a dead pool's jobs only after
 * 4 hours: a killed worker's in-flight and prefetched deliveries would wait that long.
 *
 * Liveness here: every worker process holds a session advisory lock on its pool's id for as long
 * as it lives (Postgres drops it with the connection when the process dies). Every worker sweeps
 * at start and every SWEEP_INTERVAL_MS: a job locked for over LOCK_GRACE_MS by a pool whose lock
 * nobody holds is unlocked (graphile_worker.force_unlock_workers) and runs again, at least once.
 * The grace covers the moment between a pool's creation and its lock being taken.
 * (node-postgres clients: a postgres.js reserved connection whose server goes away can throw
 * outside any promise, porsager/postgres#1208.)
 */
const LIVENESS_LOCK_CLASS = 0x746c67; // 'tlg': the advisory-lock key space of worker pools
export const SWEEP_INTERVAL_MS = 5_000;
export const LOCK_GRACE_MS = 3_000;
const LIVENESS_TIMEOUT_MS = 4_000;

export interface StaleLockSweeper {
  stop(): Promise<void>;
}

/** Holds this pool's liveness lock (taken again after a lost connection) and sweeps dead pools' locks. */
export function startStaleLockSweeper(
  pool: pg.Pool,
  databaseUrl: string,
  poolId: string,
): StaleLockSweeper {
  const wlog = log.child({ role: 'worker', pool_id: poolId });
  let holder: pg.Client | undefined;
  let stopped = false;

  const holdLiveness = async () => {
    if (holder) return;
    const client = new pg.Client({
      ...nodePgConnection(databaseUrl),
      application_name: 'tollgate-worker-liveness',
      // A tick never hangs (nor a stop behind it): a server that does not answer the connect,
      // or an earlier session of this pool still holding its lock, fails this tick; the next
      // one tries again.
      connectionTimeoutMillis: LIVENESS_TIMEOUT_MS,
      statement_timeout: LIVENESS_TIMEOUT_MS,
    });
    // A lost connection took the lock with it: the next tick connects and takes it again.
    client.on('error', (err) => {
      wlog.warn({ error: describeError(err) }, 'worker liveness connection lost');
      if (holder === client) holder = undefined;
    });
    client.on('end', () => {
      if (holder === client) holder = undefined;
    });
    try {
      await client.connect();
      await client.query(NO_IDLE_SESSION_TIMEOUT);
      await client.query('select pg_advisory_lock($1::int, hashtext($2))', [
        LIVENESS_LOCK_CLASS,
        poolId,
      ]);
      holder = client;
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
  };

  const sweep = async () => {
    const { rows } = await pool.query<{ locked_by: string }>(
      `select distinct locked_by from graphile_worker.jobs
       where locked_by is not null and locked_by <> $1 and locked_at < now() - make_interval(secs => $2)`,
      [poolId, LOCK_GRACE_MS / 1000],
    );
    if (rows.length === 0) return;
    // A try-lock from a session other than the holder's: it fails while that pool's process lives.
    const client = await pool.connect();
    try {
      for (const { locked_by } of rows) {
        const {
          rows: [row],
        } = await client.query<{ dead: boolean }>(
          'select pg_try_advisory_lock($1::int, hashtext($2)) as dead',
          [LIVENESS_LOCK_CLASS, locked_by],
        );
        if (!row!.dead) continue;
        try {
          await client.query('select graphile_worker.force_unlock_workers($1::text[])', [
            [locked_by],
          ]);
          wlog.warn(
            { dead_pool_id: locked_by },
            'unlocked the jobs of a worker that died; they run again',
          );
        } finally {
          await client.query('select pg_advisory_unlock($1::int, hashtext($2))', [
            LIVENESS_LOCK_CLASS,
            locked_by,
          ]);
        }
      }
      client.release();
    } catch (err) {
      client.release(err as Error); // not back to the pool: it may still hold a try-lock
      throw err;
    }
  };

  const tick = async () => {
    try {
      await holdLiveness();
      await sweep();
    } catch (err) {
      wlog.warn({ error: describeError(err) }, 'stale job lock sweep failed; next one in a moment');
    }
  };
  let running = tick();
  const timer = setInterval(() => {
    running = running.then(() => (stopped ? undefined : tick()));
  }, SWEEP_INTERVAL_MS);
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
      await holder?.end().catch(() => {});
    },
  };
}
