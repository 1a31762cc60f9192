import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Hono } from 'hono';
import { createApiKey } from '../src/keys/keys.js';
import { metricsAccess } from '../src/monitoring/metrics-access.js';
import { ensureNetworkPartitions, revertToAncestor } from '../src/indexer/evm/store.js';
import { ensureUtxoPartitions, revertUtxoToAncestor } from '../src/indexer/utxo/store.js';
import { startTestAppliance } from './helpers/appliance.js';
import { fundedWallet, randomAddress } from './helpers/chain.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { ProxyTrust } from '../src/net/proxy.js';
import { startTcpRelay } from './helpers/tcp-relay.js';

const API_ONLY = { api: true, worker: false, indexer: false, devChain: false } as const;
const TOKEN = 'metrics-token-0123456789abcdef';

/** Samples of a Prometheus text exposition: `name{labels}` → value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;

beforeAll(async () => {
  db = await freshDatabase();
  app = await startTestAppliance(db.url);
});
afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

async function scrape(): Promise<{ text: string; values: Map<string, number> }> {
  const res = await call(app.baseUrl, 'GET', '/metrics');
  expect(res.status).toBe(200);
  return { text: res.text, values: samples(res.text) };
}

describe('GET /metrics', () => {
  it('serves every Tollgate metric to loopback in Prometheus text format', async () => {
    const res = await call(app.baseUrl, 'GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of [
      'tollgate_database_up',
      'tollgate_indexer_head_block',
      'tollgate_indexer_indexed_block',
      'tollgate_indexer_lag_blocks',
      'tollgate_indexer_halted',
      'tollgate_indexer_node_behind',
      'tollgate_indexer_reorgs_total',
      'tollgate_indexer_blocks_total',
      'tollgate_indexer_transactions_total',
      'tollgate_jobs',
      'tollgate_webhook_deliveries_total',
      'tollgate_webhook_delivery_duration_seconds',
      'tollgate_webhook_events',
      'tollgate_webhook_events_given_up',
      'tollgate_http_request_duration_seconds',
      'tollgate_travelrule_transactions',
      'tollgate_process_cpu_seconds_total',
    ])
      expect(res.text).toContain(`# TYPE ${name} `);
    expect(res.text).toContain('# TYPE tollgate_indexer_blocks_total counter');
    expect(res.text).toContain('# TYPE tollgate_webhook_delivery_duration_seconds histogram');
    const values = samples(res.text);
    expect(values.get('tollgate_database_up')).toBe(1);
    expect(values.get('tollgate_jobs{task="liveaml_check",state="failed"}')).toBe(0);
    expect(values.get('tollgate_webhook_events_given_up{kind="stream"}')).toBe(0);
    expect(values.get('tollgate_indexer_halted{network="eth"}')).toBe(0);
    expect(values.get('tollgate_indexer_node_behind{network="eth"}')).toBe(0);
    // The indexer reads its node's head at every poll (100 ms here).
    expect(values.get('tollgate_indexer_head_seen_age_seconds{network="eth"}')).toBeLessThan(30);
    expect(values.get('tollgate_indexer_followed{network="eth"}')).toBe(1);
  });

  it('counts blocks and transactions as the indexer stores them', async () => {
    const before = (await scrape()).values;
    const w = await fundedWallet();
    await w.send(randomAddress(), 10n ** 15n);
    await vi.waitFor(
      async () => {
        const now = (await scrape()).values;
        expect(now.get('tollgate_indexer_blocks_total{network="eth"}')).toBeGreaterThan(
          before.get('tollgate_indexer_blocks_total{network="eth"}') ?? 0,
        );
        expect(now.get('tollgate_indexer_transactions_total{network="eth"}')).toBeGreaterThan(
          before.get('tollgate_indexer_transactions_total{network="eth"}') ?? 0,
        );
        expect(now.get('tollgate_indexer_indexed_block{network="eth"}')).toBeGreaterThan(
          before.get('tollgate_indexer_indexed_block{network="eth"}') ?? 0,
        );
        // Hardhat 2 has no call traces: its blocks are stored untraced, and the gauge says so.
        expect(now.get('tollgate_indexer_call_traces{network="eth"}')).toBe(0);
      },
      { timeout: 20_000, interval: 200 },
    );
  });

  it('counts reorgs in the transaction that reverts them (EVM and UTXO stores)', async () => {
    // Networks nothing indexes in this test: their cursors are written by hand.
    await ensureNetworkPartitions(db.sql, 'polygon');
    await ensureUtxoPartitions(db.sql, 'doge');
    await db.sql`insert into indexer_cursors (network, chain_id, block_number, block_hash, head_number, blocks_indexed, txs_indexed)
      values ('polygon', 137, 100, '0xaa', 130, 7, 21), ('doge', 0, 50, 'bb', null, 3, 4)`;
    await revertToAncestor(db.sql, 'polygon', 98n, '0x98', 2);
    await revertToAncestor(db.sql, 'polygon', 97n, '0x97', 1);
    await revertUtxoToAncestor(db.sql, 'doge', 49n, 'cc', 1);
    const { values, text } = await scrape();
    expect(values.get('tollgate_indexer_reorgs_total{network="polygon"}')).toBe(2);
    expect(values.get('tollgate_indexer_reorgs_total{network="doge"}')).toBe(1);
    expect(values.get('tollgate_indexer_blocks_total{network="polygon"}')).toBe(7);
    expect(values.get('tollgate_indexer_transactions_total{network="polygon"}')).toBe(21);
    expect(values.get('tollgate_indexer_head_block{network="polygon"}')).toBe(130);
    expect(values.get('tollgate_indexer_indexed_block{network="polygon"}')).toBe(97);
    expect(values.get('tollgate_indexer_lag_blocks{network="polygon"}')).toBe(33);
    expect(text).not.toContain('tollgate_indexer_head_block{network="doge"}'); // no head seen yet
  });

  it('builds the delivery latency histogram and outcome counters from the delivery records', async () => {
    const key = await createApiKey(db.sql, 'metrics');
    const [ev] = await db.sql<{ id: string }[]>`
      insert into webhook_events (kind, api_key_id, network, address, tx_hash, block_number, block_hash, confirmed, status)
      values ('liveaml', ${key.id}, 'eth', '0xabc', '0x1', 1, '0xb', false, 'delivered') returning id`;
    const durations = [10, 50, 51, 300, 12_000];
    for (const [i, ms] of durations.entries()) {
      await db.sql`insert into webhook_deliveries (event_id, attempt, url, status_code, duration_ms) values (${ev!.id}, ${i + 1}, 'https://x.example/', 200, ${ms})`;
    }
    await db.sql`insert into webhook_deliveries (event_id, attempt, url, status_code, duration_ms, error) values (${ev!.id}, 9, 'https://x.example/', 503, 700, 'HTTP 503')`;

    const { values, text } = await scrape();
    const l = 'kind="liveaml",outcome="delivered"';
    const bucket = (le: string) =>
      values.get(`tollgate_webhook_delivery_duration_seconds_bucket{${l},le="${le}"}`);
    expect(['0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'].map(bucket)).toEqual([
      2, 3, 3, 4, 4, 4, 4, 4, 5,
    ]);
    expect(values.get(`tollgate_webhook_delivery_duration_seconds_count{${l}}`)).toBe(5);
    expect(values.get(`tollgate_webhook_delivery_duration_seconds_sum{${l}}`)).toBeCloseTo(
      12.411,
      6,
    );
    expect(
      values.get(
        'tollgate_webhook_delivery_duration_seconds_bucket{kind="liveaml",outcome="failed_attempt",le="0.5"}',
      ),
    ).toBe(0);
    expect(
      values.get(
        'tollgate_webhook_delivery_duration_seconds_bucket{kind="liveaml",outcome="failed_attempt",le="1"}',
      ),
    ).toBe(1);
    expect(values.get(`tollgate_webhook_deliveries_total{${l}}`)).toBe(5);
    expect(
      values.get('tollgate_webhook_deliveries_total{kind="liveaml",outcome="failed_attempt"}'),
    ).toBe(1);
    expect(values.get('tollgate_webhook_events{kind="liveaml",status="delivered"}')).toBe(1);
    // Buckets in ascending order, each family once.
    expect(text.match(/^# TYPE tollgate_webhook_delivery_duration_seconds /gm)).toHaveLength(1);
  });

  it('labels HTTP latency with the route pattern, never the raw path', async () => {
    const secret = 'tk_secretpathtoken_9f8e7d6c5b4a';
    await call(app.baseUrl, 'POST', `/trp/v3/inquiries/${secret}`, { body: {} });
    await call(app.baseUrl, 'GET', `/v2/stream/list?apikey=${secret}`);
    await call(app.baseUrl, 'GET', `/no/such/${secret}`);
    const { text } = await scrape();
    expect(text).not.toContain(secret);
    expect(text).toMatch(
      /tollgate_http_request_duration_seconds_count\{method="POST",route="\/trp\/v3\/inquiries\/:token",status="\d+"\} 1/,
    );
    expect(text).toMatch(
      /tollgate_http_request_duration_seconds_count\{method="GET",route="\/v2\/[^"]*",status="401"\} \d/,
    );
    expect(text).toMatch(
      /tollgate_http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/metrics",status="200"\} \d/,
    );
  });

  it('refuses addresses outside the allowed ranges, and checks the bearer token', async () => {
    const other = await startTestAppliance(
      db.url,
      { TOLLGATE_METRICS_ALLOW_CIDRS: '10.0.0.0/8' },
      API_ONLY,
    );
    try {
      const res = await call(other.baseUrl, 'GET', '/metrics');
      expect(res.status).toBe(403);
      expect(res.json).toMatchObject({ code: 4030, status: 4030 });
      expect(res.text).not.toContain('tollgate_');
    } finally {
      await other.stop();
    }
    const withToken = await startTestAppliance(
      db.url,
      { TOLLGATE_METRICS_ALLOW_CIDRS: '10.0.0.0/8', TOLLGATE_METRICS_TOKEN: TOKEN },
      API_ONLY,
    );
    try {
      expect(
        (
          await call(withToken.baseUrl, 'GET', '/metrics', {
            headers: { authorization: `Bearer ${TOKEN}` },
          })
        ).status,
      ).toBe(200);
      const wrong = await call(withToken.baseUrl, 'GET', '/metrics', {
        headers: { authorization: `Bearer ${TOKEN}x` },
      });
      expect(wrong.status).toBe(401);
      expect(wrong.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(wrong.json).toMatchObject({ code: 4010, status: 4010 });
      expect((await call(withToken.baseUrl, 'GET', '/metrics')).status).toBe(403);
    } finally {
      await withToken.stop();
    }
    // From loopback (default ranges) a wrong token is still refused.
    expect(
      (await call(app.baseUrl, 'GET', '/metrics', { headers: { authorization: 'Bearer nope' } }))
        .status,
    ).toBe(401);
  });
});

describe('metricsAccess', () => {
  const appFor = (opts: Parameters<typeof metricsAccess>[0]) => {
    const a = new Hono();
    a.get('/m', metricsAccess(opts), (c) => c.text('ok'));
    return a;
  };
  const from = (ip: string) => ({ incoming: { socket: { remoteAddress: ip } } });

  it('judges an IPv4-mapped IPv6 peer as its IPv4 address', async () => {
    const a = appFor({ allowCidrs: ['127.0.0.0/8'], trustProxy: null });
    expect((await a.request('/m', {}, from('::ffff:127.0.0.1'))).status).toBe(200);
    expect((await a.request('/m', {}, from('::ffff:10.1.2.3'))).status).toBe(403);
    expect((await a.request('/m', {}, from('::1'))).status).toBe(403);
    expect((await a.request('/m', {})).status).toBe(403); // no socket: no address
  });

  it('behind a proxy judges the address the proxy appended, and never the proxy itself', async () => {
    const a = appFor({
      allowCidrs: ['127.0.0.0/8', '10.0.0.0/8'],
      trustProxy: ProxyTrust.of(['127.0.0.1/32']),
    });
    expect(
      (
        await a.request(
          '/m',
          { headers: { 'x-forwarded-for': '203.0.113.9, 10.0.0.5' } },
          from('127.0.0.1'),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await a.request(
          '/m',
          { headers: { 'x-forwarded-for': '10.0.0.5, 203.0.113.9' } },
          from('127.0.0.1'),
        )
      ).status,
    ).toBe(403);
    // Through the proxy without X-Forwarded-For: no client address (never the proxy's own).
    expect((await a.request('/m', {}, from('127.0.0.1'))).status).toBe(403);
  });

  it('believes X-Forwarded-For only from a configured proxy', async () => {
    const a = appFor({
      allowCidrs: ['127.0.0.0/8'],
      trustProxy: ProxyTrust.of(['10.9.9.9/32']),
    });
    // A direct client claiming to be loopback is judged by its own address.
    expect(
      (await a.request('/m', { headers: { 'x-forwarded-for': '127.0.0.1' } }, from('203.0.113.7')))
        .status,
    ).toBe(403);
    // The configured proxy forwarding a loopback client: allowed.
    expect(
      (await a.request('/m', { headers: { 'x-forwarded-for': '127.0.0.1' } }, from('10.9.9.9')))
        .status,
    ).toBe(200);
    // A client's own X-Forwarded-For entry left of the proxy's is not the client.
    expect(
      (
        await a.request(
          '/m',
          { headers: { 'x-forwarded-for': '127.0.0.1, 203.0.113.7' } },
          from('10.9.9.9'),
        )
      ).status,
    ).toBe(403);
  });

  it('with no token configured refuses any Authorization header', async () => {
    const a = appFor({ allowCidrs: ['127.0.0.0/8'], trustProxy: null });
    expect(
      (await a.request('/m', { headers: { authorization: 'Bearer whatever' } }, from('127.0.0.1')))
        .status,
    ).toBe(401);
  });
});

describe('GET /metrics while the database does not answer', () => {
  it('answers within its wait with database_up 0, keeping the database figures of the last scrape', async () => {
    // A frozen Postgres (SIGSTOP, a paused VM) fails no statement: the scrape waited for the
    // request deadline and got a 503 (Prometheus: the process is down), and when the read failed
    // the disablements counter read 0, then its value again (a reset and a false increase; found
    // by an outside probe). Here the API reaches Postgres through a relay that freezes.
    const target = new URL(db.url);
    const relay = await startTcpRelay(target);
    const viaRelay = new URL(db.url);
    viaRelay.hostname = '127.0.0.1';
    viaRelay.port = String(relay.port);
    const api = await startTestAppliance(viaRelay.toString(), {}, API_ONLY);
    const key = await createApiKey(db.sql, 'frozen');
    await db.sql`insert into webhook_endpoints (api_key_id, url, failing_since, disabled_at, disablements)
      values (${key.id}, 'https://frozen.example/', now(), now(), 3)`;
    const get = async () => {
      const started = Date.now();
      const res = await call(api.baseUrl, 'GET', '/metrics', { timeoutMs: 30_000 });
      return { res, values: samples(res.text), ms: Date.now() - started };
    };
    try {
      const before = await get();
      expect(before.values.get('tollgate_database_up')).toBe(1);
      const disablements = before.values.get('tollgate_webhook_endpoint_disablements_total')!;
      expect(disablements).toBeGreaterThanOrEqual(3);
      // Every status of every kind is there, 0 when there is none.
      expect(before.values.get('tollgate_webhook_events{kind="travelrule",status="pending"}')).toBe(
        0,
      );
      relay.freeze();
      const frozen = await get();
      expect(frozen.res.status).toBe(200);
      expect(frozen.ms).toBeLessThan(15_000); // the wait is 5 s; the request deadline 20 s
      expect(frozen.values.get('tollgate_database_up')).toBe(0);
      expect(frozen.values.get('tollgate_webhook_endpoint_disablements_total')).toBe(disablements);
      expect(frozen.values.get('tollgate_webhook_endpoints_disabled')).toBe(
        before.values.get('tollgate_webhook_endpoints_disabled'),
      );
      expect(frozen.res.text).toContain('tollgate_process_cpu_seconds_total');
    } finally {
      relay.thaw();
      await api.stop();
      await relay.close();
    }
  }, 90_000);
});
