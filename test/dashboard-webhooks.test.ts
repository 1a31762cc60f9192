import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { createOperator } from '../src/operators/operators.js';
import { startTestAppliance } from './helpers/appliance.js';
import { describeInChromium, logInTab } from './helpers/browser.js';
import { fundedWallet, randomAddress } from './helpers/chain.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { csrfOf, DashboardClient } from './helpers/dashboard-client.js';
import { call, type Reply } from './helpers/http.js';
import { Receiver, type Received } from './helpers/receiver.js';

/**
 * The dashboard's Webhooks page against the real appliance (API, worker, indexer on the shared
 * Hardhat node), real receivers on loopback and the real outbox: the delivery log with a
 * receiver's hostile answer (escaped, checked in a real Chromium too), redeliver and recover,
 * pause and resume, test webhooks, secret rotation, re-enabling a disabled endpoint, and the
 * roles. Endpoints are disabled after 0.001 hours (3.6 s) of failing here.
 */

const PASSWORD = 'correct horse battery staple';
/** What a hostile receiver answers: the page must show it as text. */
const HOSTILE = '<script>alert(1)</script><img src=x onerror="alert(2)">';

type Key = { id: string; apikey: string; webhook_secret: string };
let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let wallet: Awaited<ReturnType<typeof fundedWallet>>;
let key: Key;
const receivers: Receiver[] = [];

async function receiver(respond: Receiver['respond']): Promise<Receiver> {
  const r = await new Receiver().start();
  r.respond = respond;
  receivers.push(r);
  return r;
}

beforeAll(async () => {
  db = await freshDatabase();
  app = await startTestAppliance(db.url, {
    TOLLGATE_CONFIRMATIONS_ETH: '1000',
    TOLLGATE_DELIVERY_ENDPOINT_CONCURRENCY: '1',
    TOLLGATE_WEBHOOK_DISABLE_AFTER_HOURS: '0.001',
  });
  await createApiKey(db.sql, 'other'); // the page must pick the chosen key, not the first
  key = await createApiKey(db.sql, 'backend');
  for (const [login, role] of [
    ['viewer.w', 'viewer'],
    ['reviewer.w', 'reviewer'],
    ['admin.w', 'admin'],
  ] as const)
    await createOperator(db.sql, login, role, PASSWORD);
  wallet = await fundedWallet('100');
  // One after another: the login limits allow 2 attempts of one address at once.
  viewer = await login('viewer.w');
  reviewer = await login('reviewer.w');
  admin = await login('admin.w');
}, 120_000);

afterAll(async () => {
  await app?.stop();
  for (const r of receivers) await r.stop();
  await db?.drop();
});

/** Cookies and forms, as a browser does (test/helpers/dashboard-client.ts). */
class Client extends DashboardClient {
  constructor() {
    super(app.baseUrl);
  }

  /** POSTs a form of the Webhooks page with the CSRF token it carries and the key's id. */
  act(action: string, form: Record<string, string>): Promise<Reply> {
    return this.submit(`/dashboard/webhooks?key=${key.id}`, `/dashboard/webhooks/${action}`, {
      key: key.id,
      ...form,
    });
  }
}

async function login(name: string): Promise<Client> {
  const client = new Client();
  const form = await client.get('/dashboard/login');
  const reply = await client.post('/dashboard/login', {
    _csrf: csrfOf(form.text),
    login: name,
    password: PASSWORD,
  });
  expect(reply.status).toBe(303);
  expect(reply.headers.location).toBe('/dashboard/travelrule');
  return client;
}

const api = (method: string, path: string, body?: object): Promise<Reply> =>
  call(app.baseUrl, method, `/v2${path}`, {
    headers: { apikey: key.apikey },
    ...(body ? { body } : {}),
  });

async function stream(address: string, url: string): Promise<void> {
  const res = await api('POST', '/stream/create', { address, webhook: url });
  expect(res.json).toEqual({ code: 0, message: 'OK', data: null });
}

