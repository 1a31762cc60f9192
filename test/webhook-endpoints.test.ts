import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiKey, generateWebhookSecret } from '../src/keys/keys.js';
import { freePort } from '../support/ports.js';
import { fundedWallet, randomAddress } from './helpers/chain.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { call, type Reply } from './helpers/http.js';
import { Receiver, type Received } from './helpers/receiver.js';
import { expectWebhookContract } from './helpers/webhook-contract.js';

/**
 * An endpoint that keeps failing is disabled, and enabled again, on the real appliance run as
 * `tollgate start` in a child process at log level trace, its output captured: the warning in the
 * log, the metrics, the operator's signed notice, the events kept (pending, not sent) while it is
 * disabled and delivered in order once it is enabled. Then the whole log is searched for what must
 * never be in it: the secrets (the keys', a rotated one, the operator's), the receivers' answers,
 * the bodies of webhooks.
 *
 * TOLLGATE_WEBHOOK_DISABLE_AFTER_HOURS takes fractions: 0.001 hours (3.6 s) here, so a receiver
 * answering 500 is disabled at its first failed attempt 3.6 s after its first one.
 */

type Key = { id: string; apikey: string; webhook_secret: string };

const OPERATOR_SECRET = generateWebhookSecret();
/** What the failing receiver answers: the delivery log keeps it, the log must not. */
const MARKER = `EXCERPT-MARKER-${Math.random().toString(36).slice(2)}`;
let db: TestDatabase;
let child: ReturnType<typeof spawn>;
let output = '';
let baseUrl = '';
let key: Key;
let otherKey: Key;
let wallet: Awaited<ReturnType<typeof fundedWallet>>;
const failing = new Receiver();
const healthy = new Receiver();
const operator = new Receiver();
let down = true;
let rotatedSecret = '';

