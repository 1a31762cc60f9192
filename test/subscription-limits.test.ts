import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { randomAddress } from './helpers/chain.js';

/**
 * The most streams and live AML trackings one key may have (TOLLGATE_MAX_STREAMS_PER_KEY,
 * TOLLGATE_MAX_TRACKINGS_PER_KEY), through the API: a new one past the limit is 5005 and
 * creates nothing; one the key has may still be updated; another key has its own count.
 */

const API_ONLY = { api: true, worker: false, indexer: false, devChain: false } as const;
const STREAMS = 3;
const TRACKINGS = 2;

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
const hook = 'http://127.0.0.1:9/hook';

beforeAll(async () => {
  db = await freshDatabase();
  app = await startTestAppliance(
    db.url,
    {
      TOLLGATE_MAX_STREAMS_PER_KEY: String(STREAMS),
      TOLLGATE_MAX_TRACKINGS_PER_KEY: String(TRACKINGS),
      TOLLGATE_RATE_LIMIT_PER_MINUTE: '0',
    },
    API_ONLY,
  );
});
afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

const post = (key: string, path: string, body: object) =>
  call(app.baseUrl, 'POST', path, { headers: { apikey: key }, body });
const del = (key: string, path: string) =>
  call(app.baseUrl, 'DELETE', path, { headers: { apikey: key } });

async function listed(key: string, kind: 'stream' | 'liveaml'): Promise<string[]> {
  const res = await call(app.baseUrl, 'GET', `/v2/${kind}/list?page=1&limit=100`, {
    headers: { apikey: key },
  });
  expect(res.status).toBe(200);
  return (res.json.data as { address: string }[]).map((r) => r.address.toLowerCase()).sort();
}

function expectLimit(res: { status: number; json: any }, variable: string, limit: number) {
  expect(res.status).toBe(400);
  expect(res.json).toMatchObject({ code: 5005, status: 5005 });
  expect(res.json.message).toContain(`${variable}=${limit}`);
}

describe('subscription limits per key', () => {
  it('refuse a new stream past the limit, take updates, and count each key alone', async () => {
    const key = (await createApiKey(db.sql, 'streams')).apikey;
    const other = (await createApiKey(db.sql, 'other')).apikey;
    const addresses = Array.from({ length: STREAMS }, () => randomAddress());
    for (const address of addresses)
      expect((await post(key, '/v2/stream/create', { address, webhook: hook })).status).toBe(200);

    const extra = randomAddress();
    const refused = await post(key, '/v2/stream/create', { address: extra, webhook: hook });
    expectLimit(refused, 'TOLLGATE_MAX_STREAMS_PER_KEY', STREAMS);
    expect(refused.json.message).toContain(`has ${STREAMS} streams`);
    // A replay asks the same.
    expectLimit(
      await post(key, '/v2/stream/create', { address: extra, webhook: hook, from_block: 0 }),
      'TOLLGATE_MAX_STREAMS_PER_KEY',
      STREAMS,
    );
    expect(await listed(key, 'stream')).toEqual(addresses.map((a) => a.toLowerCase()).sort());

    // One the key has: its webhook may change at the limit.
    const moved = await post(key, '/v2/stream/create', {
      address: addresses[0],
      webhook: 'http://127.0.0.1:9/moved',
    });
    expect(moved.status).toBe(200);
    // Another key is not held by this one's count.
    expect((await post(other, '/v2/stream/create', { address: extra, webhook: hook })).status).toBe(
      200,
    );
    // A deleted stream frees its place.
    expect((await del(key, `/v2/stream/delete?address=${addresses[1]}`)).status).toBe(200);
    expect((await post(key, '/v2/stream/create', { address: extra, webhook: hook })).status).toBe(
      200,
    );
    expect(
      (await post(key, '/v2/stream/create', { address: addresses[1], webhook: hook })).status,
    ).toBe(400);
  });

  it('let only as many creations at once through as there are places', async () => {
    const key = (await createApiKey(db.sql, 'at once')).apikey;
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        post(key, '/v2/stream/create', { address: randomAddress(), webhook: hook }),
      ),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(STREAMS);
    for (const r of answers.filter((r) => r.status !== 200))
      expectLimit(r, 'TOLLGATE_MAX_STREAMS_PER_KEY', STREAMS);
    expect(await listed(key, 'stream')).toHaveLength(STREAMS);
  });

  it('refuse a new live AML tracking past its limit on every route that makes one, and create nothing else', async () => {
    const key = (await createApiKey(db.sql, 'trackings')).apikey;
    const first = randomAddress();
    const second = randomAddress();
    expect((await post(key, '/v2/liveaml/create', { address: first, webhook: hook })).status).toBe(
      200,
    );
    // analyze/aml with a webhook starts a tracking too.
    const analyzed = await call(
      app.baseUrl,
      'GET',
      `/v2/analyze/aml?network=eth&address=${second}&webhook=${encodeURIComponent(hook)}`,
      { headers: { apikey: key } },
    );
    expect(analyzed.status).toBe(200);

    const third = randomAddress();
    expectLimit(
      await post(key, '/v2/liveaml/create', { address: third, webhook: hook }),
      'TOLLGATE_MAX_TRACKINGS_PER_KEY',
      TRACKINGS,
    );
    expectLimit(
      await post(key, '/v2/liveaml/create', { address: third, webhook: hook, from_block: 0 }),
      'TOLLGATE_MAX_TRACKINGS_PER_KEY',
      TRACKINGS,
    );
    expectLimit(
      await call(
        app.baseUrl,
        'GET',
        `/v2/analyze/aml?network=eth&address=${third}&webhook=${encodeURIComponent(hook)}`,
        { headers: { apikey: key } },
      ),
      'TOLLGATE_MAX_TRACKINGS_PER_KEY',
      TRACKINGS,
    );
    // A stream with an aml_webhook is refused whole: no stream is left without its tracking.
    const both = await post(key, '/v2/stream/create', {
      address: third,
      webhook: hook,
      aml_webhook: hook,
    });
    expectLimit(both, 'TOLLGATE_MAX_TRACKINGS_PER_KEY', TRACKINGS);
    expect(await listed(key, 'stream')).toEqual([]);
    // A stream alone is under its own limit; a tracked address may get its stream.
    expect((await post(key, '/v2/stream/create', { address: third, webhook: hook })).status).toBe(
      200,
    );
    expect(
      (await post(key, '/v2/stream/create', { address: first, webhook: hook, aml_webhook: hook }))
        .status,
    ).toBe(200);
    expect(await listed(key, 'liveaml')).toEqual(
      [first, second].map((a) => a.toLowerCase()).sort(),
    );
  });
});
