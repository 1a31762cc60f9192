import type { Sql } from '../../src/db/index.js';
import { eventually } from './eventually.js';

/**
 * Holds a network's exposure lock (sql/0025) in a transaction of its own, as another session of
 * the database could: whatever needs it waits (a block's new counterparty edges, a label import,
 * an exposure job) until `release`.
 */
export async function holdExposureLock(sql: Sql, network = 'eth') {
  const holder = await sql.reserve();
  await holder`begin`;
  await holder`select exposure_lock(${network})`;
  let released = false;
  return {
    /** Polls until a session of this database waits for an advisory lock (the one held here). */
    waitedOn: (timeoutMs: number) =>
      eventually(
        () => sql`
          select 1 from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'`,
        (rows) => rows.length > 0,
        timeoutMs,
      ),
    /** Ends the transaction: the waiting sessions go on. */
    release: async () => {
      if (released) return;
      released = true;
      await holder`rollback`.catch(() => {});
      holder.release();
    },
  };
}
