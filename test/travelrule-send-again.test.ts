import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { createOperator } from '../src/operators/operators.js';
import { upsertVasp } from '../src/travelrule/vasps.js';
import { startTestAppliance } from './helpers/appliance.js';
import { describeInChromium, logInTab } from './helpers/browser.js';
import { type DashboardClient, dashboardLogin } from './helpers/dashboard-client.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { call } from './helpers/http.js';
import { Receiver } from './helpers/receiver.js';
import { BENEFICIARY_ADDRESS, sendInquiry } from './helpers/travelrule.js';

/**
 * A message to the other VASP sent again by an operator: a failed one ("Send again"), a pending
 * one waiting out its backoff ("Send now"), on the transaction's page and through the operator
 * API; and what is refused, changing nothing. Against a real appliance (API and worker), a real
 * Postgres, incoming transfers sent as TRP inquiries by an independent peer (helpers/trp-peer.ts)
 * and that peer's callback, a real HTTP server whose answers each test sets; and the button
 * clicked in Chromium.
 */

const PASSWORD = 'correct horse battery staple';
const PEER = {
  uid: '0e0e0e0e-0000-4000-8000-00000000000e',
  name: 'Echo VASP',
  token: randomBytes(32).toString('base64url'),
};

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let apikey: string;
let reviewer: DashboardClient;
let viewer: DashboardClient;
const basic = (login: string) => ({
  authorization: `Basic ${Buffer.from(`${login}:${PASSWORD}`).toString('base64')}`,
});
const receivers: Receiver[] = [];

