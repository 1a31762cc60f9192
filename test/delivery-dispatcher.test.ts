import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPool } from '../src/db/index.js';
import { ensureUtxoPartitions } from '../src/indexer/utxo/store.js';
import { createApiKey } from '../src/keys/keys.js';
import { streamEvents } from '../src/streams/webhook-bodies.js';
import { DeliveryDispatcher } from '../src/webhooks/dispatcher.js';
import { retractOrphanedEvents } from '../src/webhooks/events.js';
import { parseAllowList } from '../src/net/ssrf.js';
import { freePort } from '../support/ports.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { RawReceivers } from './helpers/receiver.js';
import { startTcpRelay, type TcpRelay } from './helpers/tcp-relay.js';

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

/**
 * A stream body is built from the database at its first attempt. When the database cannot serve
 * it (here the body's reads go through a relay to Postgres that is not listening yet: a real
 * refused connection), the receiver was never asked: that is no attempt. The event goes back to
 * the outbox with its attempts untouched, no attempt row, and is sent once the database answers.
 */
it('takes a body its database could not serve for no attempt: the event waits, attempts untouched, and goes when the database answers', async () => {
  const own = await freshDatabase();
  const network = 'litecoin';
  const txid = 'ab'.repeat(32);
  const blockHash = 'cd'.repeat(32);
  const address = 'rltc1qreceiver00000000000000000000000000';
  await ensureUtxoPartitions(own.sql, network);
  // A block and its one transaction, as the indexer stores them.
  await own.sql`insert into utxo_blocks (network, height, hash, prev_hash, time, tx_count)
    values (${network}, 500, ${blockHash}, ${'ef'.repeat(32)}, 1700000000, 1)`;
  await own.sql`insert into utxo_transactions (network, txid, block_height, block_hash, tx_index, version, size, vsize,
      weight, locktime, fee, hex)
    values (${network}, ${txid}, 500, ${blockHash}, 1, 2, 222, 141, 561, 0, 1000, '0200')`;
  await own.sql`insert into utxo_outputs (network, txid, vout, block_height, value, script, address, type, req_sigs)
    values (${network}, ${txid}, 0, 500, 2099999999000000, '0014bb', ${address}, 'witness_v0_keyhash', 1)`;

  const received: { id: string; body: string }[] = [];
  const url = await receivers.listen((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ id: String(req.headers['webhook-id']), body });
      res.writeHead(200).end();
    });
  });
  const key = await createApiKey(own.sql, 'database-away');
  const [tracked] = await own.sql<{ id: string }[]>`
    insert into tracked_addresses (api_key_id, address, family, stream_webhook, stream_created_at)
    values (${key.id}, ${address}, 'utxo', ${url}, now()) returning id`;
  const [event] = await own.sql<{ id: string }[]>`
    insert into webhook_events (kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, confirmed)
    values ('stream', ${key.id}, ${tracked!.id}, ${network}, ${address}, ${txid}, 500, ${blockHash}, true)
    returning id`;

  const relayPort = await freePort();
  const through = new URL(own.url);
  through.hostname = '127.0.0.1';
  through.port = String(relayPort);
  const bodies = openPool(through.href, { max: 2 });
  const stream = streamEvents({ sql: bodies, evmClientFor: () => undefined });
  let builds = 0;
  const dispatcher = new DeliveryDispatcher(
    {
      sql: own.sql,
      kinds: new Map([
        [
          'stream',
          {
            ...stream,
            build: (events, signal) => {
              builds++;
              return stream.build!(events, signal);
            },
          },
        ],
      ]),
      // Handed-back events are due again after a second.
      timeoutMs: 1_000,
      allow: parseAllowList(['127.0.0.0/8']),
    },
    { concurrency: 4, endpointConcurrency: 4, maxAttempts: 2 },
  );
  let relay: TcpRelay | undefined;
  dispatcher.start();
  try {
    // Claimed, not built, handed back, three times over: more than its allowance of two attempts.
    await eventually(
      async () => builds,
      (n) => n >= 3,
      30_000,
    );
    const waiting = await eventually(
      () => own.sql<{ status: string; attempts: number; leased: boolean }[]>`
        select status, attempts, coalesce(lease_until > now(), false) as leased from webhook_events where id = ${event!.id}`,
      (rows) => !rows[0]!.leased,
    );
    expect(waiting).toEqual([{ status: 'pending', attempts: 0, leased: false }]);
    expect(await own.sql`select 1 from webhook_deliveries`).toEqual([]);
    expect(received).toEqual([]);

    // The database answers again: the body is built and sent, as the event's first attempt.
    relay = await startTcpRelay(new URL(own.url), relayPort);
    await eventually(
      async () => received.length,
      (n) => n > 0,
      30_000,
    );
    expect(received).toHaveLength(1);
    expect(received[0]!.id).toBe(`msg_${event!.id}`);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ hash: txid, blockHash });
    const [done] = await eventually(
      () => own.sql<{ status: string; attempts: number }[]>`
        select status, attempts from webhook_events where id = ${event!.id}`,
      (rows) => rows[0]!.status === 'delivered',
    );
    expect(done).toEqual({ status: 'delivered', attempts: 1 });
    expect(
      await own.sql`select attempt, status_code, error from webhook_deliveries where event_id = ${event!.id}`,
    ).toEqual([{ attempt: 1, status_code: 200, error: null }]);
  } finally {
    await dispatcher.stop();
    await bodies.end({ timeout: 1 });
    await relay?.close();
    await own.drop();
  }
}, 90_000);