async function eventsOf(address: string) {
  return db.sql<{ id: string; status: string }[]>`
    select id, status from webhook_events where address = ${address.toLowerCase()}
      and api_key_id = ${key.id} and kind = 'stream' order by id`;
}

function verifies(secret: string, r: Received): boolean {
  try {
    new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

/** The flash (role=status) or alert (role=alert) of a page, as text. */
const noticeOf = (html: string, role: 'status' | 'alert') =>
  new RegExp(`role="${role}">([^<]*)<`).exec(html)?.[1] ?? '';

let viewer: Client;
let reviewer: Client;
let admin: Client;
/** A stream whose receiver refused (400) with a hostile body: one event given up. */
const hostileAddress = randomAddress();
let hostile: Receiver;
let hostileEvent: string;

describe('the delivery log', () => {
  beforeAll(async () => {
    hostile = await receiver(() => ({ status: 400, body: HOSTILE }));
    await stream(hostileAddress, hostile.url);
    await wallet.send(hostileAddress, 1n);
    const [event] = await eventually(
      () => eventsOf(hostileAddress),
      (rows) => rows[0]?.status === 'failed',
      60_000,
    );
    expect(event?.status).toBe('failed');
    hostileEvent = event!.id;
  }, 90_000);

  it('is linked in the navigation and readable by a viewer', async () => {
    const page = await viewer.get('/dashboard/travelrule');
    expect(page.text).toContain('href="/dashboard/webhooks"');
    const hooks = await viewer.get(`/dashboard/webhooks?key=${key.id}`);
    expect(hooks.status).toBe(200);
    expect(hooks.text).toContain(`<option value="${key.id}" selected="">backend`);
  });

  it('shows the failed attempt with its code and the answer escaped, and filters', async () => {
    const page = await viewer.get(`/dashboard/webhooks?key=${key.id}&status=failed`);
    const row = new RegExp(`<tr data-event="${hostileEvent}"[^]*?</tr>`).exec(page.text)?.[0];
    expect(row).toBeDefined();
    expect(row).toContain('<td class="num">400</td>');
    expect(row).toContain('receiver answered 400');
    expect(row).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=');
    expect(page.text).not.toContain('<script>');
    expect(page.text).not.toContain('<img');
    // Filters: another address, or succeeded only, do not list it.
    const other = await viewer.get(`/dashboard/webhooks?key=${key.id}&address=${randomAddress()}`);
    expect(other.text).not.toContain(`data-event="${hostileEvent}"`);
    const ok = await viewer.get(`/dashboard/webhooks?key=${key.id}&status=succeeded`);
    expect(ok.text).not.toContain(`data-event="${hostileEvent}"`);
    const future = await viewer.get(
      `/dashboard/webhooks?key=${key.id}&since=${new Date(Date.now() + 3_600_000).toISOString()}`,
    );
    expect(future.text).not.toContain(`data-event="${hostileEvent}"`);
    const bad = await viewer.get(`/dashboard/webhooks?key=${key.id}&since=yesterday`);
    expect(noticeOf(bad.text, 'alert')).toContain('ISO 8601');
    const outOfRange = await viewer.get(`/dashboard/webhooks?key=${key.id}&since=0000-01-01`);
    expect(noticeOf(outOfRange.text, 'alert')).toContain('ISO 8601');
    // Kind and event: the stream event is there under its kind and its id (or msg_ id) only.
    const listed = async (query: string) =>
      (await viewer.get(`/dashboard/webhooks?key=${key.id}&${query}`)).text.includes(
        `data-event="${hostileEvent}"`,
      );
    expect(await listed('kind=stream')).toBe(true);
    expect(await listed('kind=aml')).toBe(false);
    expect(await listed(`event=${hostileEvent}`)).toBe(true);
    expect(await listed(`event=msg_${hostileEvent}`)).toBe(true);
    expect(await listed('event=00000000-0000-4000-8000-000000000000')).toBe(false);
    const badEvent = await viewer.get(`/dashboard/webhooks?key=${key.id}&event=nope`);
    expect(noticeOf(badEvent.text, 'alert')).toContain('event id');
  });

  it('refuses every change to a viewer (403) and shows a viewer no action button', async () => {
    const page = await viewer.get(`/dashboard/webhooks?key=${key.id}`);
    expect(page.text).not.toContain('action="/dashboard/webhooks/redeliver"');
    expect(page.text).not.toContain('action="/dashboard/webhooks/rotate"');
    for (const [action, form] of [
      ['redeliver', { event_id: hostileEvent }],
      ['recover', { since: '2000-01-01T00:00:00Z' }],
      ['pause', { address: hostileAddress, which: 'stream' }],
      ['test', { address: hostileAddress, which: 'stream' }],
      ['rotate', { overlap_hours: '0' }],
      ['endpoints/enable', { url: hostile.url }],
    ] as const) {
      const reply = await viewer.act(action, form);
      expect(reply.status, action).toBe(403);
      expect(noticeOf(reply.text, 'alert')).toContain('needs the');
    }
    expect((await eventsOf(hostileAddress))[0]!.status).toBe('failed');
    expect(hostile.received).toHaveLength(1);
    // A reviewer may not rotate the secret nor enable an endpoint.
    expect((await reviewer.act('rotate', { overlap_hours: '0' })).status).toBe(403);
    expect((await reviewer.act('endpoints/enable', { url: hostile.url })).status).toBe(403);
  });

  it('refuses a form without its CSRF token', async () => {
    const reply = await reviewer.post('/dashboard/webhooks/redeliver', {
      key: key.id,
      event_id: hostileEvent,
    });
    expect(reply.status).toBe(403);
    expect((await eventsOf(hostileAddress))[0]!.status).toBe('failed');
  });

  it('redelivers one event (same webhook-id), audited with the operator', async () => {
    hostile.respond = () => 200;
    const reply = await reviewer.act('redeliver', { event_id: hostileEvent });
    expect(reply.status).toBe(200);
    expect(noticeOf(reply.text, 'status')).toContain('queued for delivery again');
    const got = await hostile.waitFor((all) => all.length >= 2);
    expect(got[1]!.headers['webhook-id']).toBe(`msg_${hostileEvent}`);
    expect(
      await eventually(
        async () => (await eventsOf(hostileAddress))[0]!.status,
        (s) => s === 'delivered',
      ),
    ).toBe('delivered');
    const [audit] = await db.sql`
      select actor from audit_log where action = 'webhook_redeliver' and target = ${hostileEvent}`;
    expect(audit?.actor).toBe('reviewer.w');
    // A pending or unknown event is refused with a message, not a stack.
    const unknown = await reviewer.act('redeliver', { event_id: crypto.randomUUID() });
    expect(unknown.status).toBe(400);
    expect(noticeOf(unknown.text, 'alert')).toContain('no webhook event with that id');
  });

  it('recovers everything given up since a time', async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    const address = randomAddress();
    const hook = await receiver(() => 400);
    await stream(address, hook.url);
    await wallet.send(address, 1n);
    await wallet.send(address, 2n);
    const failed = await eventually(
      () => eventsOf(address),
      (rows) => rows.length === 2 && rows.every((r) => r.status === 'failed'),
      60_000,
    );
    expect(failed.map((r) => r.status)).toEqual(['failed', 'failed']);
    hook.respond = () => 200;
    const bad = await reviewer.act('recover', { since: 'last monday' });
    expect(bad.status).toBe(400);
    expect(noticeOf(bad.text, 'alert')).toContain('ISO 8601');
    // Of another address only, or another kind only: nothing.
    const elsewhere = await reviewer.act('recover', { since: before, address: randomAddress() });
    expect(noticeOf(elsewhere.text, 'status')).toMatch(/^0 events given up since/);
    const otherKind = await reviewer.act('recover', { since: before, kind: 'aml' });
    expect(noticeOf(otherKind.text, 'status')).toMatch(/^0 events given up since/);
    const reply = await reviewer.act('recover', { since: before, address, kind: 'stream' });
    expect(noticeOf(reply.text, 'status')).toMatch(/^2 events given up since/);
    await hook.waitFor((all) => all.length >= 4, 30_000);
    const done = await eventually(
      () => eventsOf(address),
      (rows) => rows.every((r) => r.status === 'delivered'),
    );
    expect(done.map((r) => r.status)).toEqual(['delivered', 'delivered']);
  }, 90_000);
});

describe('pause, resume and test webhooks', () => {
  const address = randomAddress();
  let hook: Receiver;

  beforeAll(async () => {
    hook = await receiver(() => 200);
    await stream(address, hook.url);
  });

  it('pauses a stream (events kept) and resumes it (events delivered)', async () => {
    const paused = await reviewer.act('pause', { address, which: 'stream' });
    expect(paused.status).toBe(200);
    expect(noticeOf(paused.text, 'status')).toContain('is paused');
    const row = new RegExp(`<tr data-address="${address.toLowerCase()}">[^]*?</tr>`).exec(
      paused.text,
    )?.[0];
    expect(row).toContain('<strong>paused</strong>');
    expect(row).toContain('>Resume</button>');
    await wallet.send(address, 1n);
    await eventually(
      () => eventsOf(address),
      (rows) => rows.length === 1,
      30_000,
    );
    await new Promise((r) => setTimeout(r, 2000));
    expect(hook.received).toHaveLength(0);
    expect((await eventsOf(address))[0]!.status).toBe('pending');
    const resumed = await reviewer.act('resume', { address, which: 'stream' });
    expect(noticeOf(resumed.text, 'status')).toContain('resumed; 1 kept events are due now');
    await hook.waitFor((all) => all.length === 1);
    expect(hook.received).toHaveLength(1);
    // An address the key has no live AML tracking of: refused with a message.
    const none = await reviewer.act('pause', { address, which: 'aml' });
    expect(none.status).toBe(400);
    expect(noticeOf(none.text, 'alert')).toContain('does not track that address');
  }, 60_000);

  it('sends a signed test webhook to a subscription', async () => {
    const reply = await reviewer.act('test', { address, which: 'stream' });
    expect(noticeOf(reply.text, 'status')).toContain(`queued for ${hook.url}`);
    const got = await hook.waitFor((all) => all.some((r) => JSON.parse(r.body).test === true));
    const test = got.find((r) => JSON.parse(r.body).test === true)!;
    expect(verifies(key.webhook_secret, test)).toBe(true);
    expect(JSON.parse(test.body)).toMatchObject({ type: 'test', address: address.toLowerCase() });
  });

  it("sends a signed test webhook to the key's Travel Rule webhook, or says there is none", async () => {
    const none = await reviewer.act('test', { which: 'travelrule' });
    expect(none.status).toBe(400);
    expect(noticeOf(none.text, 'alert')).toMatch(/travel rule webhook/i);
    const travel = await receiver(() => 200);
    const set = await api('POST', '/travelrule/webhook', { url: travel.url });
    expect(set.json.code).toBe(0);
    const page = await reviewer.get(`/dashboard/webhooks?key=${key.id}`);
    expect(page.text).toContain('aria-label="Send a test webhook to the Travel Rule webhook"');
    const reply = await reviewer.act('test', { which: 'travelrule' });
    expect(noticeOf(reply.text, 'status')).toContain(`queued for ${travel.url}`);
    const [got] = await travel.waitFor((all) => all.length > 0);
    expect(verifies(key.webhook_secret, got!)).toBe(true);
    expect(JSON.parse(got!.body)).toMatchObject({ type: 'test', test: true, kind: 'travelrule' });
    // A viewer sees no such button.
    expect((await viewer.get(`/dashboard/webhooks?key=${key.id}`)).text).not.toContain(
      'Send a test webhook to the Travel Rule webhook',
    );
  });

  it('rotates the secret: shown once on the answer, and the receiver verifies with it', async () => {
    const bad = await admin.act('rotate', { overlap_hours: '1000' });
    expect(bad.status).toBe(400);
    expect(bad.text).not.toContain('id="new-webhook-secret"');
    const reply = await admin.act('rotate', { overlap_hours: '0' });
    expect(reply.status).toBe(200);
    expect(reply.text).toContain('Shown once:');
    const secret = /id="new-webhook-secret">(whsec_[^<]+)</.exec(reply.text)?.[1];
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(key.webhook_secret);
    // Not shown again, nor written to the audit log.
    expect((await admin.get(`/dashboard/webhooks?key=${key.id}`)).text).not.toContain(secret!);
    const audit =
      await db.sql`select details::text as d from audit_log where action = 'webhook_secret_rotate'`;
    expect(audit).toHaveLength(1);
    expect(audit[0]!.d).not.toContain(secret!.slice(6, 20));
    const seen = hook.received.length;
    await reviewer.act('test', { address, which: 'stream' });
    const got = await hook.waitFor((all) => all.length > seen);
    expect(verifies(secret!, got[seen]!)).toBe(true);
    expect(verifies(key.webhook_secret, got[seen]!)).toBe(false); // no overlap asked
  });
});

describe('endpoints', () => {
  it('shows a disabled endpoint and enables it again (admin), its kept events then delivered', async () => {
    const address = randomAddress();
    const hook = await receiver(() => 500);
    await stream(address, hook.url);
    const state = async () =>
      /data-state="(\w+)"/.exec(
        new RegExp(`<tr data-url="${hook.url}"[^>]*>`).exec(
          (await admin.get(`/dashboard/webhooks?key=${key.id}`)).text,
        )?.[0] ?? '',
      )?.[1];
    const deadline = Date.now() + 60_000;
    while ((await state()) !== 'disabled' && Date.now() < deadline) {
      await wallet.send(address, 1n);
      await new Promise((r) => setTimeout(r, 700));
    }
    expect(await state()).toBe('disabled');
    const page = await admin.get(`/dashboard/webhooks?key=${key.id}`);
    expect(page.text).toMatch(/disabled at <time/);
    hook.respond = () => 200;
    const seen = hook.received.length;
    const reply = await admin.act('endpoints/enable', { url: hook.url });
    expect(reply.status).toBe(200);
    expect(noticeOf(reply.text, 'status')).toMatch(/is enabled again; [1-9]\d* kept events/);
    expect(await state()).not.toBe('disabled');
    await hook.waitFor(
      (all) => all.length > seen && all.at(-1)!.headers['webhook-id'] !== undefined,
    );
    const events = await eventually(
      () => eventsOf(address),
      (rows) => rows.every((r) => r.status === 'delivered'),
      30_000,
    );
    expect(events.every((r) => r.status === 'delivered')).toBe(true);
    const unknown = await admin.act('endpoints/enable', { url: 'https://nowhere.example/hook' });
    expect(noticeOf(unknown.text, 'alert')).toContain('not an endpoint of this key');
  }, 120_000);
});

describeInChromium('the page in a real browser', (chromium) => {
  it("shows the receiver's hostile answer as text: no script runs, no dialog opens", async () => {
    const context = await chromium.context(app.baseUrl);
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await logInTab(page, 'reviewer.w', PASSWORD);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.locator('#f-key').selectOption(key.id);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('#f-address').fill(hostileAddress);
    await page.getByRole('button', { name: 'Filter' }).click();
    const row = page.locator(`#attempts tr[data-event="${hostileEvent}"][data-attempt="1"]`);
    await expect(row.locator('code.excerpt')).toBeDefined();
    expect(await row.locator('code.excerpt').textContent()).toBe(HOSTILE);
    expect(await page.locator('#attempts script, #attempts img').count()).toBe(0);
    expect(await page.evaluate(() => document.scripts.length)).toBe(0);
    await page.waitForTimeout(300);
    expect(dialogs).toEqual([]);
    // The page's own form works in the browser: redeliver the event (delivered by now).
    await row.getByRole('button', { name: `Redeliver event ${hostileEvent}` }).click();
    await expect(page.locator('[role=status]').textContent()).resolves.toContain(
      'queued for delivery again',
    );
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
