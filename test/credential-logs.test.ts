import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { createOperator } from '../src/operators/operators.js';
import { captureLog } from './helpers/log-capture.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';

/**
 * No credential in any log line, on any authentication path (issue 17, point 4): every way a
 * caller presents one (an API key in the query, a header, basic auth, a JSON or form body; an
 * operator's basic auth, with the API key sent there by mistake; the dashboard's login form; the
 * metrics token; a TRP inbound token; a view link's token), each with a right and a wrong marker
 * value, against the real appliance at log level trace. Every line the appliance writes in this
 * process is captured and searched for every marker.
 */

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let captured: ReturnType<typeof captureLog> | undefined;
const markers: string[] = [];
/** A marker value: random, so no other line can contain it by chance. */
const marker = (prefix = '') => {
  const value = `${prefix}Mk${randomUUID().replaceAll('-', '')}`;
  markers.push(value);
  return value;
};

let key: { apikey: string; webhook_secret: string };
const metricsToken = marker();
const operatorPassword = marker('Pw-');

beforeAll(async () => {
  db = await freshDatabase();
  key = await createApiKey(db.sql, 'logs');
  markers.push(key.apikey, key.webhook_secret);
  await createOperator(db.sql, 'lena.logs', 'reviewer', operatorPassword);
  captured = captureLog();
  app = await startTestAppliance(
    db.url,
    { TOLLGATE_LOG_LEVEL: 'trace', TOLLGATE_METRICS_TOKEN: metricsToken },
    { api: true, worker: false, indexer: false, devChain: false },
  );
}, 60_000);

afterAll(async () => {
  await app?.stop();
  captured?.restore();
  await db?.drop();
});

const basic = (user: string, password = '') => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

describe('credentials never reach the log', () => {
  it('on every path, right and wrong', async () => {
    const base = app.baseUrl;
    const wrongKey = marker('tg_');
    for (const apikey of [key.apikey, wrongKey]) {
      await call(base, 'GET', `/v2/stream/list?apikey=${encodeURIComponent(apikey)}`);
      await call(base, 'GET', '/v2/stream/list', { headers: { apikey } });
      await call(base, 'GET', '/v2/stream/list', { headers: basic(apikey) });
      await call(base, 'POST', '/v2/stream/create', {
        body: { apikey, address: 'nope', webhook: 'https://hooks.example/x' },
      });
      await call(base, 'POST', '/v2/stream/create', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `apikey=${encodeURIComponent(apikey)}&address=nope&webhook=x`,
      });
      // The operator API with the API key sent as the basic-auth user (the spec's way for /v2).
      await call(base, 'GET', '/ops/travelrule/pending', { headers: basic(apikey, marker()) });
    }
    // An operator: right and wrong password, and a password typed into the login field.
    const wrongPassword = marker('Pw-');
    for (const password of [operatorPassword, wrongPassword])
      await call(base, 'GET', '/ops/travelrule/pending', {
        headers: basic('lena.logs', password),
      });
    await call(base, 'GET', '/ops/travelrule/pending', {
      headers: basic(operatorPassword, operatorPassword),
    });
    for (const [login, password] of [
      ['lena.logs', operatorPassword],
      ['lena.logs', wrongPassword],
      [operatorPassword, wrongPassword],
    ] as const)
      await call(base, 'POST', '/dashboard/login', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `login=${encodeURIComponent(login)}&password=${encodeURIComponent(password)}`,
      });
    // The metrics token, right and wrong.
    for (const token of [metricsToken, marker()])
      await call(base, 'GET', '/metrics', { headers: { authorization: `Bearer ${token}` } });
    // A TRP inbound token no VASP has, and a view link's wrong token.
    await call(base, 'POST', `/trp/v3/inquiries/${marker()}`, {
      headers: { 'api-version': '3.1.0', 'request-identifier': randomUUID() },
      body: { IVMS101: {} },
    });
    await call(base, 'GET', `/v2/travelrule/transaction/${randomUUID()}?q=${marker()}`);

    // The paths were taken: their log lines are there (a capture that saw nothing proves nothing).
    const logged = captured!.text();
    expect(logged).toContain('"path":"/v2/stream/list"');
    expect(logged).toContain('/ops/travelrule/pending');
    expect(logged).toContain('/dashboard/login');
    expect(logged.split('\n').length).toBeGreaterThan(20);
    const found = markers.filter((m) => logged.includes(m));
    expect(found).toEqual([]);
  });
});
