import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config/index.js';
import { MAX_BUCKETS, TokenBuckets } from '../src/api/ratelimit.js';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';

const PER_MINUTE = 60;
const BURST = 5;
/** Time for one request's worth of tokens to come back. */
const ONE_TOKEN_MS = 60_000 / PER_MINUTE;
const API_ONLY = { api: true, worker: false, indexer: false, devChain: false } as const;

describe('token buckets (fake clock)', () => {
  it('allows a burst, then one request per refill interval, and says when to come back', () => {
    let now = 0;
    const b = new TokenBuckets({ perMinute: PER_MINUTE, burst: BURST }, () => now);
    for (let i = 0; i < BURST; i++)
      expect(b.take('a')).toEqual({ ok: true, remaining: BURST - 1 - i, retryAfterS: 0 });
    expect(b.take('a')).toEqual({ ok: false, remaining: 0, retryAfterS: 1 });
    expect(b.take('b').ok).toBe(true); // another key has its own bucket
    now += ONE_TOKEN_MS / 2;
    expect(b.take('a')).toMatchObject({ ok: false, retryAfterS: 1 });
    now += ONE_TOKEN_MS / 2;
    expect(b.take('a')).toMatchObject({ ok: true, remaining: 0 });
    now += 3_600_000; // idle for an hour: never more than the burst
    for (let i = 0; i < BURST; i++) expect(b.take('a').ok).toBe(true);
    expect(b.take('a').ok).toBe(false);
  });

  it('rounds Retry-After up to whole seconds, at least 1', () => {
    let now = 0;
    const b = new TokenBuckets({ perMinute: 6, burst: 1 }, () => now); // one request per 10 s
    expect(b.take('k').ok).toBe(true);
    expect(b.take('k').retryAfterS).toBe(10);
    now = 9_500;
    expect(b.take('k').retryAfterS).toBe(1);
    const fast = new TokenBuckets({ perMinute: 600_000, burst: 1 }, () => now);
    fast.take('k');
    expect(fast.take('k')).toMatchObject({ ok: false, retryAfterS: 1 });
  });

  it('stays bounded in memory: idle (refilled) buckets go first, then the least recently used', () => {
    let now = 0;
    const b = new TokenBuckets({ perMinute: 60, burst: 2 }, () => now, 100);
    for (let i = 0; i < 100; i++) b.take(`idle-${i}`);
    now += 2_000; // the idle buckets are full again: dropping them changes nothing
    b.take('hot');
    b.take('hot');
    b.take('fresh');
    expect(b.size).toBeLessThanOrEqual(100);
    expect(b.take('hot').ok).toBe(false); // a busy bucket was kept
    for (let i = 0; i < 1_000; i++) b.take(`burst-${i}`);
    expect(b.size).toBeLessThanOrEqual(100);
    expect(MAX_BUCKETS).toBeGreaterThanOrEqual(1_000);
  });
});

describe('rate limit per API key on a real appliance', () => {
  let db: TestDatabase;
  let app: Awaited<ReturnType<typeof startTestAppliance>>;
  let a: string;
  let b: string;

  beforeAll(async () => {
    db = await freshDatabase();
    app = await startTestAppliance(
      db.url,
      {
        TOLLGATE_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
        TOLLGATE_RATE_LIMIT_BURST: String(BURST),
      },
      API_ONLY,
    );
    a = (await createApiKey(db.sql, 'limited')).apikey;
    b = (await createApiKey(db.sql, 'other')).apikey;
  });
  afterAll(async () => {
    await app?.stop();
    await db?.drop();
  });

  const list = (apikey: string) =>
    call(app.baseUrl, 'GET', '/v2/stream/list?page=1&limit=10', { headers: { apikey } });

  it('lets a burst through, then answers 429 with Retry-After; other keys, health and the view link are not limited', async () => {
    const first = await Promise.all(Array.from({ length: BURST }, () => list(a)));
    expect(first.map((r) => r.status)).toEqual(Array(BURST).fill(200));
    expect(first.map((r) => Number(r.headers['ratelimit-remaining'])).sort()).toEqual([
      0, 1, 2, 3, 4,
    ]);
    expect(first[0]!.headers['ratelimit-limit']).toBe(String(BURST));

    const refused = await list(a);
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({
      code: 4290,
      status: 4290,
      message: expect.stringMatching(/^Rate limit exceeded: .*; retry after \d+ s\.$/),
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(ONE_TOKEN_MS / 1000));
    expect(refused.json.message).toContain(`retry after ${retryAfter} s.`);
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    // Every way of giving the key counts against the same bucket, and POST routes too.
    expect(
      (await call(app.baseUrl, 'GET', `/v2/stream/list?page=1&limit=10&apikey=${a}`)).status,
    ).toBe(429);
    expect(
      (
        await call(app.baseUrl, 'POST', '/v2/stream/create', {
          body: {
            apikey: a,
            address: '0x0000000000000000000000000000000000000001',
            webhook: 'http://127.0.0.1:1/',
          },
        })
      ).status,
    ).toBe(429);

    expect((await list(b)).status).toBe(200);
    expect(
      (
        await call(app.baseUrl, 'GET', '/v2/stream/list', {
          headers: { apikey: 'tg_not_a_key_at_all_000000' },
        })
      ).status,
    ).toBe(401);
    for (const path of ['/healthz', '/metrics'])
      expect((await call(app.baseUrl, 'GET', path)).status, path).toBe(200);
    // The e-mailed view link answers by itself (its token is the credential), key or not.
    const view = await call(
      app.baseUrl,
      'GET',
      `/v2/travelrule/transaction/${randomUUID()}?q=x&apikey=${a}`,
    );
    expect(view.status).toBe(403);

    // One request's worth of tokens comes back after 60 s / per-minute (the Retry-After).
    await new Promise((r) => setTimeout(r, retryAfter * 1000 + 100));
    expect((await list(a)).status).toBe(200);
  });

  it('refuses invalid settings at start, naming the variable', async () => {
    for (const [name, value] of [
      ['TOLLGATE_RATE_LIMIT_PER_MINUTE', 'fast'],
      ['TOLLGATE_RATE_LIMIT_PER_MINUTE', '-1'],
      ['TOLLGATE_RATE_LIMIT_PER_MINUTE', '1.5'],
      ['TOLLGATE_RATE_LIMIT_BURST', '0'],
      ['TOLLGATE_RATE_LIMIT_BURST', 'many'],
    ] as const) {
      const started = startTestAppliance(db.url, { [name]: value }, API_ONLY);
      await expect(started, `${name}=${value}`).rejects.toThrow(ConfigError);
      await expect(started, `${name}=${value}`).rejects.toThrow(name);
    }
  });

  it('is off with TOLLGATE_RATE_LIMIT_PER_MINUTE=0', async () => {
    const off = await startTestAppliance(
      db.url,
      { TOLLGATE_RATE_LIMIT_PER_MINUTE: '0', TOLLGATE_RATE_LIMIT_BURST: '1' },
      API_ONLY,
    );
    try {
      const replies = await Promise.all(
        Array.from({ length: 20 }, () =>
          call(off.baseUrl, 'GET', '/v2/stream/list', { headers: { apikey: a } }),
        ),
      );
      expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(replies[0]!.headers['ratelimit-limit']).toBeUndefined();
    } finally {
      await off.stop();
    }
  });
});
