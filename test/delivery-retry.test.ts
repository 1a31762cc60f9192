import { afterAll, beforeAll, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { fundedWallet, randomAddress } from './helpers/chain.js';
import { Receiver } from './helpers/receiver.js';
import { eventually } from './helpers/eventually.js';

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let receiver: Receiver;

beforeAll(async () => {
  db = await freshDatabase();
  // Confirmations far away, so that only the unconfirmed event is in play here.
  app = await startTestAppliance(db.url, { TOLLGATE_CONFIRMATIONS_ETH: '1000' });
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await app?.stop();
  await receiver?.stop();
  await db?.drop();
});

/** A new key streaming a fresh address to `webhook`, and one transfer of `value` wei to it. */
async function oneStreamedTransfer(keyName: string, webhook: string, value: bigint) {
  const key = await createApiKey(db.sql, keyName);
  const to = randomAddress();
  await call(app.baseUrl, 'POST', '/v2/stream/create', {
    headers: { apikey: key.apikey },
    body: { address: to, webhook },
  });
  const w = await fundedWallet('1');
  return { key, receipt: await w.send(to, value) };
}

it('retries a failing receiver with the same webhook-id and body, recording every attempt', async () => {
  receiver.respond = (_r, i) => (i < 2 ? 500 : 200);
  const { key, receipt } = await oneStreamedTransfer('retry', receiver.url, 7n);

  // graphile-worker backs off e^1 s, then e^2 s: about ten seconds for the third attempt.
  const got = await receiver.waitFor((all) => all.length >= 3, 60_000);
  expect(got).toHaveLength(3);
  const ids = new Set(got.map((r) => r.headers['webhook-id']));
  expect(ids.size).toBe(1);
  expect(new Set(got.map((r) => r.body)).size).toBe(1);
  expect(got[0]!.json.tx.hash).toBe(receipt.transactionHash);
  const wh = new Webhook(key.webhook_secret);
  for (const r of got) wh.verify(r.body, r.headers as Record<string, string>);

  const eventId = [...ids][0]!.replace(/^msg_/, '');
  const attempts = await eventually(
    () =>
      db.sql<
        { attempt: number; status_code: number; error: string | null }[]
      >`select attempt, status_code, error from webhook_deliveries where event_id = ${eventId} order by attempt`,
    (rows) => rows.length >= 3,
  );
  expect(attempts.map((a) => [a.attempt, a.status_code])).toEqual([
    [1, 500],
    [2, 500],
    [3, 200],
  ]);
  expect(attempts[0]!.error).toBe('receiver answered 500');
  expect(attempts[2]!.error).toBeNull();
  const [event] = await db.sql`select status, attempts from webhook_events where id = ${eventId}`;
  expect(event).toMatchObject({ status: 'delivered', attempts: 3 });
});

it('does not retry a receiver that refuses with a 4xx', async () => {
  const refusing = await new Receiver().start();
  refusing.respond = () => 410;
  try {
    const { receipt } = await oneStreamedTransfer('refuse', refusing.url, 1n);
    await refusing.waitFor((all) => all.length >= 1);
    const [row] = await eventually(
      () =>
        db.sql<
          { status: string; attempts: number }[]
        >`select status, attempts from webhook_events where tx_hash = ${receipt.transactionHash}`,
      (rows) => rows[0]?.status === 'failed',
    );
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    await new Promise((r) => setTimeout(r, 4000)); // longer than the first backoff
    expect(refusing.received).toHaveLength(1);
  } finally {
    await refusing.stop();
  }
});

it('waits as long as a receiver asks with Retry-After (429, 503), no less than its backoff', async () => {
  const busy = await new Receiver().start();
  busy.respond = () => ({ status: 429, body: 'slow down', headers: { 'retry-after': '120' } });
  try {
    const { receipt } = await oneStreamedTransfer('busy', busy.url, 1n);
    await busy.waitFor((all) => all.length >= 1);
    const [row] = await eventually(
      () =>
        db.sql<{ attempts: number; wait_s: number }[]>`
          select e.attempts, extract(epoch from e.next_attempt_at - d.created_at)::float8 as wait_s
          from webhook_events e
          join webhook_deliveries d on d.event_id = e.id and d.attempt = e.attempts
          where e.tx_hash = ${receipt.transactionHash}`,
      (rows) => rows[0]?.attempts === 1,
    );
    // Asked 120 s where the backoff's first wait is e s: the next attempt is 120 s after this one.
    expect(row!.wait_s).toBeGreaterThan(115);
    expect(row!.wait_s).toBeLessThan(125);
    expect(busy.received).toHaveLength(1);
  } finally {
    await busy.stop();
  }
});
