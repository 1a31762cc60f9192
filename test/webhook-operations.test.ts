import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { fundedWallet, randomAddress } from './helpers/chain.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { call, type Reply } from './helpers/http.js';
import { Receiver, type Received } from './helpers/receiver.js';
import { expectWebhookContract } from './helpers/webhook-contract.js';

/**
 * The webhook operations of README "Webhook operations" against the real appliance (API, worker
 * and indexer on the shared Hardhat node), real receivers on loopback and the real outbox: the
 * delivery log, redeliver and recover, test webhooks, pause and resume, and the secret rotation,
 * each scoped to the calling key. Endpoints disabled after failing: test/webhook-endpoints.test.ts.
 *
 * One POST at a time per receiver (TOLLGATE_DELIVERY_ENDPOINT_CONCURRENCY=1), so that a batch
 * arrives in the order the dispatcher sends it; confirmations far away, so that every
 * transaction makes one event per stream.
 */

type Key = { id: string; apikey: string; webhook_secret: string };

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let wallet: Awaited<ReturnType<typeof fundedWallet>>;
let keyA: Key;
let keyB: Key;
const receivers: Receiver[] = [];

async function receiver(): Promise<Receiver> {
  const r = await new Receiver().start();
  receivers.push(r);
  return r;
}

beforeAll(async () => {
  db = await freshDatabase();
  app = await startTestAppliance(db.url, {
    TOLLGATE_CONFIRMATIONS_ETH: '1000',
    TOLLGATE_DELIVERY_ENDPOINT_CONCURRENCY: '1',
  });
  keyA = await createApiKey(db.sql, 'operations-a');
  keyB = await createApiKey(db.sql, 'operations-b');
  wallet = await fundedWallet('100');
});
afterAll(async () => {
  await app?.stop();
  for (const r of receivers) await r.stop();
  await db?.drop();
});

const api = (key: Key, method: string, path: string, body?: object): Promise<Reply> =>
  call(app.baseUrl, method, `/v2${path}`, {
    headers: { apikey: key.apikey },
    ...(body ? { body } : {}),
  });

async function stream(key: Key, address: string, url: string): Promise<void> {
  const res = await api(key, 'POST', '/stream/create', { address, webhook: url });
  expect(res.json).toEqual({ code: 0, message: 'OK', data: null });
}

/** The event ids (webhook-ids without msg_) a receiver got, in the order they came. */
const idsOf = (all: Received[]) => all.map((r) => r.headers['webhook-id']!.slice(4));