beforeAll(async () => {
  db = await freshDatabase();
  apikey = (await createApiKey(db.sql, 'backend')).apikey;
  await createOperator(db.sql, 'rita.reviewer', 'reviewer', PASSWORD);
  await createOperator(db.sql, 'vic.viewer', 'viewer', PASSWORD);
  await createOperator(db.sql, 'api.reviewer', 'reviewer', PASSWORD);
  await upsertVasp(
    db.sql,
    {
      uid: PEER.uid,
      name: PEER.name,
      website: 'https://echo.example',
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
  reviewer = await dashboardLogin(app.baseUrl, 'rita.reviewer', PASSWORD);
  viewer = await dashboardLogin(app.baseUrl, 'vic.viewer', PASSWORD);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  for (const r of receivers) await r.stop();
  await db?.drop();
});

/** The originator VASP's callback, answering each request as `respond` says. */
async function callback(respond: Receiver['respond']): Promise<Receiver> {
  const r = await new Receiver().start();
  r.respond = respond;
  receivers.push(r);
  return r;
}

/** An incoming transfer from the peer, PENDING, whose resolutions go to `cb`. */
async function incoming(cb: Receiver): Promise<{ id: string; ref: string }> {
  const sent = await sendInquiry(app.baseUrl, PEER.token, {
    callback: cb.url,
    vaspName: PEER.name,
  });
  expect(sent.status).toBe(200);
  const [row] = await db.sql<{ id: string }[]>`
    select id from travelrule_transactions where transaction_ref = ${sent.ref}`;
  return { id: row!.id, ref: sent.ref };
}

/** The transaction's one message (its resolution), once it is `status`. */
async function messageOnce(id: string, status: string) {
  return eventually(
    async () =>
      (
        await db.sql<{ id: string; status: string; attempts: number; last_error: string | null }[]>`
          select id::text, status, attempts, last_error from travelrule_messages
          where transaction_id = ${id}`
      )[0],
    (m) => m?.status === status,
    30_000,
  ).then((m) => m!);
}

/** Accepted, and the deposit address given: the approval goes to the originator's callback. */
async function approved(id: string, ref: string): Promise<void> {
  const accepted = await call(app.baseUrl, 'POST', `/ops/travelrule/transactions/${id}/accept`, {
    headers: basic('api.reviewer'),
    body: {},
  });
  expect(accepted.status).toBe(200);
  const given = await call(app.baseUrl, 'POST', '/v2/travelrule/send_address', {
    headers: { apikey },
    body: { transaction_ref: ref, address: BENEFICIARY_ADDRESS },
  });
  expect(given.json).toMatchObject({ code: 0 });
}

const counterpartyReason = async (id: string) =>
  (
    await db.sql<{ counterparty_reason: string | null }[]>`
      select counterparty_reason from travelrule_transactions where id = ${id}`
  )[0]!.counterparty_reason;

/** The audit entries of messages sent again on a transaction, oldest first. */
const sendAudits = (id: string) =>
  db.sql<{ actor: string; details: Record<string, unknown> }[]>`
    select actor, details from audit_log
    where action = 'travelrule_message_send' and target = ${id} order by id`;

const sendPath = (id: string, messageId: string) =>
  `/dashboard/travelrule/${id}/messages/${messageId}/send`;

/** A 503 asking to be left alone for an hour: the message waits, pending, far past the test. */
const busyForAnHour = { status: 503, body: '', headers: { 'retry-after': '3600' } };

describe('a failed message, sent again from the transaction page', () => {
  it('reaches the other VASP under the same request-identifier, clears what tx_status said, and is audited', async () => {
    // The originator's callback refuses the first resolution (a wrong path on its side, fixed).
    const cb = await callback((_r, i) => (i === 0 ? 404 : 204));
    const { id } = await incoming(cb);
    const page = `/dashboard/travelrule/${id}`;
    expect(
      (await reviewer.submit(page, `${page}/reject`, { reason: 'not our customer' })).status,
    ).toBe(303);
    const failed = await messageOnce(id, 'failed');
    expect(await counterpartyReason(id)).toMatch(
      /^our rejection did not reach the originator VASP: /,
    );

    // A viewer sees the message and no button, and its POST is refused by role.
    const seen = await viewer.get(page);
    expect(seen.text).toContain(`<tr id="message-${failed.id}">`);
    expect(seen.text).not.toContain(sendPath(id, failed.id));
    expect((await viewer.submit(page, sendPath(id, failed.id), {})).status).toBe(403);

    expect(seen.text).toContain('Messages to the other VASP</a>.</p>');
    const shown = await reviewer.get(page);
    expect(shown.text).toContain('Messages to the other VASP</a>, where it can be sent again.</p>');
    expect(shown.text).toContain(`action="${sendPath(id, failed.id)}"`);
    expect(shown.text).toContain('>Send again</button>');
    const sent = await reviewer.submit(page, sendPath(id, failed.id), {});
    expect(sent.status).toBe(303);
    expect(sent.headers.location).toBe(`${page}?done=send_again#messages`);

    const got = await cb.waitFor((all) => all.length === 2);
    expect(got[1]!.headers['request-identifier']).toBe(got[0]!.headers['request-identifier']);
    expect(got[1]!.json).toEqual(got[0]!.json);
    expect(await messageOnce(id, 'sent')).toMatchObject({ attempts: 2, last_error: null });
    expect(await counterpartyReason(id)).toBeNull();
    expect(await sendAudits(id)).toEqual([
      {
        actor: 'rita.reviewer',
        details: { message: failed.id, kind: 'trp_resolution', was: 'failed' },
      },
    ]);

    // Sent now: a second click is refused with the reason, and changes nothing.
    const again = await reviewer.submit(page, sendPath(id, failed.id), {});
    expect(again.status).toBe(409);
    expect(again.text).toContain('message: it was sent already');
    expect(again.text).not.toContain('>Send again</button>');
    expect(cb.received.length).toBe(2);
    expect((await sendAudits(id)).length).toBe(1);
  });
});

describe('a pending message, sent now through the operator API', () => {
  it('goes at once instead of at the end of the hour the other VASP asked for', async () => {
    const cb = await callback((_r, i) => (i === 0 ? busyForAnHour : 204));
    const { id, ref } = await incoming(cb);
    await approved(id, ref);
    await cb.waitFor((all) => all.length === 1);
    const waiting = await eventually(
      async () =>
        (
          await db.sql<{ id: string; status: string; run_at: Date; later: boolean }[]>`
            select m.id::text, m.status, j.run_at, j.run_at > now() + interval '50 minutes' as later
            from travelrule_messages m join graphile_worker.jobs j on j.key = 'trm:' || m.id
            where m.transaction_id = ${id} and m.attempts = 1`
        )[0],
      (m) => m?.later === true,
      30_000,
    );
    expect(waiting!.status).toBe('pending');

    const page = `/dashboard/travelrule/${id}`;
    expect((await reviewer.get(page)).text).toContain('>Send now</button>');
    const reply = await call(
      app.baseUrl,
      'POST',
      `/ops/travelrule/transactions/${id}/messages/${waiting!.id}/send`,
      { headers: basic('api.reviewer') },
    );
    expect(reply.status).toBe(200);
    expect(reply.json.data).toEqual({
      message_id: waiting!.id,
      kind: 'trp_resolution',
      was: 'pending',
      status: 'pending',
    });
    await cb.waitFor((all) => all.length === 2, 30_000);
    await messageOnce(id, 'sent');
    expect(await sendAudits(id)).toEqual([
      {
        actor: 'api.reviewer',
        details: { message: waiting!.id, kind: 'trp_resolution', was: 'pending', via: 'api' },
      },
    ]);
  });
});

describe('refused, changing nothing', () => {
  it('an approval the transfer was cancelled after: not sent again, and the sender drops it', async () => {
    const cb = await callback(() => busyForAnHour);
    const { id, ref } = await incoming(cb);
    await approved(id, ref);
    await cb.waitFor((all) => all.length === 1);
    const pending = await eventually(
      async () =>
        (
          await db.sql<{ id: string }[]>`
            select m.id::text from travelrule_messages m join graphile_worker.jobs j on j.key = 'trm:' || m.id
            where m.transaction_id = ${id} and m.attempts = 1 and j.run_at > now() + interval '50 minutes'`
        )[0],
      (m) => m !== undefined,
      30_000,
    );
    const cancelled = await call(app.baseUrl, 'POST', `/ops/travelrule/transactions/${id}/cancel`, {
      headers: basic('api.reviewer'),
      body: { reason: 'new information on the customer' },
    });
    expect(cancelled.json.data).toEqual({ status: 'REJECTED' });

    const refused = await call(
      app.baseUrl,
      'POST',
      `/ops/travelrule/transactions/${id}/messages/${pending!.id}/send`,
      { headers: basic('api.reviewer'), body: {} },
    );
    expect(refused.status).toBe(409);
    expect(refused.json.message).toMatch(/the transaction is REJECTED/);
    const page = `/dashboard/travelrule/${id}`;
    expect((await reviewer.get(page)).text).not.toContain(sendPath(id, pending!.id));

    // The hour is over: the sender finds the approval moved past, and never sends it.
    await db.sql`select graphile_worker.reschedule_jobs(
      array(select id from graphile_worker.jobs where key = ${`trm:${pending!.id}`}), run_at => now())`;
    const dropped = await messageOnce(id, 'cancelled');
    expect(dropped.last_error).toBe('not sent: the transaction is REJECTED');
    expect(cb.received.length).toBe(1);
    expect((await sendAudits(id)).length).toBe(0);
  });

  it('a message of another transaction, an unknown one, and one that is not an id', async () => {
    const cb = await callback(() => 404);
    const a = await incoming(cb);
    const b = await incoming(cb);
    const page = `/dashboard/travelrule/${a.id}`;
    await reviewer.submit(page, `${page}/reject`, { reason: 'not our customer' });
    const failed = await messageOnce(a.id, 'failed');
    for (const [tx, message] of [
      [b.id, failed.id],
      [a.id, '999999999'],
      [a.id, 'x1'],
      [a.id, '1'.repeat(30)],
    ] as const) {
      const api = await call(
        app.baseUrl,
        'POST',
        `/ops/travelrule/transactions/${tx}/messages/${message}/send`,
        { headers: basic('api.reviewer') },
      );
      expect(api.status).toBe(404);
      expect(api.json.message).toBe('message: this transaction has no such message');
      const dash = await reviewer.submit(`/dashboard/travelrule/${tx}`, sendPath(tx, message), {});
      expect(dash.status).toBe(404);
      expect(dash.text).toContain('This transaction has no such message.');
    }
    expect((await messageOnce(a.id, 'failed')).attempts).toBe(1);
    // A body with anything in it is refused before anything is looked at.
    const withBody = await call(
      app.baseUrl,
      'POST',
      `/ops/travelrule/transactions/${a.id}/messages/${failed.id}/send`,
      { headers: basic('api.reviewer'), body: { now: true } },
    );
    expect(withBody.status).toBe(400);
    expect(cb.received.length).toBe(1);
  });
});

describeInChromium('in a real browser', (chromium) => {
  it('a reviewer clicks "Send again" and sees the message sent', async () => {
    const cb = await callback((_r, i) => (i === 0 ? 404 : 204));
    const { id, ref } = await incoming(cb);
    const page = `/dashboard/travelrule/${id}`;
    await reviewer.submit(page, `${page}/reject`, { reason: 'not our customer' });
    const failed = await messageOnce(id, 'failed');

    const context = await chromium.context(app.baseUrl);
    const tab = await context.newPage();
    const errors: string[] = [];
    tab.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await logInTab(tab, 'rita.reviewer', PASSWORD);
    await tab.goto(`/dashboard/travelrule?status=&ref=${encodeURIComponent(ref)}`);
    await tab.getByRole('link', { name: ref }).click();
    await tab.waitForURL(`**${page}`);
    const row = tab.locator(`#message-${failed.id}`);
    expect(await row.locator('td').nth(1).textContent()).toBe('failed');
    await Promise.all([
      tab.waitForURL(`**${page}?done=send_again*`),
      row.getByRole('button', { name: 'Send again' }).click(),
    ]);
    expect(await tab.getByRole('status').textContent()).toBe(
      'The message is sent again now, with a fresh round of attempts.',
    );
    await cb.waitFor((all) => all.length === 2);
    await messageOnce(id, 'sent');
    await tab.reload();
    expect(await row.locator('td').nth(1).textContent()).toBe('sent');
    expect(await row.getByRole('button').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
