import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE } from '../src/api/app.js';
import type { Route } from '../src/api/route.js';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { routeTable, type RouteTableEntry } from './helpers/fuzz.js';
import { call, type Reply } from './helpers/http.js';

/**
 * Walks the appliance's route table (built the way the appliance builds it, so a route added
 * later is walked too) and checks that each route refuses a caller without its credential:
 * /v2 an API key, /ops operator credentials, /dashboard a session, /trp a token of ours.
 */

const API_ONLY = { api: true, worker: false, indexer: false, devChain: false } as const;

/**
 * Routes outside every credential scheme, on purpose: probes, metrics (own address/token check),
 * and the API reference (/docs: the contract and its renderer, no data).
 */
const PUBLIC_ROUTES = new Set([
  'GET /healthz',
  'GET /readyz',
  'GET /metrics',
  'GET /docs',
  'GET /docs/openapi.json',
  'GET /docs/init.js',
  'GET /docs/redoc.standalone.js',
  // TRP's identity discovery: who this VASP is, for any counterparty before it trusts us.
  'GET /identity',
]);
/** The e-mailed view link: its `q` token is the credential, not an API key (answers 403 HTML). */
const VIEW_LINK = `GET ${API_BASE}/travelrule/transaction/:id`;

const SAMPLE_PARAMS: Record<string, string> = {
  id: '00000000-0000-4000-8000-000000000000',
  uid: '00000000-0000-4000-8000-000000000000',
  login: 'nobody',
  token: 'A'.repeat(43),
};

function concrete(path: string): string {
  return path.replace(/:(\w+)/g, (_, name: string) => SAMPLE_PARAMS[name] ?? 'x');
}

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let v2: Route[];
let table: RouteTableEntry[];
let validKey: string;

beforeAll(async () => {
  db = await freshDatabase();
  app = await startTestAppliance(db.url, {}, API_ONLY);
  ({ v2, all: table } = routeTable(db.sql));
  validKey = (await createApiKey(db.sql, 'route-auth')).apikey;
});
afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

function expectUnauthorized(res: Reply, what: string) {
  expect(res.status, what).toBe(401);
  expect(res.json, what).toMatchObject({ code: 4010, status: 4010 });
  expect(typeof res.json.message, what).toBe('string');
}

const key = (r: RouteTableEntry) => `${r.method} ${r.path}`;
const v2Table = () =>
  table.filter((r) => r.path.startsWith(`${API_BASE}/`) && key(r) !== VIEW_LINK);

describe('route table', () => {
  it('is derived from the app, is non-empty, and holds every route of allRoutes', () => {
    expect(v2.length).toBeGreaterThan(10);
    const paths = v2.map((r) => `${r.spec.method.toUpperCase()} ${API_BASE}${r.spec.path}`);
    expect(paths).toContain(`POST ${API_BASE}/travelrule/create_tx`);
    expect(paths).toContain(`GET ${API_BASE}/stream/list`);
    const registered = new Set(table.map(key));
    for (const p of paths) expect(registered.has(p), p).toBe(true);
    expect(registered.has(VIEW_LINK)).toBe(true);
    expect(table.some((r) => r.path.startsWith('/ops/'))).toBe(true);
    expect(table.some((r) => r.path.startsWith('/dashboard'))).toBe(true);
    expect(table.some((r) => r.path.startsWith('/trp/'))).toBe(true);
  });

  it('has no route outside a credential scheme except the known public ones', () => {
    const schemes = [`${API_BASE}/`, '/ops/', '/dashboard', '/trp/'];
    const outside = table.filter((r) => !schemes.some((s) => r.path.startsWith(s))).map(key);
    expect(outside.sort()).toEqual([...PUBLIC_ROUTES].sort());
  });
});

