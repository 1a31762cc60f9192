import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { API_ONLY, startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { HAPROXY_SKIP_MESSAGE, haproxyBin, skipWithoutHaproxy } from './helpers/haproxy.js';
import { type Haproxy, startHaproxy } from '../support/haproxy.js';
import { call } from './helpers/http.js';

/**
 * The HAProxy configuration the README ships for many clients at once (config/haproxy/), run by a
 * real HAProxy in front of the appliance in TOLLGATE_TRUST_PROXY mode: it must pass requests
 * through as https from a trusted proxy, and its own refusals must be the API's JSON error shape
 * with Retry-After, never an HTML page.
 */
if (skipWithoutHaproxy) console.warn(HAPROXY_SKIP_MESSAGE);

describe.skipIf(skipWithoutHaproxy)('HAProxy in front of the API (config/haproxy)', () => {
  let db: TestDatabase;
  let app: Awaited<ReturnType<typeof startTestAppliance>> | undefined;
  let proxy: Haproxy;
  let apikey: string;

  beforeAll(async () => {
    db = await freshDatabase();
    app = await startTestAppliance(db.url, { TOLLGATE_TRUST_PROXY: '127.0.0.1/32' }, API_ONLY);
    apikey = (await createApiKey(db.sql, 'proxied')).apikey;
    proxy = await startHaproxy(haproxyBin(), app.apiPort!);
  });
  afterAll(async () => {
    await proxy?.stop();
    await app?.stop();
    await db?.drop();
  });

  it('serves keyed requests through the proxy, marked https by it whatever the client says', async () => {
    // The backend is taken into service once its health check (GET /healthz, marked https) passes.
    const reply = await eventually(
      () => call(proxy.baseUrl, 'GET', '/v2/stream/list', { headers: { apikey } }),
      (r) => r.status === 200,
    );
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ code: 0, data: [] });
    // A client claiming plain http does not make the appliance refuse it: the proxy sets the header.
    const claimed = await call(proxy.baseUrl, 'GET', '/v2/stream/list', {
      headers: { apikey, 'x-forwarded-proto': 'http' },
    });
    expect(claimed.status).toBe(200);
    // Without a key: the appliance's own 401, passed through unchanged.
    const unkeyed = await call(proxy.baseUrl, 'GET', '/v2/stream/list');
    expect(unkeyed.status).toBe(401);
    expect(unkeyed.json).toMatchObject({ code: expect.any(Number), message: expect.any(String) });
  });

  it("answers in the API's error shape with Retry-After when the API is gone", async () => {
    await app!.stop();
    app = undefined;
    const reply = await call(proxy.baseUrl, 'GET', '/v2/stream/list', { headers: { apikey } });
    expect(reply.status).toBe(503);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.headers['retry-after']).toBe('5');
    expect(reply.json).toEqual({
      code: 5030,
      status: 5030,
      message: expect.stringMatching(/^Service unavailable: .*retry later\.$/),
    });
  });
});