function verifies(secret: string, r: Received): boolean {
  try {
    new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

/** The error body of a refusal, with its number. */
function expectRefusal(reply: Reply, number: number) {
  expect(reply.status, reply.text).toBe(400);
  expect(reply.json).toMatchObject({ code: number, status: number, message: expect.any(String) });
}

async function eventOf(txHash: string, key: Key) {
  const rows = await eventually(
    () =>
      db.sql<{ id: string; status: string; attempts: number; next_attempt_at: Date }[]>`
        select id, status, attempts, next_attempt_at from webhook_events
        where tx_hash = ${txHash} and api_key_id = ${key.id}`,
    (r) => r.length > 0,
  );
  return rows[0]!;
}

describe('the delivery log', () => {
  const address = randomAddress();
  let hook: Receiver;
  let txHash: string;
  /** A refusal the receiver writes at length: the log keeps its first 1 KiB. */
  const longAnswer = `UPSTREAM-DOWN ${'x'.repeat(3000)}`;

  beforeAll(async () => {
    hook = await receiver();
    hook.respond = (_r, i) =>
      i === 0 ? { status: 503, body: longAnswer } : { status: 200, body: '{"ok":true}' };
    await stream(keyA, address, hook.url);
    txHash = (await wallet.send(address, 1n)).transactionHash;
    await hook.waitFor((all) => all.length >= 2, 60_000);
  });

  it("lists each attempt with its time, status code, latency, error and the answer's first bytes", async () => {
    const log = await eventually(
      () => api(keyA, 'GET', `/webhook/deliveries?address=${address}`),
      (r) => r.json?.data?.length === 2,
    );
    expect(log.json).toMatchObject({ code: 0, message: 'OK', page_count: 1 });
    const [ok, failed] = log.json.data;
    const eventId = hook.received[0]!.headers['webhook-id']!.slice(4);
    expect(failed).toEqual({
      event_id: eventId,
      webhook_id: `msg_${eventId}`,
      kind: 'stream',
      address: address.toLowerCase(),
      network: 'eth',
      tx_hash: txHash,
      sequence: 1,
      event_status: 'delivered',
      attempt: 1,
      attempted_at: expect.any(String),
      url: hook.url,
      succeeded: false,
      status_code: 503,
      duration_ms: expect.any(Number),
      error: 'receiver answered 503',
      response: longAnswer.slice(0, 1024),
    });
    expect(ok).toMatchObject({
      event_id: eventId,
      attempt: 2,
      succeeded: true,
      status_code: 200,
      error: null,
      response: '{"ok":true}',
    });
    expect(Number.isInteger(failed.duration_ms) && failed.duration_ms >= 0).toBe(true);
    expect(new Date(failed.attempted_at).toISOString()).toBe(failed.attempted_at);
    expect(Date.parse(ok.attempted_at)).toBeGreaterThanOrEqual(Date.parse(failed.attempted_at));
    // The time an attempt was made: before the receiver had it (it was when the outcome was
    // recorded, after the answer; found by an outside probe).
    expect(Date.parse(failed.attempted_at)).toBeLessThanOrEqual(hook.received[0]!.at);
    expect(Date.parse(ok.attempted_at)).toBeLessThanOrEqual(hook.received[1]!.at);
  });

  it('filters by status, kind, event id (or its webhook-id) and time, and pages', async () => {
    const get = async (query: string) =>
      (await api(keyA, 'GET', `/webhook/deliveries?address=${address}&${query}`)).json;
    const eventId = hook.received[0]!.headers['webhook-id']!.slice(4);
    expect((await get('status=failed')).data.map((a: any) => a.status_code)).toEqual([503]);
    expect((await get('status=succeeded')).data.map((a: any) => a.status_code)).toEqual([200]);
    expect((await get('kind=aml')).data).toEqual([]);
    expect((await get('kind=stream')).data).toHaveLength(2);
    expect((await get(`event_id=msg_${eventId}`)).data).toHaveLength(2);
    expect((await get(`event_id=${eventId}`)).data).toHaveLength(2);
    expect((await get('since=2999-01-01T00:00:00Z')).data).toEqual([]);
    const page = await get('limit=1&page=2');
    expect(page.data.map((a: any) => a.attempt)).toEqual([1]);
    expect(page.page_count).toBe(2);
  });

  it("shows another key nothing of this key's deliveries", async () => {
    const eventId = hook.received[0]!.headers['webhook-id']!.slice(4);
    for (const query of ['', `?event_id=${eventId}`, `?address=${address}`]) {
      const other = await api(keyB, 'GET', `/webhook/deliveries${query}`);
      expect(other.json).toEqual({ code: 0, message: 'OK', data: [], page_count: 0 });
    }
  });

  it('answers bad filters with the error body', async () => {
    for (const [query, number] of [
      ['kind=liveaml', 5000],
      ['status=pending', 5000],
      ['since=yesterday', 5000],
      // Well-formed, but years the database cannot read (found by an outside probe: a 500).
      ['since=0000-01-01T00:00:00Z', 5000],
      ['since=9999-12-31T23:59:59-14:00', 5000],
      ['event_id=42', 5000],
      ['address=0x1234', 5002],
      ['limit=101', 5000],
    ] as const)
      expectRefusal(await api(keyA, 'GET', `/webhook/deliveries?${query}`), number);
  });
});

describe('redeliver and recover', () => {
  const address = randomAddress();
  let hook: Receiver;
  let refusing = true;
  /** Given up before `since`, redelivered by id; given up after it; another key's. */
  let early: string;
  let late: string[];
  let others: string;
  let since: Date;

  beforeAll(async () => {
    hook = await receiver();
    // A 4xx is not retried: each event is given up at its first attempt while this lasts.
    hook.respond = () => (refusing ? 410 : 200);
    await stream(keyA, address, hook.url);
    const otherAddress = randomAddress();
    await stream(keyB, otherAddress, hook.url);
    const failed = async (to: string, key: Key) => {
      const { transactionHash } = await wallet.send(to as `0x${string}`, 1n);
      const ev = await eventOf(transactionHash, key);
      await eventually(
        () => db.sql<{ status: string }[]>`select status from webhook_events where id = ${ev.id}`,
        (r) => r[0]?.status === 'failed',
        30_000,
      );
      return ev.id;
    };
    early = await failed(address, keyA);
    const [row] = await db.sql<
      { at: Date }[]
    >`select gave_up_at + interval '1 millisecond' as at from webhook_events where id = ${early}`;
    since = row!.at;
    late = [await failed(address, keyA), await failed(address, keyA)];
    others = await failed(otherAddress, keyB);
    refusing = false;
  });

  it('redelivers one given-up event with the same webhook-id and body, and only the key may', async () => {
    const first = hook.received.find((r) => r.headers['webhook-id'] === `msg_${early}`)!;
    expectRefusal(await api(keyB, 'POST', '/webhook/redeliver', { event_id: early }), 5003);
    const res = await api(keyA, 'POST', '/webhook/redeliver', { event_id: `msg_${early}` });
    expect(res.json).toEqual({
      code: 0,
      message: 'OK',
      data: { event_id: early, status: 'pending' },
    });
    await hook.waitFor(
      (all) => all.filter((r) => r.headers['webhook-id'] === `msg_${early}`).length === 2,
    );
    const again = hook.received.filter((r) => r.headers['webhook-id'] === `msg_${early}`)[1]!;
    expect(again.body).toBe(first.body);
    expect(verifies(keyA.webhook_secret, again)).toBe(true);
    const [ev] = await eventually(
      () => db.sql<{ status: string }[]>`select status from webhook_events where id = ${early}`,
      (r) => r[0]?.status === 'delivered',
    );
    expect(ev!.status).toBe('delivered');
  });

  it("recovers exactly the key's events given up since the time, and they are delivered", async () => {
    const before = hook.received.length;
    const res = await api(keyA, 'POST', '/webhook/recover', { since: since.toISOString() });
    expect(res.json).toEqual({ code: 0, message: 'OK', data: { requeued: 2, more: false } });
    await hook.waitFor((all) => all.length >= before + 2);
    await new Promise((r) => setTimeout(r, 1000)); // room for anything else to arrive (nothing should)
    expect(idsOf(hook.received.slice(before)).sort()).toEqual([...late].sort());
    const rows = await db.sql<{ id: string; status: string }[]>`
      select id, status from webhook_events where id = any(${[early, ...late, others]}::uuid[])`;
    const status = Object.fromEntries(rows.map((r) => [r.id, r.status]));
    expect(status).toEqual({
      [early]: 'delivered',
      [late[0]!]: 'delivered',
      [late[1]!]: 'delivered',
      // The other key's given-up event is untouched.
      [others]: 'failed',
    });
    // Nothing is left to recover.
    expect(
      (await api(keyA, 'POST', '/webhook/recover', { since: since.toISOString() })).json.data,
    ).toEqual({ requeued: 0, more: false });
  });

  it('redelivers a delivered event too, and refuses what cannot be sent again', async () => {
    const before = hook.received.filter((r) => r.headers['webhook-id'] === `msg_${late[0]}`);
    expect((await api(keyA, 'POST', '/webhook/redeliver', { event_id: late[0] })).status).toBe(200);
    await hook.waitFor(
      (all) =>
        all.filter((r) => r.headers['webhook-id'] === `msg_${late[0]}`).length > before.length,
    );
    const [cancelled] = await db.sql<{ id: string }[]>`
      insert into webhook_events (kind, api_key_id, network, address, tx_hash, block_number, block_hash, confirmed, status)
      values ('stream', ${keyA.id}, 'eth', ${address.toLowerCase()}, '0xcancelled', 1, '0xb', false, 'cancelled') returning id`;
    expectRefusal(await api(keyA, 'POST', '/webhook/redeliver', { event_id: cancelled!.id }), 5000);
    // Given up, then its block orphaned: its transaction is gone, so neither redeliver nor recover
    // sends it (recover counted it as requeued, then the dispatcher cancelled it).
    const [reorganised] = await db.sql<{ id: string }[]>`
      insert into webhook_events (kind, api_key_id, network, address, tx_hash, block_number, block_hash, confirmed, status, gave_up_at, orphaned, confirmation_done)
      values ('stream', ${keyA.id}, 'eth', ${address.toLowerCase()}, '0xorphaned', 1, '0xb', false, 'failed', now(), true, true) returning id`;
    const refusal = await api(keyA, 'POST', '/webhook/redeliver', { event_id: reorganised!.id });
    expectRefusal(refusal, 5000);
    expect(refusal.json.message).toMatch(/reorganised away/);
    expect(
      (await api(keyA, 'POST', '/webhook/recover', { since: since.toISOString() })).json.data,
    ).toEqual({ requeued: 0, more: false });
    expectRefusal(
      await api(keyA, 'POST', '/webhook/redeliver', {
        event_id: '00000000-0000-4000-8000-000000000000',
      }),
      5003,
    );
    expectRefusal(await api(keyA, 'POST', '/webhook/redeliver', { event_id: 'nope' }), 5000);
    expectRefusal(await api(keyA, 'POST', '/webhook/recover', { since: 'last week' }), 5000);
    for (const out of ['0000-01-01T00:00:00Z', '9999-12-31T23:59:59-14:00'])
      expectRefusal(await api(keyA, 'POST', '/webhook/recover', { since: out }), 5000);
    expectRefusal(
      await api(keyA, 'POST', '/webhook/recover', { since: since.toISOString(), kind: 'test' }),
      5000,
    );
  });
});

describe('test webhooks', () => {
  const address = randomAddress();
  let hook: Receiver;

  beforeAll(async () => {
    hook = await receiver();
    await stream(keyA, address, hook.url);
  });

  it("sends a signed test webhook to a subscription's receiver and logs its attempt", async () => {
    const res = await api(keyA, 'POST', '/webhook/test', { address });
    expect(res.json).toMatchObject({
      code: 0,
      data: { url: hook.url, kind: 'stream', event_id: expect.any(String) },
    });
    const { event_id, webhook_id } = res.json.data;
    expect(webhook_id).toBe(`msg_${event_id}`);
    const [r] = await hook.waitFor((all) => all.length >= 1);
    expect(r!.headers['webhook-id']).toBe(webhook_id);
    // Signed exactly like every webhook: the reference verifier with the key's secret.
    expect(verifies(keyA.webhook_secret, r!)).toBe(true);
    expect(verifies(keyB.webhook_secret, r!)).toBe(false);
    expect(r!.json).toMatchObject({
      type: 'test',
      test: true,
      kind: 'stream',
      address: address.toLowerCase(),
    });
    expect(r!.json.sequence).toBeUndefined();
    expectWebhookContract('test', [r!.json]);
    const log = await eventually(
      () => api(keyA, 'GET', `/webhook/deliveries?event_id=${event_id}`),
      (reply) => reply.json?.data?.length === 1,
    );
    expect(log.json.data[0]).toMatchObject({
      kind: 'test',
      succeeded: true,
      status_code: 200,
      url: hook.url,
      event_status: 'delivered',
    });
    // A test webhook takes no place in the subscription's numbering.
    const [numbered] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from webhook_sequences s join tracked_addresses t on t.id = s.tracked_id
      where t.address = ${address.toLowerCase()}`;
    expect(numbered!.n).toBe(0);
  });

  it('sends one to any URL given, once, even when it fails', async () => {
    const other = await receiver();
    other.respond = () => 500;
    const res = await api(keyA, 'POST', '/webhook/test', { url: other.url, kind: 'aml' });
    expect(res.json.data).toMatchObject({ url: other.url, kind: 'aml' });
    await other.waitFor((all) => all.length >= 1);
    const [ev] = await eventually(
      () =>
        db.sql<{ status: string; attempts: number; gave_up_at: Date | null }[]>`
        select status, attempts, gave_up_at from webhook_events where id = ${res.json.data.event_id}`,
      (r) => r[0]?.status === 'failed',
    );
    // One attempt, no retry, and not "given up" (no alarm for a test).
    expect(ev).toEqual({ status: 'failed', attempts: 1, gave_up_at: null });
    await new Promise((r) => setTimeout(r, 3500)); // past the first retry's backoff
    expect(other.received).toHaveLength(1);
  });

  it('refuses what is not a receiver of the key', async () => {
    expectRefusal(await api(keyB, 'POST', '/webhook/test', { address }), 5003);
    expectRefusal(await api(keyA, 'POST', '/webhook/test', { address: randomAddress() }), 5003);
    expectRefusal(await api(keyA, 'POST', '/webhook/test', { address, kind: 'aml' }), 5003);
    expectRefusal(await api(keyA, 'POST', '/webhook/test', { kind: 'travelrule' }), 5003);
    expectRefusal(await api(keyA, 'POST', '/webhook/test', {}), 5000);
    expectRefusal(await api(keyA, 'POST', '/webhook/test', { address, url: hook.url }), 5000);
    expectRefusal(await api(keyA, 'POST', '/webhook/test', { url: 'ftp://127.0.0.1/x' }), 5004);
    expectRefusal(await api(keyA, 'POST', '/webhook/test', { url: 'http://10.0.0.1/x' }), 5004);
    expectRefusal(await api(keyA, 'POST', '/webhook/test', { address: '0x12' }), 5002);
  });
});

describe('pause and resume', () => {
  it("keeps a paused stream's events and sends none; on resume they arrive in sequence order", async () => {
    const hook = await receiver();
    const address = randomAddress();
    await stream(keyA, address, hook.url);
    expectRefusal(await api(keyB, 'POST', '/stream/pause', { address }), 5003);
    const paused = await api(keyA, 'POST', '/stream/pause', { address });
    expect(paused.json).toEqual({
      code: 0,
      message: 'OK',
      data: { address: address.toLowerCase(), paused: true, released: 0 },
    });
    const listed = (await api(keyA, 'GET', '/stream/list?limit=100')).json.data.find(
      (s: any) => s.address === address.toLowerCase(),
    );
    expect(listed.paused).toBe(true);

    const hashes: string[] = [];
    for (let i = 0; i < 4; i++)
      hashes.push((await wallet.send(address, BigInt(i + 1))).transactionHash);
    // Written to the outbox as usual, claimed, and kept there (parked), not sent.
    const kept = await eventually(
      () =>
        db.sql<
          { tx_hash: string; sequence: string; status: string; parked: boolean; attempts: number }[]
        >`
          select e.tx_hash, e.sequence::text, e.status, e.next_attempt_at = 'infinity' as parked, e.attempts
          from webhook_events e join tracked_addresses t on t.id = e.tracked_id
          where t.address = ${address.toLowerCase()} and t.api_key_id = ${keyA.id} order by e.sequence`,
      (rows) => rows.length === 4 && rows.every((r) => r.parked),
    );
    expect(kept.map((r) => [r.tx_hash, r.sequence, r.status, r.parked, r.attempts])).toEqual(
      hashes.map((h, i) => [h, String(i + 1), 'pending', true, 0]),
    );
    expect(hook.received).toHaveLength(0);

    const resumed = await api(keyA, 'POST', '/stream/resume', { address });
    expect(resumed.json.data).toEqual({
      address: address.toLowerCase(),
      paused: false,
      released: 4,
    });
    await hook.waitFor((all) => all.length >= 4);
    expect(hook.received.map((r) => r.json.sequence)).toEqual([1, 2, 3, 4]);
    expect(hook.received.map((r) => r.json.tx.hash)).toEqual(hashes);
    for (const r of hook.received) expect(verifies(keyA.webhook_secret, r)).toBe(true);

    // Not paused any more: the next one goes at once.
    const next = await wallet.send(address, 9n);
    await hook.waitFor((all) => all.length >= 5);
    expect(hook.received[4]!.json).toMatchObject({
      sequence: 5,
      tx: { hash: next.transactionHash },
    });
  });

  it('pauses and resumes a live AML tracking the same way, leaving its stream alone', async () => {
    const [alerts, streamed] = [await receiver(), await receiver()];
    const mixer = await fundedWallet('10');
    await db.sql`insert into labels (network, address, category, source)
      values ('evm', ${mixer.address.toLowerCase()}, 'mixer', 'test')`;
    const address = randomAddress();
    const created = await api(keyA, 'POST', '/liveaml/create', {
      address,
      webhook: alerts.url,
      stream_webhook: streamed.url,
    });
    expect(created.json.code).toBe(0);
    expect((await api(keyA, 'POST', '/liveaml/pause', { address })).json.data).toEqual({
      address: address.toLowerCase(),
      paused: true,
      released: 0,
    });
    const tracking = (await api(keyA, 'GET', '/liveaml/list?page=1&limit=100')).json.data.find(
      (t: any) => t.address === address.toLowerCase(),
    );
    expect(tracking.paused).toBe(true);

    const risky = await mixer.send(address, 10n ** 15n);
    // The stream is not paused: its delivery comes; the alert is written and kept.
    await streamed.waitFor((all) => all.some((r) => r.json?.tx?.hash === risky.transactionHash));
    await eventually(
      () =>
        db.sql<{ parked: boolean }[]>`
          select next_attempt_at = 'infinity' as parked from webhook_events
          where kind = 'liveaml' and tx_hash = ${risky.transactionHash}`,
      (rows) => rows.length === 1 && rows[0]!.parked,
      30_000,
    );
    expect(alerts.received).toHaveLength(0);

    const resumed = await api(keyA, 'POST', '/liveaml/resume', { address });
    expect(resumed.json.data).toEqual({
      address: address.toLowerCase(),
      paused: false,
      released: 1,
    });
    const [alert] = await alerts.waitFor((all) => all.length >= 1);
    expect(alert!.json).toMatchObject({ hash: risky.transactionHash, sequence: 1 });
    expect(verifies(keyA.webhook_secret, alert!)).toBe(true);
  });

  it('cancels the kept events of a stream deleted while paused, at once: a stream created again at once gets none of them', async () => {
    const hook = await receiver();
    const address = randomAddress();
    await stream(keyA, address, hook.url);
    await api(keyA, 'POST', '/stream/pause', { address });
    const { transactionHash } = await wallet.send(address, 1n);
    await eventually(
      () =>
        db.sql<{ parked: boolean }[]>`
          select next_attempt_at = 'infinity' as parked from webhook_events where tx_hash = ${transactionHash}`,
      (r) => r.length === 1 && r[0]!.parked,
    );
    // Deleted and created again before the dispatcher looks (found by an outside probe: the
    // events found the new stream's receiver and were sent to it).
    const again = await receiver();
    expect((await api(keyA, 'DELETE', `/stream/delete?address=${address}`)).json.code).toBe(0);
    const [row] = await db.sql<{ status: string }[]>`
      select status from webhook_events where tx_hash = ${transactionHash} and kind = 'stream'`;
    expect(row!.status).toBe('cancelled');
    await stream(keyA, address, again.url);
    const next = await wallet.send(address, 2n);
    await again.waitFor((all) => all.some((r) => r.json?.tx?.hash === next.transactionHash));
    expect(again.received.map((r) => r.json.tx.hash)).not.toContain(transactionHash);
    expect(hook.received).toHaveLength(0);
  });

  it('lets the events kept for a disabled endpoint follow the stream to its new URL', async () => {
    const [old, next] = [await receiver(), await receiver()];
    const address = randomAddress();
    await stream(keyA, address, old.url);
    // The endpoint disabled (how it comes to be is test/webhook-endpoints.test.ts).
    await db.sql`insert into webhook_endpoints (api_key_id, url, failing_since, disabled_at)
      values (${keyA.id}, ${old.url}, now() - interval '6 days', now())`;
    const { transactionHash } = await wallet.send(address, 1n);
    await eventually(
      () =>
        db.sql<{ parked: boolean }[]>`
          select next_attempt_at = 'infinity' as parked from webhook_events where tx_hash = ${transactionHash}`,
      (r) => r.length === 1 && r[0]!.parked,
    );
    const endpoints = (await api(keyA, 'GET', '/webhook/endpoints')).json.data;
    expect(endpoints.find((e: any) => e.url === old.url)).toMatchObject({
      state: 'disabled',
      streams: 1,
      pending_events: 1,
    });
    await stream(keyA, address, next.url);
    const [r] = await next.waitFor((all) => all.length >= 1);
    expect(r!.json.tx.hash).toBe(transactionHash);
    expect(old.received).toHaveLength(0);
  });

  it('refuses what the key does not have', async () => {
    const address = randomAddress();
    expectRefusal(await api(keyA, 'POST', '/stream/pause', { address }), 5003);
    expectRefusal(await api(keyA, 'POST', '/stream/resume', { address }), 5003);
    expectRefusal(await api(keyA, 'POST', '/liveaml/pause', { address }), 5003);
    expectRefusal(await api(keyA, 'POST', '/stream/pause', { address: 'not-an-address' }), 5002);
    expectRefusal(await api(keyA, 'POST', '/liveaml/resume', {}), 5002);
  });
});

describe('secret rotation', () => {
  it('signs with both secrets during the overlap, and with the new one alone after it', async () => {
    const key = await createApiKey(db.sql, 'rotation');
    const hook = await receiver();
    const address = randomAddress();
    await stream(key, address, hook.url);

    const rotated = await api(key, 'POST', '/webhook/rotate_secret', {});
    const { webhook_secret, previous_expires_at } = rotated.json.data;
    expect(webhook_secret).toMatch(/^whsec_/);
    expect(webhook_secret).not.toBe(key.webhook_secret);
    const overlapMs = Date.parse(previous_expires_at) - Date.now();
    expect(overlapMs).toBeGreaterThan(23 * 3600_000);
    expect(overlapMs).toBeLessThan(25 * 3600_000);

    // During the overlap: a receiver verifying with the old secret and one with the new accept.
    await wallet.send(address, 1n);
    await api(key, 'POST', '/webhook/test', { address });
    const during = await hook.waitFor((all) => all.length >= 2);
    for (const r of during) {
      expect(r.headers['webhook-signature']!.split(' ')).toHaveLength(2);
      expect(verifies(key.webhook_secret, r)).toBe(true);
      expect(verifies(webhook_secret, r)).toBe(true);
      expect(verifies(keyB.webhook_secret, r)).toBe(false);
    }

    // The overlap ends (its end moved to the past in the database, as time would).
    await db.sql`update api_keys set webhook_secret_previous_until = now() - interval '1 second' where id = ${key.id}`;
    await wallet.send(address, 2n);
    const after = (await hook.waitFor((all) => all.length >= 3))[2]!;
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(verifies(webhook_secret, after)).toBe(true);
    expect(verifies(key.webhook_secret, after)).toBe(false);

    // No overlap asked: the new secret alone at once.
    const third = await api(key, 'POST', '/webhook/rotate_secret', { overlap_hours: 0 });
    expect(third.json.data.previous_expires_at).toBeNull();
    await api(key, 'POST', '/webhook/test', { address });
    const last = (await hook.waitFor((all) => all.length >= 4))[3]!;
    expect(verifies(third.json.data.webhook_secret, last)).toBe(true);
    expect(verifies(webhook_secret, last)).toBe(false);

    // Another key's secret is untouched.
    const [b] = await db.sql<
      { webhook_secret: string }[]
    >`select webhook_secret from api_keys where id = ${keyB.id}`;
    expect(b!.webhook_secret).toBe(keyB.webhook_secret);
    // Audited as the key's, without either secret.
    const audit = await db.sql<{ actor: string; action: string; details: unknown }[]>`
      select actor, action, details from audit_log where action = 'webhook_secret_rotate' and actor = ${`apikey:${key.id}`}`;
    expect(audit).toHaveLength(2);
    expect(JSON.stringify(audit)).not.toContain('whsec_');
  });

  it('takes an overlap within bounds only', async () => {
    const key = await createApiKey(db.sql, 'rotation-bounds');
    const half = await api(key, 'POST', '/webhook/rotate_secret', { overlap_hours: 0.5 });
    const ms = Date.parse(half.json.data.previous_expires_at) - Date.now();
    expect(ms).toBeGreaterThan(25 * 60_000);
    expect(ms).toBeLessThan(35 * 60_000);
    for (const overlap_hours of [-1, 169, 'abc', true, null])
      expectRefusal(await api(key, 'POST', '/webhook/rotate_secret', { overlap_hours }), 5000);
  });
});

describe('audit', () => {
  it("writes every change an API key made, as that key's", async () => {
    const rows = await db.sql<{ action: string }[]>`
      select distinct action from audit_log where actor = ${`apikey:${keyA.id}`}`;
    expect(rows.map((r) => r.action).sort()).toEqual(
      [
        'liveaml_pause',
        'liveaml_resume',
        'stream_pause',
        'stream_resume',
        'webhook_recover',
        'webhook_redeliver',
        'webhook_test',
      ].sort(),
    );
  });
});