/**
 * A reorg can orphan an event after a worker claimed it and before it is sent (while its body
 * is built). Sent anyway, and the worker killed before it recorded the receiver's 2xx, the event
 * would be cancelled when its lease ran out, with no retraction: the receiver would keep a
 * transaction that is not on the chain. The worker must not send it at all.
 */
it('never sends an event a reorg orphaned between its claim and its POST, and sends its unorphaned neighbour', async () => {
  const received: string[] = [];
  const url = await receivers.listen((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(String(req.headers['webhook-id']));
      res.writeHead(200).end();
    });
  });
  const key = await createApiKey(db.sql, 'orphaned-before-post');
  const address = '0x' + 'b7'.repeat(20);
  const [tracked] = await db.sql<{ id: string }[]>`
    insert into tracked_addresses (api_key_id, address, family, stream_webhook, stream_created_at)
    values (${key.id}, ${address}, 'evm', ${url}, now()) returning id`;
  // Bodies built at the attempt (none stored): one in block 901 (kept), one in block 902 (orphaned).
  const events = await db.sql<{ id: string; block_number: string }[]>`
    insert into webhook_events (kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, confirmed)
    values ('stream', ${key.id}, ${tracked!.id}, 'base', ${address}, '0xb701', 901, '0xbb901', false),
           ('stream', ${key.id}, ${tracked!.id}, 'base', ${address}, '0xb702', 902, '0xbb902', false)
    returning id, block_number::text`;
  const kept = events.find((e) => e.block_number === '901')!;
  const orphaned = events.find((e) => e.block_number === '902')!;
  let reorged = false;
  const dispatcher = new DeliveryDispatcher(
    {
      sql: db.sql,
      kinds: new Map([
        [
          'stream',
          {
            freeze: true,
            // The reorg lands while the claimed batch's bodies are built.
            build: async (claimed) => {
              if (!reorged) {
                await db.sql.begin((tx) => retractOrphanedEvents(tx, 'base', 901n));
                reorged = true;
              }
              return claimed.map((e) => ({ body: `{"tx":"${e.tx_hash}"}` }));
            },
          },
        ],
      ]),
      timeoutMs: 1_000,
      allow: parseAllowList(['127.0.0.0/8']),
    },
    { concurrency: 4, endpointConcurrency: 4, maxAttempts: 2 },
  );
  dispatcher.start();
  try {
    const rows = await eventually(
      () => db.sql<{ id: string; status: string; in_doubt: number; attempts: number }[]>`
        select id, status, in_doubt, attempts from webhook_events where tracked_id = ${tracked!.id} and not removed`,
      (rs) => rs.every((r) => r.status !== 'pending'),
      30_000,
    );
    expect(reorged).toBe(true);
    expect(received).toEqual([`msg_${kept.id}`]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(kept.id)).toMatchObject({ status: 'delivered', attempts: 1 });
    // Never sent, so never in doubt, and nothing to retract.
    expect(byId.get(orphaned.id)).toEqual({
      id: orphaned.id,
      status: 'cancelled',
      in_doubt: 0,
      attempts: 0,
    });
    expect(
      await db.sql`select 1 from webhook_events where tracked_id = ${tracked!.id} and removed`,
    ).toEqual([]);
    expect(await db.sql`select 1 from webhook_deliveries where event_id = ${orphaned.id}`).toEqual(
      [],
    );
  } finally {
    await dispatcher.stop();
  }
}, 60_000);
