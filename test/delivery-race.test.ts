import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { recordAttempt } from '../src/webhooks/events.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';

let db: TestDatabase;
beforeAll(async () => { db = await freshDatabase(); });
afterAll(async () => { await db?.drop(); });

/** An unconfirmed event whose delivery attempt was in flight when a reorg orphaned it. */
async function orphanedInFlight(tx: string) {
  const key = await createApiKey(db.sql, `race-${tx}`);
  const [t] = await db.sql`insert into tracked_addresses (api_key_id, address, family, stream_webhook, stream_created_at)
    values (${key.id}, ${'0x' + tx.padStart(40, '0')}, 'evm', 'http://127.0.0.1:9/h', now()) returning id`;
  const [ev] = await db.sql`insert into webhook_events (kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash,
      confirmed, body, orphaned, confirmation_done, status)
    values ('stream', ${key.id}, ${t!.id}, 'eth', ${'0x' + tx.padStart(40, '0')}, ${'0x' + tx}, 5, '0xb5', false,
      ${`{"blockNumber":5,"tx":{"hash":"0x${tx}"},"confirmed":false}`}, true, true, 'cancelled')
    returning id`;
  return ev!.id as string;
}

const attempt = { url: 'http://127.0.0.1:9/h', status_code: 200, duration_ms: 3, error: null };

it('retracts at once an orphaned event whose in-flight attempt the receiver took', async () => {
  const id = await orphanedInFlight('aa');
  await recordAttempt(db.sql, id, attempt, 'delivered', 25);
  const rows = await db.sql`select id, removed, status, body from webhook_events where tx_hash = '0xaa' order by removed`;
  expect(rows.map((r) => [r.removed, r.status])).toEqual([[false, 'delivered'], [true, 'pending']]);
  expect(rows[1]!.body).toBe('{"removed":true,"blockNumber":5,"tx":{"hash":"0xaa"},"confirmed":false}');
  const jobs = await db.sql`select key from graphile_worker.jobs where key = ${'evt:' + rows[1]!.id}`;
  expect(jobs).toHaveLength(1);
});

it('leaves an orphaned event cancelled when its in-flight attempt failed', async () => {
  const id = await orphanedInFlight('bb');
  await recordAttempt(db.sql, id, { ...attempt, status_code: 500, error: 'receiver answered 500' }, 'pending', 25);
  const rows = await db.sql`select removed, status from webhook_events where tx_hash = '0xbb'`;
  expect(rows.map((r) => [r.removed, r.status])).toEqual([[false, 'cancelled']]);
});
