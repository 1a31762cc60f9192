import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { createOperator } from '../src/operators/operators.js';
import { hashInboundToken, upsertVasp } from '../src/travelrule/vasps.js';
import { startTestAppliance } from './helpers/appliance.js';
import { ensureNetworkPartitions } from '../src/indexer/evm/store.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { csrfOf, DashboardClient } from './helpers/dashboard-client.js';
import { eventually } from './helpers/eventually.js';
import { call, type Reply } from './helpers/http.js';
import { sendInquiry, travelBody } from './helpers/travelrule.js';

/**
 * The operator dashboard over real HTTPS against the real appliance (api and worker roles) and
 * a real Postgres: logins and sessions, CSRF and Origin checks, security headers, roles, the
 * travel rule decisions on incoming transfers that arrived as TRP inquiries, search, the audit
 * log, the admin pages and the operations page. Cookies and forms are handled here by hand,
 * as a browser would.
 */

const PASSWORD = 'correct horse battery staple';
const PEER = {
  uid: '0c0c0c0c-0000-4000-8000-00000000000c',
  name: 'Charlie VASP',
  token: randomBytes(32).toString('base64url'),
};

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;

beforeAll(async () => {
  db = await freshDatabase();
  await createApiKey(db.sql, 'backend');
  for (const [login, role] of [
    ['viewer.one', 'viewer'],
    ['reviewer.one', 'reviewer'],
    ['admin.one', 'admin'],
    ['locky.one', 'viewer'],
  ] as const) {
    await createOperator(db.sql, login, role, PASSWORD);
  }
  await upsertVasp(
    db.sql,
    {
      uid: PEER.uid,
      name: PEER.name,
      website: 'https://charlie.example',
      country: 'DE',
      trp_endpoint: 'https://127.0.0.1:9/trp/v3/inquiries/x',
      inbound_token: PEER.token,
    },
    'cli',
  );
  app = await startTestAppliance(
    db.url,
    {},
    { api: true, worker: true, indexer: false, devChain: false },
  );
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

/** What a browser does for these pages (test/helpers/dashboard-client.ts). */
class Client extends DashboardClient {
  constructor() {
    super(app.baseUrl);
  }
}

function setCookieLines(reply: Reply): string[] {
  const set = reply.headers['set-cookie'];
  return Array.isArray(set) ? set : set ? [set] : [];
}

async function login(name: string, password = PASSWORD): Promise<Client> {
  const client = new Client();
  const reply = await client.submit('/dashboard/login', '/dashboard/login', {
    login: name,
    password,
  });
  expect(reply.status).toBe(303);
  expect(reply.headers.location).toBe('/dashboard/travelrule');
  return client;
}

/** An incoming transfer: a TRP inquiry from the directory VASP, PENDING for the operators. */
async function incoming(): Promise<{ id: string; ref: string }> {
  const sent = await sendInquiry(app.baseUrl, PEER.token, {
    callback: 'https://127.0.0.1:9/trp/v3/resolutions/cb',
    vaspName: PEER.name,
    transliterationMethod: ['cyrs', 'grek'],
  });
  expect(sent.status).toBe(200);
  const [row] = await db.sql<
    { id: string; status: string }[]
  >`select id, status from travelrule_transactions where transaction_ref = ${sent.ref}`;
  expect(row!.status).toBe('PENDING');
  return { id: row!.id, ref: sent.ref };
}

async function statusOf(id: string): Promise<string> {
  const [row] = await db.sql<
    { status: string }[]
  >`select status from travelrule_transactions where id = ${id}`;
  return row!.status;
}

async function auditOf(action: string, target?: string) {
  return db.sql<
    { actor: string; action: string; target: string | null; details: Record<string, unknown> }[]
  >`
    select actor, action, target, details from audit_log where action = ${action} and (${target ?? null}::text is null or target = ${target ?? null}) order by id`;
}

describe('login and sessions', () => {
  it('sends the unauthenticated to the login page, with the security headers', async () => {
    const anon = new Client();
    expect((await anon.get('/dashboard')).headers.location).toBe('/dashboard/travelrule');
    expect((await anon.get('/dashboard/')).headers.location).toBe('/dashboard/travelrule');
    for (const path of [
      '/dashboard/travelrule',
      '/dashboard/audit',
      '/dashboard/operations',
      `/dashboard/travelrule/${randomUUID()}`,
    ]) {
      const r = await anon.get(path);
      expect(r.status, path).toBe(303);
      expect(r.headers.location).toBe('/dashboard/login');
    }
    const page = await anon.get('/dashboard/login');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/^<!DOCTYPE html>/);
    expect(page.text).toContain('<form method="post" action="/dashboard/login"');
    expect(page.text).toMatch(/<input[^>]*name="login"/);
    expect(page.text).toMatch(/<input[^>]*name="password"[^>]*type="password"/);
    expect(page.text).toMatch(/<button type="submit">Log in<\/button>/);
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('same-origin');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000');
    const csrfCookie = setCookieLines(page).find((l) => l.startsWith('tollgate_login_csrf='))!;
    expect(csrfCookie).toMatch(/HttpOnly/);
    expect(csrfCookie).toMatch(/Secure/);
    expect(csrfCookie).toMatch(/SameSite=Strict/);
  });

  it('logs in, with a session cookie that is HttpOnly, Secure and SameSite=Strict', async () => {
    const client = new Client();
    const reply = await client.submit('/dashboard/login', '/dashboard/login', {
      login: 'Viewer.One',
      password: PASSWORD,
    });
    expect(reply.status).toBe(303);
    expect(reply.headers.location).toBe('/dashboard/travelrule');
    const cookie = setCookieLines(reply).find((l) => l.startsWith('tollgate_session='))!;
    expect(cookie).toMatch(/^tollgate_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\/dashboard/);
    // Only the hash is stored.
    const token = client.cookies.get('tollgate_session')!;
    expect((await db.sql`select 1 from operator_sessions where token_hash = ${token}`).length).toBe(
      0,
    );
    expect((await client.get('/dashboard')).headers.location).toBe('/dashboard/travelrule');
    const page = await client.get('/dashboard/travelrule');
    expect(page.status).toBe(200);
    for (const [href, text] of [
      ['/dashboard/travelrule', 'Travel Rule'],
      ['/dashboard/audit', 'Audit log'],
      ['/dashboard/vasps', 'VASPs'],
      ['/dashboard/operations', 'Operations'],
    ]) {
      expect(page.text).toMatch(new RegExp(`<a href="${href}"[^>]*>${text}</a>`));
    }
    expect(page.text).not.toContain('>Operators</a>');
    expect(page.text).toContain('<form method="post" action="/dashboard/logout"');
    expect(page.text).toMatch(/<h1>Travel Rule<\/h1>/);
    expect((await auditOf('login')).some((a) => a.actor === 'viewer.one')).toBe(true);
  });

  it('refuses a wrong password without saying which part was wrong, and records the attempt', async () => {
    const client = new Client();
    for (const [name, password] of [
      ['viewer.one', 'wrong password 123'],
      ['nobody.here', PASSWORD],
    ] as const) {
      const reply = await client.submit('/dashboard/login', '/dashboard/login', {
        login: name,
        password,
      });
      expect(reply.status).toBe(401);
      expect(reply.text).toMatch(/role="alert">Invalid login or password\.</);
      expect(client.cookies.has('tollgate_session')).toBe(false);
    }
    const failed = await auditOf('login_failed');
    // The login is recorded only when it names an operator (what was typed may be a password).
    expect(failed.map((a) => a.actor)).toEqual(
      expect.arrayContaining(['viewer.one', '(unknown login)']),
    );
    expect(JSON.stringify(failed)).not.toContain('nobody.here');
    expect(JSON.stringify(failed)).not.toContain('wrong password');
  });

  it('never locks an account: five failures of a login make this address wait, nothing more', async () => {
    const client = new Client();
    for (let i = 0; i < 5; i++) {
      const wrong = await client.submit('/dashboard/login', '/dashboard/login', {
        login: 'locky.one',
        password: `wrong password ${i}`,
      });
      expect(wrong.status).toBe(401);
      expect(wrong.text).toMatch(/role="alert">Invalid login or password\.</);
    }
    // This address waits for this login (another address is not affected: see
    // test/operator-login.test.ts); nothing says "locked", and no account state changed.
    const right = await client.submit('/dashboard/login', '/dashboard/login', {
      login: 'locky.one',
      password: PASSWORD,
    });
    expect(right.status).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(right.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(right.text).toMatch(/role="alert">Too many login attempts from this address/);
    expect(right.text).not.toContain('locked');
    expect((await login('viewer.one')).cookies.has('tollgate_session')).toBe(true);
  });

  it('ends a session after 30 idle minutes', async () => {
    const client = await login('viewer.one');
    expect((await client.get('/dashboard/audit')).status).toBe(200);
    await db.sql`update operator_sessions set last_seen_at = now() - interval '31 minutes'`;
    const r = await client.get('/dashboard/audit');
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('/dashboard/login');
  });

  it('ends a session 12 hours after the login, however active', async () => {
    const client = await login('viewer.one');
    await db.sql`update operator_sessions set expires_at = now() - interval '1 second'`;
    expect((await client.get('/dashboard/audit')).headers.location).toBe('/dashboard/login');
  });

  it('logs out: the cookie stops working', async () => {
    const client = await login('viewer.one');
    const cookie = client.cookies.get('tollgate_session')!;
    const out = await client.submit('/dashboard/audit', '/dashboard/logout', {});
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe('/dashboard/login');
    expect(client.cookies.has('tollgate_session')).toBe(false);
    const replay = await call(app.baseUrl, 'GET', '/dashboard/audit', {
      headers: { cookie: `tollgate_session=${cookie}` },
    });
    expect(replay.status).toBe(303);
    expect(replay.headers.location).toBe('/dashboard/login');
    expect((await auditOf('logout')).length).toBeGreaterThan(0);
  });
});

describe('CSRF and Origin', () => {
  it('refuses the login form without its token, or with another one', async () => {
    const client = new Client();
    await client.get('/dashboard/login');
    const none = await client.post('/dashboard/login', { login: 'viewer.one', password: PASSWORD });
    expect(none.status).toBe(403);
    expect(none.text).toContain('CSRF');
    const wrong = await client.post('/dashboard/login', {
      login: 'viewer.one',
      password: PASSWORD,
      _csrf: randomBytes(32).toString('base64url'),
    });
    expect(wrong.status).toBe(403);
    expect(client.cookies.has('tollgate_session')).toBe(false);
  });

  it('refuses a form without its token, with a wrong one, or from another origin', async () => {
    const { id } = await incoming();
    const client = await login('reviewer.one');
    const page = await client.get(`/dashboard/travelrule/${id}`);
    const token = csrfOf(page.text);
    const none = await client.post(`/dashboard/travelrule/${id}/accept`, {});
    expect(none.status).toBe(403);
    expect(none.text).toContain('CSRF');
    const wrong = await client.post(`/dashboard/travelrule/${id}/accept`, {
      _csrf: token.slice(0, -2) + 'xx',
    });
    expect(wrong.status).toBe(403);
    expect(wrong.text).toContain('CSRF');
    const foreign = await client.post(
      `/dashboard/travelrule/${id}/accept`,
      { _csrf: token },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    expect(foreign.text).toContain('CSRF');
    expect(foreign.headers['content-security-policy']).toBeDefined();
    // This host over plain HTTP is another origin (the pages are served over TLS only).
    const plain = await client.post(
      `/dashboard/travelrule/${id}/accept`,
      { _csrf: token },
      { origin: `http://${new URL(app.baseUrl).host}` },
    );
    expect(plain.status).toBe(403);
    expect(plain.text).toContain('CSRF');
    expect(await statusOf(id)).toBe('PENDING');
    // Another session's token does not work either.
    const other = await login('admin.one');
    const otherToken = csrfOf((await other.get('/dashboard/audit')).text);
    expect(
      (await client.post(`/dashboard/travelrule/${id}/accept`, { _csrf: otherToken })).status,
    ).toBe(403);
    expect(await statusOf(id)).toBe('PENDING');
  });
});

describe('travel rule decisions', () => {
  it('shows a viewer the transaction without decision forms, and refuses a viewer POST', async () => {
    const { id } = await incoming();
    const viewer = await login('viewer.one');
    const page = await viewer.get(`/dashboard/travelrule/${id}`);
    expect(page.status).toBe(200);
    for (const section of ['summary', 'screening', 'ivms101', 'messages', 'history'])
      expect(page.text).toContain(`id="${section}"`);
    expect(page.text).toContain('Quennellworth');
    // What the inquiry said of the VASP that sent it, beside the directory's name for it.
    expect(page.text).toMatch(/<dt>As it states itself<\/dt>\s*<dd><bdi>Charlie VASP<\/bdi><\/dd>/);
    // How it says the persons' names were transliterated.
    expect(page.text).toMatch(
      /<dt>Names transliterated by<\/dt>\s*<dd>Cyrillic \(cyrs\), Greek \(grek\)<\/dd>/,
    );
    expect(page.text).not.toContain('id="accept"');
    expect(page.text).not.toContain('id="reject"');
    const post = await viewer.post(`/dashboard/travelrule/${id}/accept`, {
      _csrf: csrfOf(page.text),
    });
    expect(post.status).toBe(403);
    expect(post.text).toContain('needs the');
    expect(await statusOf(id)).toBe('PENDING');
    const views = await auditOf('travelrule_view', id);
    expect(views.map((v) => v.actor)).toContain('viewer.one');
    // The JSON operator API's reads are audited too.
    const basic = {
      authorization: 'Basic ' + Buffer.from(`viewer.one:${PASSWORD}`).toString('base64'),
    };
    expect(
      (await call(app.baseUrl, 'GET', `/ops/travelrule/transactions/${id}`, { headers: basic }))
        .status,
    ).toBe(200);
    expect((await auditOf('travelrule_view', id)).some((v) => v.details.via === 'api')).toBe(true);
  });

  it("shows another VASP's words with Unicode's bidirectional controls as code points, isolated", async () => {
    // What a counterparty wrote (its reason, stored as sent) must not turn our words around.
    const { id } = await incoming();
    await db.sql`update travelrule_transactions set counterparty_reason = ${'not \u202eour customer'} where id = ${id}`;
    const viewer = await login('viewer.one');
    const page = await viewer.get(`/dashboard/travelrule/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/);
    expect(page.text).toContain('<bdi>not [U+202E]our customer</bdi>');
    // The reference too, in the page and in the queue (an override in it read backwards).
    await db.sql`update travelrule_transactions set transaction_ref = ${'mail-4 \u202egnp.exe'} where id = ${id}`;
    for (const path of [`/dashboard/travelrule/${id}`, '/dashboard/travelrule?status=PENDING']) {
      const shown = await viewer.get(path);
      expect(shown.text, path).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/);
      expect(shown.text, path).toContain('<bdi>mail-4 [U+202E]gnp.exe</bdi>');
    }
  });

  it("explains a party's screening on the transaction page: the tag, its label source", async () => {
    // The originator's address is labelled: its screening finds `sanctioned`, and says why.
    const originator = travelBody('x').originator.accountNumber[0]!.toLowerCase();
    await db.sql`insert into labels (network, address, category, source, name)
      values ('evm', ${originator}, 'sanctioned', 'dash-test', 'Dashboard test list')`;
    try {
      const { id } = await incoming();
      const viewer = await login('viewer.one');
      const page = await viewer.get(`/dashboard/travelrule/${id}`);
      expect(page.status).toBe(200);
      const why = page.text.slice(page.text.indexOf('id="explain-originator"'));
      expect(why).toContain(`<code>${originator}</code>`);
      expect(why).toMatch(/<strong>sanctioned<\/strong> the address itself/);
      expect(why).toContain('dash-test: Dashboard test list');
      expect(why).toMatch(/labels labels:[0-9a-f]{16}, scoring aml:[0-9a-f]{16}/);
    } finally {
      await db.sql`delete from labels where source = 'dash-test'`;
    }
  });

  it('a reviewer accepts an incoming transfer: WAITING_ADDRESS_DATA, audited, flash on the page', async () => {
    const { id } = await incoming();
    const reviewer = await login('reviewer.one');
    const page = await reviewer.get(`/dashboard/travelrule/${id}`);
    expect(page.text).toContain(
      `<form id="accept" method="post" action="/dashboard/travelrule/${id}/accept">`,
    );
    expect(page.text).toContain(
      `<form id="reject" method="post" action="/dashboard/travelrule/${id}/reject">`,
    );
    const reply = await reviewer.post(`/dashboard/travelrule/${id}/accept`, {
      _csrf: csrfOf(page.text),
      email: '',
    });
    expect(reply.status).toBe(303);
    expect(reply.headers.location).toBe(`/dashboard/travelrule/${id}?done=accept`);
    expect(await statusOf(id)).toBe('WAITING_ADDRESS_DATA');
    const after = await reviewer.get(reply.headers.location as string);
    expect(after.text).toMatch(/role="status">Accepted\./);
    expect(after.text).not.toContain('id="accept"');
    // The status in words, its name beside them.
    expect(after.text).toMatch(
      /<li><span class="tr-status" data-status="WAITING_ADDRESS_DATA"><strong>Accepted: waiting for our backend&#39;s deposit address<\/strong> <code class="muted">WAITING_ADDRESS_DATA<\/code>/,
    );
    const [entry] = await auditOf('travelrule_accept', id);
    expect(entry).toMatchObject({
      actor: 'reviewer.one',
      target: id,
      details: { status: 'WAITING_ADDRESS_DATA' },
    });
    const [history] =
      await db.sql`select actor_type, actor_id from travelrule_history where transaction_id = ${id} and to_status = 'WAITING_ADDRESS_DATA'`;
    expect(history).toMatchObject({ actor_type: 'operator', actor_id: 'reviewer.one' });
    // A second accept does not fit the status: 409 with the reason, nothing changes.
    const again = await reviewer.post(`/dashboard/travelrule/${id}/accept`, {
      _csrf: csrfOf(after.text),
    });
    expect(again.status).toBe(409);
    expect(again.text).toMatch(/role="alert"/);
  });

  it('a reject needs a reason; with one it is REJECTED and the reason is in the history', async () => {
    const { id } = await incoming();
    const reviewer = await login('reviewer.one');
    const page = await reviewer.get(`/dashboard/travelrule/${id}`);
    const empty = await reviewer.post(`/dashboard/travelrule/${id}/reject`, {
      _csrf: csrfOf(page.text),
      reason: '   ',
    });
    expect(empty.status).toBe(400);
    expect(empty.text).toMatch(/role="alert">A reason is required to reject/);
    expect(await statusOf(id)).toBe('PENDING');
    // A NUL character (Postgres refuses it in text) is a 400, never a 500.
    const nul = await reviewer.post(`/dashboard/travelrule/${id}/reject`, {
      _csrf: csrfOf(page.text),
      reason: 'a\u0000b',
    });
    expect(nul.status).toBe(400);
    expect(await statusOf(id)).toBe('PENDING');
    // Nor in a page's filters (each was a 500; found by an outside probe).
    for (const path of [
      '/dashboard/travelrule?ref=%00',
      '/dashboard/travelrule/export?ref=a%00b',
      '/dashboard/audit?actor=%00',
      '/dashboard/audit/export?target=%00',
    ]) {
      const filtered = await reviewer.get(path);
      expect(filtered.status, path).toBe(400);
      expect(filtered.text).toMatch(/role="alert">A filter holds a NUL character/);
    }
    // A body over the limit, or a compressed one: a page saying so, not the API's JSON (found
    // by an outside probe), and nothing decided.
    const huge = await reviewer.post(`/dashboard/travelrule/${id}/reject`, {
      _csrf: csrfOf(page.text),
      reason: 'x'.repeat(1024 * 1024 + 10),
    });
    expect(huge.status).toBe(413);
    expect(huge.headers['content-type']).toMatch(/^text\/html/);
    expect(huge.headers.connection).toBe('close');
    expect(huge.headers['content-security-policy']).toContain("default-src 'none'");
    expect(huge.text).toMatch(
      /role="alert">The form is larger than 1048576 bytes; nothing was changed\./,
    );
    const gzipped = await reviewer.post(
      `/dashboard/travelrule/${id}/reject`,
      { _csrf: csrfOf(page.text), reason: 'compressed' },
      { 'content-encoding': 'gzip' },
    );
    expect(gzipped.status).toBe(415);
    expect(gzipped.headers['content-type']).toMatch(/^text\/html/);
    expect(gzipped.text).toMatch(
      /role="alert">The form was sent compressed \(Content-Encoding gzip\)/,
    );
    expect(await statusOf(id)).toBe('PENDING');
    const reason = 'Originator address tied to a <sanctioned> mixer';
    const done = await reviewer.post(`/dashboard/travelrule/${id}/reject`, {
      _csrf: csrfOf(empty.text),
      reason,
    });
    expect(done.status).toBe(303);
    expect(await statusOf(id)).toBe('REJECTED');
    const after = await reviewer.get(done.headers.location as string);
    expect(after.text).toMatch(/role="status">Rejected\./);
    const history = /<section id="history"[\s\S]*?<ol>([\s\S]*?)<\/ol>/.exec(after.text)![1]!;
    const items = history.match(/<li>/g) ?? [];
    const rows = await db.sql`select 1 from travelrule_history where transaction_id = ${id}`;
    expect(items.length).toBe(rows.length);
    expect(history).toContain(
      'data-status="REJECTED"><strong>Rejected or cancelled by us</strong> <code class="muted">REJECTED</code>',
    );
    expect(history).toContain('Originator address tied to a &lt;sanctioned&gt; mixer');
    const [entry] = await auditOf('travelrule_reject', id);
    expect(entry!.actor).toBe('reviewer.one');
    // The reason may name why a customer is suspected: it stays out of the audit details.
    expect(JSON.stringify(entry!.details)).not.toContain('mixer');
  });
});

describe('the queue', () => {
  it('lists pending transactions by default, and searches by reference and status', async () => {
    const a = await incoming();
    const b = await incoming();
    const viewer = await login('viewer.one');
    const queue = await viewer.get('/dashboard/travelrule');
    expect(queue.status).toBe(200);
    expect(queue.text).toContain('<table id="transactions">');
    expect(queue.text).toContain(
      `<tr data-id="${a.id}"><td class="ref"><a href="/dashboard/travelrule/${a.id}">`,
    );
    expect(queue.text).toContain(`data-id="${b.id}"`);
    expect(queue.text).toMatch(
      /<option value="PENDING" selected="">Waiting for your review \(PENDING\)<\/option>/,
    );
    // Every row of the default view is PENDING.
    const pendingIds = (
      await db.sql<
        { id: string }[]
      >`select id from travelrule_transactions where status = 'PENDING'`
    ).map((r) => r.id);
    const shown = [...queue.text.matchAll(/<tr data-id="([^"]+)"/g)].map((m) => m[1]);
    expect(shown.sort()).toEqual(pendingIds.sort());

    const byRef = await viewer.get(
      `/dashboard/travelrule?ref=${a.ref.slice(4, 20).toUpperCase()}&status=`,
    );
    expect([...byRef.text.matchAll(/<tr data-id="([^"]+)"/g)].map((m) => m[1])).toEqual([a.id]);
    // A reference is looked for as written: % _ and \ in it are characters, not patterns.
    await db.sql`
      update travelrule_transactions set transaction_ref = case id when ${a.id} then 'INV_7%\\1' else 'INVx7yz1' end
      where id in (${a.id}, ${b.id})`;
    const found = async (part: string) =>
      [
        ...(
          await viewer.get(`/dashboard/travelrule?ref=${encodeURIComponent(part)}&status=`)
        ).text.matchAll(/<tr data-id="([^"]+)"/g),
      ].map((m) => m[1]);
    expect(await found('v_7%\\')).toEqual([a.id]);
    expect(await found('_7')).toEqual([a.id]);
    expect(await found('%')).toEqual([a.id]);
    expect(await found('x7Y')).toEqual([b.id]);
    expect(await found('inv')).toHaveLength(2);

    const rejected = await viewer.get('/dashboard/travelrule?status=REJECTED');
    const rejectedIds = (
      await db.sql<
        { id: string }[]
      >`select id from travelrule_transactions where status = 'REJECTED'`
    ).map((r) => r.id);
    expect([...rejected.text.matchAll(/<tr data-id="([^"]+)"/g)].map((m) => m[1]).sort()).toEqual(
      rejectedIds.sort(),
    );

    const all = await viewer.get('/dashboard/travelrule?status=&direction=incoming&page=1');
    const total = (await db.sql`select 1 from travelrule_transactions`).length;
    expect([...all.text.matchAll(/<tr data-id=/g)].length).toBe(total);

    const today = new Date().toISOString().slice(0, 10);
    const dated = await viewer.get(`/dashboard/travelrule?status=&from=${today}&to=${today}`);
    expect([...dated.text.matchAll(/<tr data-id=/g)].length).toBe(total);
    const old = await viewer.get('/dashboard/travelrule?status=&from=2001-01-01&to=2001-01-02');
    expect([...old.text.matchAll(/<tr data-id=/g)].length).toBe(0);

    const bad = await viewer.get('/dashboard/travelrule?status=NOPE');
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/role="alert"/);
    // Days the database cannot read, or that do not exist: refused as the filter's, not a 500.
    for (const query of ['from=0000-01-01', 'to=9999-12-31', 'from=2025-02-30']) {
      const out = await viewer.get(`/dashboard/travelrule?status=&${query}`);
      expect(out.status, query).toBe(400);
      expect(out.text).toContain('must be a date (YYYY-MM-DD)');
    }
    // The audit log says so too (it dropped them in silence and showed the whole log).
    for (const query of ['from=0000-01-01', 'to=9999-12-31']) {
      const audit = await viewer.get(`/dashboard/audit?${query}`);
      expect(audit.status, query).toBe(400);
      expect(audit.text).toContain('must be a date (YYYY-MM-DD)');
    }
  });
});

describe('admin pages', () => {
  it('keeps viewers and reviewers out of the admin pages', async () => {
    const reviewer = await login('reviewer.one');
    for (const path of ['/dashboard/operators', '/dashboard/keys']) {
      const r = await reviewer.get(path);
      expect(r.status, path).toBe(403);
      expect(r.text).toContain('needs the');
    }
    const vasps = await reviewer.get('/dashboard/vasps');
    expect(vasps.text).toContain('<table id="vasps">');
    expect(vasps.text).not.toContain('id="vasp-form"');
    expect(vasps.text).not.toContain(PEER.token);
    const post = await reviewer.post('/dashboard/vasps', {
      _csrf: csrfOf(vasps.text),
      name: 'X',
      website: 'https://x.example',
    });
    expect(post.status).toBe(403);
  });

  it('adds and edits a VASP, with field errors next to the fields', async () => {
    const admin = await login('admin.one');
    const list = await admin.get('/dashboard/vasps');
    expect(list.text).toContain('<form id="vasp-form"');
    // Inbound tokens are stored only as hashes: the list shows none.
    expect(list.text).not.toContain(PEER.token);
    expect(list.text).toMatch(/<a href="\/dashboard\/operators"[^>]*>Operators<\/a>/);
    expect(list.text).toMatch(/<a href="\/dashboard\/keys"[^>]*>API keys<\/a>/);
    const bad = await admin.post('/dashboard/vasps', {
      _csrf: csrfOf(list.text),
      name: 'Delta VASP',
      website: 'ftp://delta',
      country: 'XX',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="f-website-error" class="field-error">must be an http\(s\) URL/);
    expect(bad.text).toMatch(
      /id="f-country-error" class="field-error">must be an ISO 3166-1 alpha-2 country code/,
    );
    expect(bad.text).toContain('value="Delta VASP"');
    const ok = await admin.post('/dashboard/vasps', {
      _csrf: csrfOf(bad.text),
      name: 'Delta VASP',
      website: 'https://delta.example',
      country: 'fr',
      trp_endpoint: '',
      email: 'tr@delta.example',
      legal_name: '',
    });
    // The new VASP's page, with its inbound URL shown this once.
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('VASP added.');
    const madeUrl = /<code id="inbound-url">([^<]+)<\/code>/.exec(ok.text)![1]!;
    const madeToken = madeUrl.split('/').at(-1)!;
    expect(madeUrl).toMatch(/\/trp\/v3\/inquiries\/[A-Za-z0-9_-]{43}$/);
    const [delta] = await db.sql<
      { uid: string; country: string; source: string; email: string }[]
    >`select uid, country, source, email from vasps where name = 'Delta VASP'`;
    expect(delta).toMatchObject({ country: 'FR', source: 'dashboard', email: 'tr@delta.example' });
    const edit = await admin.submit(
      `/dashboard/vasps/${delta!.uid}`,
      `/dashboard/vasps/${delta!.uid}`,
      {
        name: 'Delta VASP SA',
        website: 'https://delta.example',
        country: 'FR',
        trp_endpoint: 'https://trp.delta.example/inquiries',
        email: '',
      },
    );
    expect(edit.status).toBe(303);
    const [edited] =
      await db.sql`select name, trp_endpoint, email from vasps where uid = ${delta!.uid}`;
    expect(edited).toMatchObject({
      name: 'Delta VASP SA',
      trp_endpoint: 'https://trp.delta.example/inquiries',
      email: null,
    });
    expect((await auditOf('vasp_create', delta!.uid)).length).toBe(1);
    expect((await auditOf('vasp_update', delta!.uid)).length).toBe(1);
    // The edit page does not show the URL again; a new one replaces it, shown once.
    const page = await admin.get(`/dashboard/vasps/${delta!.uid}`);
    expect(page.text).not.toContain(madeToken);
    const rotated = await admin.post(`/dashboard/vasps/${delta!.uid}/rotate-token`, {
      _csrf: csrfOf(page.text),
    });
    expect(rotated.status).toBe(200);
    const newUrl = /<code id="inbound-url">([^<]+)<\/code>/.exec(rotated.text)![1]!;
    expect(newUrl).not.toBe(madeUrl);
    const [row] = await db.sql`select inbound_token_hash from vasps where uid = ${delta!.uid}`;
    expect(row!.inbound_token_hash).toBe(hashInboundToken(newUrl.split('/').at(-1)!));
    expect((await auditOf('vasp_update', delta!.uid)).length).toBe(2);
  });

  it('pins TLS certificate fingerprints of a VASP; the edit form carries them, so a save keeps them', async () => {
    const admin = await login('admin.one');
    const fp = (byte: string) => `${byte}:`.repeat(31) + byte;
    const made = await admin.submit('/dashboard/vasps', '/dashboard/vasps', {
      name: 'Echo VASP',
      website: 'https://echo.example',
      trp_endpoint: 'https://trp.echo.example/inquiries',
      trp_tls_fingerprints: `${fp('ee').toLowerCase()}\r\n${'e1'.repeat(32)}\r\n`,
    });
    expect(made.status).toBe(200);
    const [echo] = await db.sql<
      { uid: string; trp_tls_fingerprints: string[] }[]
    >`select uid, trp_tls_fingerprints from vasps where name = 'Echo VASP'`;
    expect(echo!.trp_tls_fingerprints).toEqual([fp('EE'), fp('E1')]);
    const page = await admin.get(`/dashboard/vasps/${echo!.uid}`);
    expect(page.text).toContain(`${fp('EE')}\n${fp('E1')}</textarea>`);
    // A save of the form as shown (another field changed) keeps the pins.
    const form = /<textarea[^>]*name="trp_tls_fingerprints"[^>]*>([^<]*)<\/textarea>/.exec(
      page.text,
    )![1]!;
    const saved = await admin.submit(
      `/dashboard/vasps/${echo!.uid}`,
      `/dashboard/vasps/${echo!.uid}`,
      {
        name: 'Echo VASP AG',
        website: 'https://echo.example',
        trp_endpoint: 'https://trp.echo.example/inquiries',
        trp_tls_fingerprints: form,
      },
    );
    expect(saved.status).toBe(303);
    const [kept] = await db.sql`select trp_tls_fingerprints from vasps where uid = ${echo!.uid}`;
    expect(kept!.trp_tls_fingerprints).toEqual([fp('EE'), fp('E1')]);
    // Not a fingerprint, and one pinned for another VASP: errors next to the field.
    const bad = await admin.submit(
      `/dashboard/vasps/${echo!.uid}`,
      `/dashboard/vasps/${echo!.uid}`,
      {
        name: 'Echo VASP AG',
        website: 'https://echo.example',
        trp_tls_fingerprints: 'not one',
      },
    );
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(
      /id="f-trp_tls_fingerprints-error" class="field-error">must be a SHA-256 fingerprint/,
    );
    const taken = await admin.submit('/dashboard/vasps', '/dashboard/vasps', {
      name: 'Foxtrot VASP',
      website: 'https://foxtrot.example',
      trp_tls_fingerprints: fp('ee'),
    });
    expect(taken.status).toBe(400);
    expect(taken.text).toMatch(
      /id="f-trp_tls_fingerprints-error" class="field-error">a certificate of this list is pinned for VASP Echo VASP AG/,
    );
    expect((await db.sql`select 1 from vasps where name = 'Foxtrot VASP'`).length).toBe(0);
  });

  it('creates and disables an operator, and creates and revokes an API key, showing secrets once', async () => {
    const admin = await login('admin.one');
    const created = await admin.submit('/dashboard/operators', '/dashboard/operators', {
      login: 'new.reviewer',
      role: 'reviewer',
    });
    expect(created.status).toBe(200);
    const password = /<code id="new-password">([^<]+)<\/code>/.exec(created.text)![1]!;
    const fresh = await login('new.reviewer', password);
    expect((await fresh.get('/dashboard/travelrule')).status).toBe(200);
    expect((await admin.get('/dashboard/operators')).text).not.toContain(password);
    const disabled = await admin.submit(
      '/dashboard/operators',
      '/dashboard/operators/new.reviewer/disable',
      {},
    );
    expect(disabled.status).toBe(303);
    expect((await fresh.get('/dashboard/travelrule')).headers.location).toBe('/dashboard/login');
    expect((await auditOf('operator_create', 'new.reviewer'))[0]!.details).toEqual({
      role: 'reviewer',
    });

    // The API's key cache remembers keys once its listener is connected (it empties the cache as
    // it connects); it connects at the process's first API request. Both before the key below is
    // used, so that the key is remembered when it is revoked.
    await call(app.baseUrl, 'GET', '/v2/travelrule/list_vasps', { headers: { apikey: 'tg_x' } });
    const listening = await eventually(
      async () =>
        (
          await db.sql<{ n: number }[]>`
            select count(*)::int as n from pg_stat_activity
            where datname = current_database() and query ilike 'listen%tollgate_api_keys%'`
        )[0]!.n,
      (n) => n > 0,
    );
    expect(listening).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 200));
    const key = await admin.submit('/dashboard/keys', '/dashboard/keys', { name: 'dashboard key' });
    expect(key.status).toBe(200);
    const apikey = /<code id="new-apikey">([^<]+)<\/code>/.exec(key.text)![1]!;
    expect(key.text).toMatch(/<code id="new-webhook-secret">whsec_/);
    expect(
      (await call(app.baseUrl, 'GET', '/v2/travelrule/list_vasps', { headers: { apikey } })).status,
    ).toBe(200);
    const [row] = await db.sql<
      { id: string }[]
    >`select id from api_keys where name = 'dashboard key'`;
    // The key is refused at once by the process that revoked it, not when Postgres's notification
    // of the change comes back to its key cache: here it never comes (the trigger that sends it is
    // off), which is the same to the next request as a notification not yet arrived.
    await db.sql`alter table api_keys disable trigger api_keys_changed`;
    try {
      const revoked = await admin.submit(
        '/dashboard/keys',
        `/dashboard/keys/${row!.id}/revoke`,
        {},
      );
      expect(revoked.status).toBe(303);
      expect(
        (await call(app.baseUrl, 'GET', '/v2/travelrule/list_vasps', { headers: { apikey } }))
          .status,
      ).toBe(401);
    } finally {
      await db.sql`alter table api_keys enable trigger api_keys_changed`;
    }
    expect(JSON.stringify(await auditOf('apikey_create'))).not.toContain(apikey);
  });
});

describe('operations and audit pages', () => {
  it('renders the operations sections', async () => {
    const viewer = await login('viewer.one');
    const page = await viewer.get('/dashboard/operations');
    expect(page.status).toBe(200);
    for (const id of ['networks', 'queues', 'deliveries', 'counts']) {
      expect(page.text).toMatch(
        new RegExp(`<section id="${id}"[^>]*>[\\s\\S]*?<table[\\s\\S]*?</section>`),
      );
    }
    expect(page.text).toContain('travelrule_send');
    expect(page.text).toContain('Labels: ');
    // A network whose indexer stopped following it (killed, or its node out of reach): its
    // figures are the last known, and it is not "running" (found by an outside probe).
    await db.sql`insert into indexer_cursors (network, chain_id, block_number, block_hash, head_number, head_seen_at)
      values ('polygon', 137, 100, '0xaa', 100, now() - interval '5 minutes')`;
    try {
      const stale = await viewer.get('/dashboard/operations');
      const row = /<tr data-network="polygon">[\s\S]*?<\/tr>/.exec(stale.text)?.[0] ?? '';
      expect(row).toContain('not followed: no indexer holds this network');
      expect(row).not.toMatch(/>running</);
    } finally {
      await db.sql`delete from indexer_cursors where network = 'polygon'`;
    }
  });

  it('lists the disabled webhook endpoints of every key, with a link to the key’s Webhooks page', async () => {
    const viewer = await login('viewer.one');
    const section = async () =>
      /<section id="disabled-endpoints"[\s\S]*?<\/section>/.exec(
        (await viewer.get('/dashboard/operations')).text,
      )?.[0] ?? '';
    expect(await section()).toContain('No endpoint disabled.');
    // Found by an outside probe: only each key's Webhooks page showed one.
    const { id } = await createApiKey(db.sql, 'payments <backend>');
    const url = 'https://hooks.example/tollgate?a=1&b=2';
    await db.sql`insert into tracked_addresses (api_key_id, address, family, stream_webhook, stream_created_at)
      values (${id}, '0x00000000000000000000000000000000000000d1', 'evm', ${url}, now())`;
    await db.sql`insert into webhook_endpoints (api_key_id, url, failing_since, disabled_at, disablements, last_attempt_at, last_status_code, last_error)
      values (${id}, ${url}, now() - interval '2 days', now() - interval '1 hour', 1, now() - interval '1 hour', 503, 'receiver answered 503')`;
    // Another key's endpoint that failed but is not disabled is not listed.
    const other = await createApiKey(db.sql, 'other');
    await db.sql`insert into tracked_addresses (api_key_id, address, family, stream_webhook, stream_created_at)
      values (${other.id}, '0x00000000000000000000000000000000000000d2', 'evm', 'https://failing.example/', now())`;
    await db.sql`insert into webhook_endpoints (api_key_id, url, failing_since)
      values (${other.id}, 'https://failing.example/', now())`;
    try {
      const listed = await section();
      expect(listed).not.toContain('No endpoint disabled.');
      expect(listed).toContain(
        `<a href="/dashboard/webhooks?key=${id}">payments &lt;backend&gt;</a>`,
      );
      expect(listed).toContain('<code>https://hooks.example/tollgate?a=1&amp;b=2</code>');
      expect(listed).toContain('(503) receiver answered 503');
      expect(listed).not.toContain('failing.example');
      // Its key revoked, nothing of it is sent any more: not listed.
      await db.sql`update api_keys set revoked_at = now() where id = ${id}`;
      expect(await section()).toContain('No endpoint disabled.');
    } finally {
      await db.sql`delete from webhook_endpoints where api_key_id in (${id}, ${other.id})`;
      await db.sql`delete from tracked_addresses where api_key_id in (${id}, ${other.id})`;
      await db.sql`update api_keys set revoked_at = now() where id in (${id}, ${other.id})`;
    }
  });

  it('lets admins, and only admins, retry and delete a failed job', async () => {
    // A job of a task no worker runs, out of attempts: a failed job that stays put.
    const [job] = await db.sql<
      { id: string }[]
    >`select (graphile_worker.add_job('dashboard_test_task', '{}'::json, max_attempts => 1)).id::text as id`;
    await db.sql`update graphile_worker._private_jobs set attempts = 1, last_error = 'boom <b>' where id = ${job!.id}::bigint`;
    const reviewer = await login('reviewer.one');
    const seen = await reviewer.get('/dashboard/operations');
    expect(seen.text).toContain(`<tr data-id="${job!.id}">`);
    expect(seen.text).toContain('boom &lt;b&gt;');
    expect(seen.text).not.toContain(`/dashboard/operations/jobs/${job!.id}/retry`);
    const refused = await reviewer.post(`/dashboard/operations/jobs/${job!.id}/retry`, {
      _csrf: csrfOf(seen.text),
    });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('needs the admin role');

    const admin = await login('admin.one');
    const retried = await admin.submit(
      '/dashboard/operations',
      `/dashboard/operations/jobs/${job!.id}/retry`,
      {},
    );
    expect(retried.status).toBe(303);
    expect(retried.headers.location).toBe('/dashboard/operations?done=retried');
    const [after] =
      await db.sql`select attempts from graphile_worker._private_jobs where id = ${job!.id}::bigint`;
    expect(after!.attempts).toBe(0);
    await db.sql`update graphile_worker._private_jobs set attempts = 1 where id = ${job!.id}::bigint`;
    const deleted = await admin.submit(
      '/dashboard/operations',
      `/dashboard/operations/jobs/${job!.id}/delete`,
      {},
    );
    expect(deleted.headers.location).toBe('/dashboard/operations?done=deleted');
    expect(
      (await db.sql`select 1 from graphile_worker._private_jobs where id = ${job!.id}::bigint`)
        .length,
    ).toBe(0);
    const again = await admin.submit(
      '/dashboard/operations',
      `/dashboard/operations/jobs/${job!.id}/delete`,
      {},
    );
    expect(again.headers.location).toBe('/dashboard/operations?gone=deleted');
    expect((await auditOf('job_retry', job!.id)).length).toBe(1);
    expect((await auditOf('job_delete', job!.id)).length).toBe(1);
  });

  it('lets admins start and cancel a backfill and resume a halted network, with reasons when refused', async () => {
    const viewer = await login('viewer.one');
    const seen = await viewer.get('/dashboard/operations');
    expect(seen.text).toContain('<section id="backfills"');
    expect(seen.text).not.toContain('action="/dashboard/operations/backfills"');
    const admin = await login('admin.one');
    // No indexer runs here: the network's cursor as an indexer that began at block 100 leaves it.
    await db.sql`insert into indexer_cursors (network, chain_id, block_number, block_hash, head_number, history_from)
      values ('eth', 31337, 120, '0xabc', 130, 100)`;
    const beyond = await admin.submit('/dashboard/operations', '/dashboard/operations/backfills', {
      network: 'eth',
      from: '99999999',
      to: '',
    });
    expect(beyond.status).toBe(200);
    expect(beyond.text).toMatch(
      /Not started: from block 99999999 is beyond the eth node&#39;s head 130/,
    );
    const bad = await admin.submit('/dashboard/operations', '/dashboard/operations/backfills', {
      network: 'eth',
      from: 'x<b>',
      to: '',
    });
    expect(bad.text).toContain('From and to must be block numbers; nothing was started.');
    expect(await db.sql`select 1 from indexer_backfills`).toHaveLength(0);
    const started = await admin.submit('/dashboard/operations', '/dashboard/operations/backfills', {
      network: 'eth',
      from: '40',
      to: '',
    });
    expect(started.text).toContain('Backfill #');
    expect(started.text).toMatch(/of eth, blocks 40–99, started\./);
    const [b] = await db.sql<{ id: string; requested_by: string }[]>`
      select id, requested_by from indexer_backfills`;
    expect(b!.requested_by).toBe('admin.one');
    expect(started.text).toContain(`<tr data-backfill="${b!.id}">`);
    const twice = await admin.submit('/dashboard/operations', '/dashboard/operations/backfills', {
      network: 'eth',
      from: '10',
      to: '20',
    });
    expect(twice.text).toMatch(/Not started: a backfill of eth is running \(#\d+, blocks 40–99/);
    const cancelled = await admin.submit(
      '/dashboard/operations',
      `/dashboard/operations/backfills/${b!.id}/cancel`,
      {},
    );
    expect(cancelled.text).toContain(`Backfill #${b!.id} cancelled; what it stored stays.`);
    const late = await admin.submit(
      '/dashboard/operations',
      `/dashboard/operations/backfills/${b!.id}/cancel`,
      {},
    );
    expect(late.text).toContain('That backfill is not running');
    expect((await auditOf('indexer_backfill', 'eth')).length).toBe(2);
    await db.sql`update indexer_cursors set halted_reason = 'test halt', halted_at = now(), halt_needs_resume = true where network = 'eth'`;
    const halted = await admin.get('/dashboard/operations');
    expect(halted.text).toContain('halted: test halt');
    const resumed = await admin.submit(
      '/dashboard/operations',
      '/dashboard/operations/networks/eth/resume',
      {},
    );
    expect(resumed.text).toContain('eth resumed.');
    const [after] =
      await db.sql`select halted_reason, deep_reorg_allowed from indexer_cursors where network = 'eth'`;
    expect(after).toEqual({ halted_reason: null, deep_reorg_allowed: false });
    expect((await auditOf('indexer_resume', 'eth')).length).toBe(1);
    await db.sql`delete from indexer_backfills`;
    await db.sql`delete from indexer_cursors where network = 'eth'`;
  });

  it('lets admins start and cancel a retrace of stored blocks without call traces, one job per network at a time', async () => {
    const viewer = await login('viewer.one');
    expect((await viewer.get('/dashboard/operations')).text).not.toContain(
      'action="/dashboard/operations/retraces"',
    );
    const admin = await login('admin.one');
    // No indexer runs here: eth's cursor at block 120, blocks 100–120 stored, 110 and 111 untraced.
    await ensureNetworkPartitions(db.sql, 'eth');
    await db.sql`insert into indexer_cursors (network, chain_id, block_number, block_hash, head_number, history_from)
      values ('eth', 31337, 120, '0xabc', 130, 100)`;
    await db.sql`insert into evm_blocks (network, number, hash, parent_hash, timestamp, tx_count, traced)
      select 'eth', n, '0x' || n, '0x' || (n - 1), 1700000000 + n, 1, n not in (110, 111)
      from generate_series(100, 120) n`;
    const form = await admin.get('/dashboard/operations');
    expect(form.text).toContain('action="/dashboard/operations/retraces"');
    const bad = await admin.submit('/dashboard/operations', '/dashboard/operations/retraces', {
      network: 'eth',
      from: '1e3',
      to: '',
    });
    expect(bad.text).toContain('From and to must be block numbers; nothing was started.');
    const none = await admin.submit('/dashboard/operations', '/dashboard/operations/retraces', {
      network: 'eth',
      from: '112',
      to: '',
    });
    expect(none.text).toContain(
      'Not started: nothing to retrace: every stored eth block in 112–120 has its call traces read.',
    );
    const utxo = await admin.submit('/dashboard/operations', '/dashboard/operations/retraces', {
      network: 'bitcoin',
      from: '',
      to: '',
    });
    expect(utxo.text).toContain('Not started: bitcoin has no call traces to read');
    const started = await admin.submit('/dashboard/operations', '/dashboard/operations/retraces', {
      network: 'eth',
      from: '',
      to: '500',
    });
    expect(started.text).toMatch(
      /Retrace #\d+ of eth, stored blocks 100–120, started\. Note: the indexed head is block 120: retracing 100–120\./,
    );
    const [job] = await db.sql<{ id: string; kind: string; next_block: string }[]>`
      select id, kind, next_block::text from indexer_backfills`;
    expect(job).toMatchObject({ kind: 'traces', next_block: '111' });
    expect(started.text).toMatch(
      new RegExp(`<tr data-backfill="${job!.id}"><th scope="row">${job!.id}</th><td>retrace</td>`),
    );
    const backfill = await admin.submit(
      '/dashboard/operations',
      '/dashboard/operations/backfills',
      {
        network: 'eth',
        from: '10',
        to: '',
      },
    );
    expect(backfill.text).toMatch(
      /Not started: a retrace of eth is running \(#\d+, blocks 100–120, next 111\)/,
    );
    const cancelled = await admin.submit(
      '/dashboard/operations',
      `/dashboard/operations/backfills/${job!.id}/cancel`,
      {},
    );
    expect(cancelled.text).toContain(`Retrace #${job!.id} cancelled; what it stored stays.`);
    expect((await auditOf('indexer_retrace', 'eth')).length).toBe(1);
    await db.sql`delete from indexer_backfills`;
    await db.sql`delete from evm_blocks where network = 'eth'`;
    await db.sql`delete from indexer_cursors where network = 'eth'`;
  });

  it('lists the audit log, filtered by actor and action', async () => {
    const viewer = await login('viewer.one');
    const page = await viewer.get('/dashboard/audit?actor=reviewer.one&action=travelrule_accept');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<table id="audit">');
    const rows = [...page.text.matchAll(/<tr data-id="[^"]+"><td>[\s\S]*?<\/tr>/g)].map(
      (m) => m[0],
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows)
      expect(row).toContain('<td>reviewer.one</td><td>travelrule_accept</td>');
  });

  it('answers an unknown dashboard path with an HTML 404', async () => {
    const viewer = await login('viewer.one');
    const r = await viewer.get('/dashboard/nothing-here');
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toMatch(/text\/html/);
  });
});
