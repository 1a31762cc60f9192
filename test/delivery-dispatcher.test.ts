import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { DeliveryDispatcher } from '../src/webhooks/dispatcher.js';
import { parseAllowList } from '../src/net/ssrf.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { RawReceivers } from './helpers/receiver.js';

/**
 * The dispatcher against a real Postgres and real receivers: one that never answers must not
 * hold up the deliveries to another, and what waits for it goes back to the outbox unsent.
 */

let db: TestDatabase;
const receivers = new RawReceivers();
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  receivers.close();
  await db?.drop();
});

it('keeps delivering to a healthy receiver while another never answers, and hands back what waits for the dead one', async () => {
  const received: string[] = [];
  const healthyUrl = await receivers.listen((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(String(req.headers['webhook-id']));
      res.writeHead(200).end();
    });
  });
  let deadRequests = 0;
  const deadUrl = await receivers.listen((req) => {
    deadRequests++;
    req.resume(); // never answered
  });

  const key = await createApiKey(db.sql, 'dispatcher');
  const tracked = async (address: string, url: string) =>
    (
      await db.sql<
        { id: string }[]
      >`insert into tracked_addresses (api_key_id, address, family, stream_webhook, stream_created_at)
      values (${key.id}, ${address}, 'evm', ${url}, now()) returning id`
    )[0]!.id;
  const dead = await tracked('0x' + 'de'.repeat(20), deadUrl);
  const healthy = await tracked('0x' + 'a1'.repeat(20), healthyUrl);
  const insert = (trackedId: string, address: string, count: number, prefix: string) => db.sql`
    insert into webhook_events (kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, confirmed, body)
    select 'stream', ${key.id}, ${trackedId}, 'eth', ${address}, ${prefix} || g, g, '0xb' || g, false, '{"n":' || g || '}'
    from generate_series(1, ${count}) g`;
  // The dead receiver's events first: they are at the head of the queue.
  await insert(dead, '0x' + 'de'.repeat(20), 40, '0xdead');
  await insert(healthy, '0x' + 'a1'.repeat(20), 200, '0xa1');

  const dispatcher = new DeliveryDispatcher(
    {
      sql: db.sql,
      kinds: new Map(),
      timeoutMs: 120_000,
      allow: parseAllowList(['127.0.0.0/8']),
    },
    { concurrency: 16, endpointConcurrency: 4, maxAttempts: 25 },
  );
  dispatcher.start();
  try {
    await eventually(
      async () => received.length,
      (n) => n >= 200,
      60_000,
    );
    expect(new Set(received).size).toBe(200);
    // The dead one has its four POSTs out (its limit), and nothing more was sent to it.
    expect(deadRequests).toBe(4);
    const deadEvents = await db.sql<
      { attempts: number; in_doubt: number; leased: boolean; status: string }[]
    >`
      select attempts, in_doubt, coalesce(lease_until > now(), false) as leased, status
      from webhook_events where tracked_id = ${dead}`;
    expect(deadEvents.every((e) => e.status === 'pending' && e.attempts === 0)).toBe(true);
    // Only the four in flight are held; the others went back to the outbox, due again later.
    expect(deadEvents.filter((e) => e.leased)).toHaveLength(4);
    // Only those four may have reached it (a reorg now would retract them, not the others).
    expect(deadEvents.filter((e) => e.in_doubt > 0)).toHaveLength(4);
    // Recorded as delivered (outcomes are recorded in batches, a moment after the answers).
    const [healthyRows] = await eventually(
      () => db.sql<{ delivered: number }[]>`
      select count(*) filter (where status = 'delivered')::int as delivered from webhook_events where tracked_id = ${healthy}`,
      (rows) => rows[0]!.delivered === 200,
    );
    expect(healthyRows!.delivered).toBe(200);
  } finally {
    // Stopping cuts off the four POSTs still out to the dead receiver: failed attempts, to retry.
    await dispatcher.stop();
  }
  const [after] = await db.sql<{ attempted: number; pending: number }[]>`
    select count(*) filter (where attempts = 1)::int as attempted, count(*) filter (where status = 'pending')::int as pending
    from webhook_events where tracked_id = ${dead}`;
  expect(after).toEqual({ attempted: 4, pending: 40 });
}, 90_000);

it('has many deliveries in flight without a listener-leak warning, and stops cleanly', async () => {
  // Each delivery in flight listens for the dispatcher's stop; more than Node's default warning
  // level of 10 at once is normal work, and each listener goes when its request ends.
  // A database of its own: the first test leaves events for its dead receiver behind.
  const own = await freshDatabase();
  let answered = 0;
  const slowUrl = await receivers.listen((req, res) => {
    req.resume();
    req.on('end', () =>
      setTimeout(() => {
        answered++;
        res.writeHead(200).end();
      }, 300),
    );
  });
  const key = await createApiKey(own.sql, 'in-flight');
  const address = '0x' + '5b'.repeat(20);
  const [row] = await own.sql<{ id: string }[]>`
    insert into tracked_addresses (api_key_id, address, family, stream_webhook, stream_created_at)
    values (${key.id}, ${address}, 'evm', ${slowUrl}, now()) returning id`;
  await own.sql`
    insert into webhook_events (kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, confirmed, body)
    select 'stream', ${key.id}, ${row!.id}, 'eth', ${address}, '0x5b' || g, g, '0xb' || g, false, '{"n":' || g || '}'
    from generate_series(1, 60) g`;
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.name);
  process.on('warning', onWarning);
  const dispatcher = new DeliveryDispatcher(
    { sql: own.sql, kinds: new Map(), timeoutMs: 10_000, allow: parseAllowList(['127.0.0.0/8']) },
    { concurrency: 24, endpointConcurrency: 24, maxAttempts: 25 },
  );
  dispatcher.start();
  try {
    const delivered = await eventually(
      async () =>
        (
          await own.sql<{ n: number }[]>`
          select count(*)::int as n from webhook_events where tracked_id = ${row!.id} and status = 'delivered'`
        )[0]!.n,
      (n) => n === 60,
      60_000,
    );
    expect(delivered).toBe(60);
    expect(answered).toBe(60);
  } finally {
    await dispatcher.stop();
    process.off('warning', onWarning);
    await own.drop();
  }
  expect(warnings).not.toContain('MaxListenersExceededWarning');
}, 90_000);