beforeAll(async () => {
  db = await freshDatabase();
  await Promise.all([failing.start(), healthy.start(), operator.start()]);
  failing.respond = () => (down ? { status: 500, body: `${MARKER} try later` } : 200);
  key = await createApiKey(db.sql, 'endpoints');
  otherKey = await createApiKey(db.sql, 'endpoints-other');
  wallet = await fundedWallet('10');
  const port = await freePort();
  baseUrl = `https://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'start'], {
    env: {
      PATH: process.env.PATH!,
      HOME: process.env.HOME ?? '/tmp',
      DATABASE_URL: db.url,
      TOLLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'tollgate-endpoints-')),
      TOLLGATE_HOST: '127.0.0.1',
      TOLLGATE_PORT: String(port),
      TOLLGATE_RPC_ETH: inject('rpcUrl'),
      TOLLGATE_START_BLOCK_ETH: 'head',
      TOLLGATE_CONFIRMATIONS_ETH: '1000',
      TOLLGATE_POLL_INTERVAL_MS_ETH: '100',
      TOLLGATE_LOG_LEVEL: 'trace',
      TOLLGATE_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
      TOLLGATE_DELIVERY_ENDPOINT_CONCURRENCY: '1',
      TOLLGATE_WEBHOOK_DISABLE_AFTER_HOURS: '0.001',
      TOLLGATE_OPERATOR_WEBHOOK_URL: operator.url,
      TOLLGATE_OPERATOR_WEBHOOK_SECRET: OPERATOR_SECRET,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const up = await eventually(
    async () => (await call(baseUrl, 'GET', '/healthz').catch(() => ({ status: 0 }))).status,
    (s) => s === 200,
    60_000,
  );
  expect(up, output.slice(-2000)).toBe(200);
  await eventually(
    () => db.sql`select 1 from indexer_cursors where network = 'eth'`,
    (rows) => rows.length > 0,
    30_000,
  );
}, 90_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
  }
  await Promise.all([failing.stop(), healthy.stop(), operator.stop()]);
  await db?.drop();
});

const api = (k: Key, method: string, path: string, body?: object): Promise<Reply> =>
  call(baseUrl, method, `/v2${path}`, { headers: { apikey: k.apikey }, ...(body ? { body } : {}) });

const endpointOf = async (k: Key, url: string) =>
  (await api(k, 'GET', '/webhook/endpoints')).json.data.find((e: any) => e.url === url);

function verifies(secret: string, r: Received): boolean {
  try {
    new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

async function metric(name: string): Promise<number> {
  const text = (await call(baseUrl, 'GET', '/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ')[1]);
}

/** The events of the failing stream, in sequence order. */
const eventsOfFailing = (address: string) =>
  db.sql<{ id: string; sequence: number; status: string; attempts: number; parked: boolean }[]>`
    select e.id, e.sequence::int, e.status, e.attempts, e.next_attempt_at = 'infinity' as parked
    from webhook_events e join tracked_addresses t on t.id = e.tracked_id
    where t.address = ${address.toLowerCase()} and t.api_key_id = ${key.id} order by e.sequence`;

describe('an endpoint that keeps failing', () => {
  const address = randomAddress();
  const healthyAddress = randomAddress();
  let disabledAt = 0;

  it('is disabled after the configured time, with a warning, the metrics and a signed operator notice', async () => {
    for (const [a, url] of [
      [address, failing.url],
      [healthyAddress, healthy.url],
    ] as const)
      expect(
        (await api(key, 'POST', '/stream/create', { address: a, webhook: url })).json.code,
      ).toBe(0);
    // Events keep coming while the receiver answers 500: each one's first attempt fails at once.
    const deadline = Date.now() + 60_000;
    let state = 'active';
    while (state !== 'disabled' && Date.now() < deadline) {
      await wallet.send(address, 1n);
      state = (await endpointOf(key, failing.url))?.state ?? 'none';
      if (state !== 'disabled') await new Promise((r) => setTimeout(r, 700));
    }
    expect(state).toBe('disabled');
    disabledAt = Date.now();
    const ep = await endpointOf(key, failing.url);
    expect(ep).toMatchObject({
      state: 'disabled',
      failing_since: expect.any(String),
      disabled_at: expect.any(String),
      last_status_code: 500,
      last_error: 'receiver answered 500',
      streams: 1,
      liveaml: 0,
      travelrule: false,
    });
    expect(Date.parse(ep.disabled_at) - Date.parse(ep.failing_since)).toBeGreaterThanOrEqual(3600);
    expect(ep.pending_events).toBeGreaterThan(0);
    // The healthy endpoint of the same key is not touched.
    expect((await endpointOf(key, healthy.url))?.state ?? 'active').toBe('active');

    // The operator's notice: signed with the operator's secret, naming the host, not the URL.
    const [notice] = await operator.waitFor((all) => all.length >= 1, 30_000);
    expect(verifies(OPERATOR_SECRET, notice!)).toBe(true);
    expect(verifies(key.webhook_secret, notice!)).toBe(false);
    expectWebhookContract('endpointDisabled', [notice!.json]);
    expect(notice!.json).toMatchObject({
      type: 'webhook.endpoint_disabled',
      data: {
        api_key_id: key.id,
        api_key_name: 'endpoints',
        host: new URL(failing.url).host,
        disablements: 1,
        last_status_code: 500,
      },
    });
    expect(notice!.body).not.toContain(new URL(failing.url).pathname);
    expect(notice!.body).not.toContain(MARKER);

    // The metrics.
    expect(await metric('tollgate_webhook_endpoints_disabled')).toBe(1);
    expect(await metric('tollgate_webhook_endpoint_disablements_total')).toBe(1);

    // The warning: one line, with the host and no URL, secret or answer.
    const warnings = output
      .split('\n')
      .filter((l) => l.includes('webhook endpoint disabled'))
      .map((l) => JSON.parse(l));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      level: 40,
      host: new URL(failing.url).host,
      api_key_id: key.id,
      operator_notice: true,
    });
    expect(JSON.stringify(warnings[0])).not.toContain(new URL(failing.url).pathname);
  });

  it('keeps its events pending and sends none while it is disabled; other endpoints go on', async () => {
    // Attempts already in flight when it was disabled have ended by now.
    await new Promise((r) => setTimeout(r, 1500));
    const sentBefore = failing.received.length;
    const kept = [
      (await wallet.send(address, 2n)).transactionHash,
      (await wallet.send(address, 3n)).transactionHash,
    ];
    const healthyTx = await wallet.send(healthyAddress, 1n);
    await healthy.waitFor((all) => all.some((r) => r.json?.tx?.hash === healthyTx.transactionHash));
    const rows = await eventually(
      () =>
        db.sql<{ parked: boolean }[]>`
          select next_attempt_at = 'infinity' as parked from webhook_events where tx_hash = any(${kept}::text[])`,
      (r) => r.length === 2 && r.every((e) => e.parked),
    );
    expect(rows.every((e) => e.parked)).toBe(true);
    await new Promise((r) => setTimeout(r, 1000));
    expect(failing.received.length).toBe(sentBefore);
    // None given up, none lost.
    const events = await eventsOfFailing(address);
    expect(events.every((e) => e.status === 'pending')).toBe(true);
    expect(events.filter((e) => e.attempts === 0).length).toBeGreaterThanOrEqual(2);
    expect((await endpointOf(key, failing.url)).state).toBe('disabled');
  });

  it("takes a test webhook while disabled (a test does not count), and is another key's to see or enable", async () => {
    const before = failing.received.length;
    const test = await api(key, 'POST', '/webhook/test', { address });
    expect(test.json.code).toBe(0);
    await failing.waitFor((all) => all.length > before);
    expect(failing.received.at(-1)!.json.test).toBe(true);
    expect((await endpointOf(key, failing.url)).state).toBe('disabled');

    const other = await api(otherKey, 'GET', '/webhook/endpoints');
    expect(other.json).toEqual({ code: 0, message: 'OK', data: [] });
    const refused = await api(otherKey, 'POST', '/webhook/endpoints/enable', { url: failing.url });
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe(5003);
    expect((await endpointOf(key, failing.url)).state).toBe('disabled');
  });

  it('delivers the kept events in order once enabled again', async () => {
    // A rotation meanwhile: the kept events go out signed with both secrets.
    const rotated = await api(key, 'POST', '/webhook/rotate_secret', { overlap_hours: 1 });
    rotatedSecret = rotated.json.data.webhook_secret;
    const kept = (await eventsOfFailing(address)).filter((e) => e.status === 'pending');
    expect(kept.length).toBeGreaterThanOrEqual(3);
    const before = failing.received.length;
    down = false;
    const enabled = await api(key, 'POST', '/webhook/endpoints/enable', { url: failing.url });
    expect(enabled.json).toEqual({
      code: 0,
      message: 'OK',
      data: { url: failing.url, state: 'active', was_disabled: true, released: kept.length },
    });
    await failing.waitFor((all) => all.length >= before + kept.length, 30_000);
    const arrived = failing.received.slice(before);
    expect(arrived.map((r) => r.headers['webhook-id'])).toEqual(kept.map((e) => `msg_${e.id}`));
    expect(arrived.map((r) => r.json.sequence)).toEqual(kept.map((e) => e.sequence));
    for (const r of arrived) {
      expect(verifies(key.webhook_secret, r)).toBe(true);
      expect(verifies(rotatedSecret, r)).toBe(true);
    }
    const after = await eventually(
      () => eventsOfFailing(address),
      (rows) => rows.every((e) => e.status === 'delivered'),
    );
    expect(after.every((e) => e.status === 'delivered')).toBe(true);
    const ep = await endpointOf(key, failing.url);
    expect(ep).toMatchObject({ state: 'active', failing_since: null, disabled_at: null });
    expect(await metric('tollgate_webhook_endpoints_disabled')).toBe(0);
    expect(await metric('tollgate_webhook_endpoint_disablements_total')).toBe(1);
    expect(Date.now()).toBeGreaterThan(disabledAt);
  });
});

describe('the log of the appliance', () => {
  it('holds no secret, no receiver answer and no webhook body', async () => {
    // The delivery log kept the answer: the log did not.
    const answers = await api(key, 'GET', `/webhook/deliveries?address=${address()}&status=failed`);
    expect(answers.json.data[0].response).toContain(MARKER);
    for (const secret of [key.webhook_secret, rotatedSecret, OPERATOR_SECRET, key.apikey])
      expect(output.includes(secret), 'a secret in the log').toBe(false);
    expect(output.includes(MARKER), "a receiver's answer in the log").toBe(false);
    expect(output.includes('A test webhook from Tollgate'), 'a webhook body in the log').toBe(
      false,
    );
    expect(output.includes('"formattedValue"'), 'a webhook body in the log').toBe(false);
    // It did say something: the disablement, deliveries at debug level, the requests.
    expect(output).toContain('webhook endpoint disabled');
    expect(output).toContain('operator notified of a disabled endpoint');
  });
});

/** The failing stream's address (the first stream of the key). */
function address(): string {
  return failing.received.find((r) => r.json?.tx?.address)!.json.tx.address;
}
