import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import {
  claimDueDeliveries,
  deferDeliveries,
  freezeAndMarkSent,
  recordAttempts,
} from '../src/webhooks/outbox.js';
import { flushStats, freshDatabase, rowsScanned, type TestDatabase } from './helpers/db.js';

/**
 * A batch costs the same however long the queue is, even when Postgres's statistics are stale:
 * analysed while the queue was empty, then a burst of QUEUE events (as after a receiver outage).
 * Counted with the server's own figures: the index entries each statement read from the
 * pending-queue indexes. A plan that gathers the whole queue reads all QUEUE of them. And the
 * claim and the freeze are HOT updates (sql/0015).
 */

const QUEUE = 20_000;
let db: TestDatabase;
let worker: postgres.Sql;
let setupRowsScanned = 0;

beforeAll(async () => {
  db = await freshDatabase();
  // One connection: its statistics are flushed on demand (pg_stat_force_next_flush) before reading.
  worker = postgres(db.url, { max: 1, onnotice: () => {} });
  // Statistics taken with nothing pending, and kept so (autovacuum would analyse within a minute).
  await db.sql`alter table webhook_events set (autovacuum_enabled = false)`;
  await db.sql`analyze webhook_events`;
  const key = await createApiKey(db.sql, 'plans');
  const [t] = await db.sql<
    { id: string }[]
  >`insert into tracked_addresses (api_key_id, address, family, stream_webhook, stream_created_at)
    values (${key.id}, ${'0x' + 'ab'.repeat(20)}, 'evm', 'http://127.0.0.1:9/hook', now()) returning id`;
  // Each transaction's unconfirmed and confirmed event: half the queue waits for the other half.
  // Written on the worker connection, whose numbering trigger plans its look-ups now, on those
  // statistics (see the first test).
  const scanned = await eventsScanned();
  await worker`
    insert into webhook_events (kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, confirmed, body)
    select 'stream', ${key.id}, ${t!.id}, 'eth', ${'0x' + 'ab'.repeat(20)}, '0x' || (g / 2), g / 2, '0xb' || (g / 2), g % 2 = 1, '{}'
    from generate_series(0, ${QUEUE - 1}) g`;
  setupRowsScanned = (await eventsScanned()) - scanned;
}, 120_000);
afterAll(async () => {
  await worker?.end();
  await db?.drop();
});

/** Makes the worker connection's statistics so far visible to the next read on db.sql. */
const flushWorkerStats = () => flushStats(worker, db.sql);

/** Rows of webhook_events read by scanning the table, by any session so far. */
async function eventsScanned(): Promise<number> {
  await flushWorkerStats();
  return rowsScanned(db.sql, 'webhook\\_events'); // the name exactly (no wildcard)
}

/** Rows updated in webhook_events, and how many of them as HOT updates (no new index entries). */
async function updates(): Promise<{ all: number; hot: number }> {
  await flushWorkerStats();
  const [r] = await db.sql<{ all: string; hot: string }[]>`
    select n_tup_upd as all, n_tup_hot_upd as hot from pg_stat_user_tables where relname = 'webhook_events'`;
  return { all: Number(r!.all), hot: Number(r!.hot) };
}

/** Index entries read from the queue's partial indexes by `run` (on the worker connection). */
async function queueEntriesRead(run: () => Promise<unknown>): Promise<number> {
  const read = async () => {
    await flushWorkerStats();
    const [r] = await db.sql<{ n: string }[]>`
      select coalesce(sum(idx_tup_read), 0) as n from pg_stat_user_indexes
      where indexrelname in ('webhook_events_due', 'webhook_events_pending_order')`;
    return Number(r!.n);
  };
  const before = await read();
  await run();
  return (await read()) - before;
}

it('numbers a burst of events by the identity index, on statistics taken when the table was empty', () => {
  // The numbering trigger looks each new event up by its identity (sql/0052). Planned on the
  // empty table's statistics, that look-up scanned the table, and kept scanning it as the burst
  // grew it: QUEUE² / 2 rows (200 million here, a setup of minutes).
  expect(setupRowsScanned).toBeLessThan(QUEUE);
});

it('claims, records and defers a batch reading only its part of a long queue, on statistics taken when it was empty', async () => {
  const before = await updates();
  let claimed: Awaited<ReturnType<typeof claimDueDeliveries>> = [];
  const claimRead = await queueEntriesRead(async () => {
    claimed = await claimDueDeliveries(worker, 50, 60, 200);
  });
  // The 50 oldest unconfirmed events (each confirmed one waits for its unconfirmed one).
  expect(claimed).toHaveLength(50);
  expect(claimed.every((e) => !e.confirmed)).toBe(true);
  // The head (200 events) and each one's predecessors, not the queue.
  expect(claimRead).toBeLessThan(2_000);

  await freezeAndMarkSent(
    worker,
    claimed.map((e) => ({ id: e.id, body: '{}' })),
  );
  // Claiming and freezing change no indexed column, and the pages keep room (fillfactor): each
  // is a HOT update, writing no index entry.
  const after = await updates();
  expect(after.all - before.all).toBe(100);
  expect(after.hot - before.hot).toBe(100);
  const results = claimed.slice(0, 40).map((e) => ({
    id: e.id,
    outcome: 'delivered' as const,
    url: 'http://127.0.0.1:9/hook',
    status_code: 200,
    duration_ms: 1,
    error: null,
    retry_in_s: 0,
  }));
  const recordRead = await queueEntriesRead(() => recordAttempts(worker, results, 25));
  expect(recordRead).toBeLessThan(2_000);
  const deferRead = await queueEntriesRead(() =>
    deferDeliveries(
      worker,
      claimed.slice(40).map((e) => ({ id: e.id, handedOut: true })),
      5,
    ),
  );
  expect(deferRead).toBeLessThan(2_000);

  const [counts] = await db.sql<{ delivered: number; leased: number; in_doubt: number }[]>`
    select count(*) filter (where status = 'delivered')::int as delivered, count(*) filter (where lease_until is not null)::int as leased,
      count(*) filter (where in_doubt > 0)::int as in_doubt
    from webhook_events`;
  expect(counts).toEqual({ delivered: 40, leased: 0, in_doubt: 0 });
}, 120_000);