describe('/v2 routes refuse a request without a valid API key', () => {
  it('answers 401 (4010) with no key, and with an invalid key in each of its places', async () => {
    const routes = v2Table();
    expect(routes.length).toBeGreaterThan(v2.length - 1); // allRoutes plus openapi.json
    const invalid = 'tg_' + 'A'.repeat(43);
    for (const r of routes) {
      const path = concrete(r.path);
      const hasBody = r.method !== 'GET';
      // A well-formed body: the refusal must come from the key check, not from validation.
      const body = hasBody
        ? {
            address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
            webhook: 'http://127.0.0.1:9/hook',
            url: 'http://127.0.0.1:9/hook',
          }
        : undefined;
      expectUnauthorized(
        await call(app.baseUrl, r.method, path, { body }),
        `${key(r)} without a key`,
      );
      expectUnauthorized(
        await call(app.baseUrl, r.method, path, { headers: { apikey: invalid }, body }),
        `${key(r)} apikey header`,
      );
      expectUnauthorized(
        await call(app.baseUrl, r.method, `${path}?apikey=${invalid}`, { body }),
        `${key(r)} apikey query`,
      );
      const basic = 'Basic ' + Buffer.from(`${invalid}:`).toString('base64');
      expectUnauthorized(
        await call(app.baseUrl, r.method, path, { headers: { authorization: basic }, body }),
        `${key(r)} basic auth`,
      );
      if (hasBody)
        expectUnauthorized(
          await call(app.baseUrl, r.method, path, { body: { ...body, apikey: invalid } }),
          `${key(r)} body field`,
        );
      // An over-long key is refused without a lookup.
      expectUnauthorized(
        await call(app.baseUrl, r.method, path, { headers: { apikey: 'k'.repeat(5000) }, body }),
        `${key(r)} long key`,
      );
    }
  });

  it('lets the valid key through on every route (the refusals above were about the key)', async () => {
    for (const r of v2Table()) {
      const res = await call(app.baseUrl, r.method, concrete(r.path), {
        headers: { apikey: validKey },
        body: r.method === 'GET' ? undefined : {},
      });
      expect(res.status, key(r)).not.toBe(401);
      expect(res.status, key(r)).toBeLessThan(500);
    }
  });

  it('keeps the view link outside the key check: 403 HTML without a valid token, even with a valid key', async () => {
    const path = concrete(VIEW_LINK.split(' ')[1]!);
    for (const headers of [{}, { apikey: validKey }] as Record<string, string>[]) {
      for (const q of ['', '?q=', '?q=1.abc', `?q=${'A'.repeat(60)}`]) {
        const res = await call(app.baseUrl, 'GET', path + q, { headers });
        expect(res.status).toBe(403);
        expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
      }
    }
  });
});

describe('/ops, /dashboard and /trp refuse callers without their credential', () => {
  it('/ops: 401 with WWW-Authenticate without operator credentials, and with wrong ones', async () => {
    const ops = table.filter((r) => r.path.startsWith('/ops/'));
    expect(ops.length).toBeGreaterThan(0);
    for (const [i, r] of ops.entries()) {
      const path = concrete(r.path);
      const body = r.method === 'GET' ? undefined : { reason: 'x' };
      const none = await call(app.baseUrl, r.method, path, { body });
      expectUnauthorized(none, `${key(r)} without credentials`);
      expect(none.headers['www-authenticate'], key(r)).toMatch(/^Basic /);
      // An API key is not an operator credential.
      expectUnauthorized(
        await call(app.baseUrl, r.method, path, { headers: { apikey: validKey }, body }),
        `${key(r)} with an API key`,
      );
      // A login of its own per route: five failures of one login from one address make that
      // address wait (429) for it (src/operators/limits.ts).
      const wrong = 'Basic ' + Buffer.from(`nobody-${i}:not-the-password`).toString('base64');
      expectUnauthorized(
        await call(app.baseUrl, r.method, path, { headers: { authorization: wrong }, body }),
        `${key(r)} wrong credentials`,
      );
      expectUnauthorized(
        await call(app.baseUrl, r.method, path, {
          headers: { authorization: `Bearer ${'A'.repeat(43)}` },
          body,
        }),
        `${key(r)} unknown session token`,
      );
    }
  });

  it('/dashboard: every page but the login form redirects to the login page without a session', async () => {
    const pages = table.filter(
      (r) => r.path.startsWith('/dashboard') && r.path !== '/dashboard/login',
    );
    expect(pages.length).toBeGreaterThan(0);
    for (const r of pages) {
      const res = await call(
        app.baseUrl,
        r.method,
        concrete(r.path),
        r.method === 'POST'
          ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' }
          : {},
      );
      expect(res.status, key(r)).toBe(303);
      // /dashboard itself forwards to a page that is checked here too.
      const location = String(res.headers.location);
      expect(location, key(r)).toBe(
        r.path === '/dashboard' ? '/dashboard/travelrule' : '/dashboard/login',
      );
    }
    const form = await call(app.baseUrl, 'GET', '/dashboard/login');
    expect(form.status).toBe(200);
  });

  it('/trp: an unknown token is refused (404) whatever the body', async () => {
    const trp = table.filter((r) => r.path.startsWith('/trp/'));
    expect(trp.length).toBe(3);
    for (const r of trp) {
      const headers = {
        'api-version': '3.1.0',
        'request-identifier': '11111111-2222-4333-8444-555555555555',
      };
      // A confirmation is the simplest valid message: its refusal is the token's. Others may stop at the message check.
      const confirmation = r.path.includes('/confirmations/');
      const res = await call(app.baseUrl, r.method, concrete(r.path), {
        headers,
        body: confirmation ? { txid: '0xfeed' } : {},
      });
      if (confirmation) expect(res.json, key(r)).toMatchObject({ code: 4040, status: 4040 });
      expect([400, 404], key(r)).toContain(res.status);
      expect(res.json.code, key(r)).toBe(res.json.status);
    }
  });
});
