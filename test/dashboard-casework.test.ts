import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { createOperator } from '../src/operators/operators.js';
import { upsertVasp } from '../src/travelrule/vasps.js';
import { startTestAppliance } from './helpers/appliance.js';
import { describeInChromium, logInTab } from './helpers/browser.js';
import { csrfOf, type DashboardClient, dashboardLogin } from './helpers/dashboard-client.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { Receiver } from './helpers/receiver.js';
import { PERSONAL_VALUES, sendInquiry, travelBody } from './helpers/travelrule.js';

/**
 * The dashboard a compliance officer works in, against the real appliance (API and worker), a
 * real Postgres and incoming transfers sent as TRP inquiries by an independent peer: statuses in
 * words, assignment and notes on a case (sealed, audited, by role), the queue's filters (assignee,
 * risk, tag, failed messages) and its CSV export, and a message to the other VASP that failed,
 * seen on the queue, the transaction and the operations page. Then the same work in Chromium.
 */

const PASSWORD = 'correct horse battery staple';
const PEER = {
  uid: '0d0d0d0d-0000-4000-8000-00000000000d',
  name: 'Delta VASP',
  token: randomBytes(32).toString('base64url'),
};

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
/** The originator VASP's callback: refuses every resolution (a wrong path on its side). */
let refusing: Receiver;
let viewer: DashboardClient;
let reviewer: DashboardClient;
let admin: DashboardClient;

beforeAll(async () => {
  db = await freshDatabase();
  await createApiKey(db.sql, 'backend');
  for (const [login, role] of [
    ['viewer.c', 'viewer'],
    ['reviewer.c', 'reviewer'],
    ['second.c', 'reviewer'],
    ['admin.c', 'admin'],
  ] as const)
    await createOperator(db.sql, login, role, PASSWORD);
  await upsertVasp(
    db.sql,
    {
      uid: PEER.uid,
      name: PEER.name,
      website: 'https://delta.example',
      country: 'FR',
      trp_endpoint: 'https://127.0.0.1:9/trp/v3/inquiries/x',
      inbound_token: PEER.token,
    },
    'cli',
  );
  refusing = await new Receiver().start();
  refusing.respond = () => 404;
  app = await startTestAppliance(
    db.url,
    {},
    { api: true, worker: true, indexer: false, devChain: false },
  );
  // One after another: the login limits allow 2 attempts of one address at once.
  viewer = await dashboardLogin(app.baseUrl, 'viewer.c', PASSWORD);
  reviewer = await dashboardLogin(app.baseUrl, 'reviewer.c', PASSWORD);
  admin = await dashboardLogin(app.baseUrl, 'admin.c', PASSWORD);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await refusing?.stop();
  await db?.drop();
});

/** An incoming transfer, PENDING in the queue. */
async function incoming(
  callback = 'https://127.0.0.1:9/trp/v3/resolutions/cb',
): Promise<{ id: string; ref: string }> {
  const sent = await sendInquiry(app.baseUrl, PEER.token, { callback, vaspName: PEER.name });
  expect(sent.status).toBe(200);
  const [row] = await db.sql<{ id: string; status: string }[]>`
    select id, status from travelrule_transactions where transaction_ref = ${sent.ref}`;
  expect(row!.status).toBe('PENDING');
  return { id: row!.id, ref: sent.ref };
}

const page = (id: string) => `/dashboard/travelrule/${id}`;

/** The transactions a queue page lists, in order. */
const ids = (html: string) => [...html.matchAll(/<tr data-id="([^"]+)">/g)].map((m) => m[1]);

/** The queue's row of a transaction, or undefined. */
function rowOf(html: string, id: string): string | undefined {
  return new RegExp(`<tr data-id="${id}">[\\s\\S]*?</tr>`).exec(html)?.[0];
}

async function auditOf(action: string, target: string | null) {
  return db.sql<{ actor: string; details: Record<string, unknown>; client_address: string }[]>`
    select actor, details, client_address from audit_log
    where action = ${action} and target is not distinct from ${target} order by id`;
}

describe('statuses in words', () => {
  it('the queue, the filter and the history say what a status means, its name beside it', async () => {
    const { id } = await incoming();
    const queue = await viewer.get('/dashboard/travelrule');
    expect(queue.status).toBe(200);
    expect(rowOf(queue.text, id)).toContain(
      '<span class="tr-status" data-status="PENDING">Waiting for your review <code class="muted">PENDING</code></span>',
    );
    expect(queue.text).toContain(
      '<option value="OTHER_VASP_PENDING">Sent: waiting for the beneficiary VASP&#39;s answer (OTHER_VASP_PENDING)</option>',
    );
    const detail = await viewer.get(page(id));
    expect(detail.text).toMatch(
      /<dt>Status<\/dt><dd><span class="tr-status" data-status="PENDING"><strong>Waiting for your review<\/strong>/,
    );
    expect(detail.text).toMatch(/data-status="SCORE"><strong>Being screened<\/strong>/);
  });
});

describe('assignment', () => {
  it('a reviewer takes a case, gives it to another, and nobody; each change audited', async () => {
    const { id } = await incoming();
    const before = await reviewer.get(page(id));
    expect(before.text).toContain('Nobody is assigned.');

    const mine = await reviewer.post(`${page(id)}/assign`, {
      _csrf: csrfOf(before.text),
      me: '1',
      assignee: '',
    });
    expect(mine.status).toBe(303);
    expect(mine.headers.location).toBe(`${page(id)}?done=assign#casework`);
    // Where a browser goes (the fragment stays in the browser).
    const after = await reviewer.get(String(mine.headers.location).replace(/#.*/, ''));
    expect(after.text).toMatch(/Assigned to <strong>reviewer\.c<\/strong> since <time/);
    expect(after.text).toMatch(/role="status">Assigned\./);

    // The same again changes nothing and writes nothing.
    const again = await reviewer.submit(page(id), `${page(id)}/assign`, { me: '1' });
    expect(again.headers.location).toBe(`${page(id)}?done=assign_same#casework`);

    const other = await reviewer.submit(page(id), `${page(id)}/assign`, { assignee: 'second.c' });
    expect(other.status).toBe(303);
    const none = await admin.submit(page(id), `${page(id)}/assign`, { assignee: '' });
    expect(none.headers.location).toBe(`${page(id)}?done=unassign#casework`);
    expect((await admin.get(page(id))).text).toContain('Nobody is assigned.');

    const entries = await auditOf('travelrule_assign', id);
    expect(entries.map((e) => [e.actor, e.details])).toEqual([
      ['reviewer.c', { assignee: 'reviewer.c', previous: null }],
      ['reviewer.c', { assignee: 'second.c', previous: 'reviewer.c' }],
      ['admin.c', { assignee: null, previous: 'second.c' }],
    ]);
    expect(entries[0]!.client_address).toBe('127.0.0.1');
  });

  it('refuses a viewer, a disabled or unknown login as assignee, and changes nothing', async () => {
    const { id } = await incoming();
    for (const [assignee, message] of [
      ['viewer.c', 'a case is assigned to a reviewer or an admin'],
      ['nobody.here', 'no active operator with this login'],
    ]) {
      const reply = await reviewer.submit(page(id), `${page(id)}/assign`, { assignee: assignee! });
      expect(reply.status).toBe(400);
      expect(reply.text).toContain(message);
      expect(reply.text).toContain('Nobody is assigned.');
    }
    expect(await auditOf('travelrule_assign', id)).toEqual([]);
  });

  it('a viewer sees who is on a case and no form; its POSTs are refused by role', async () => {
    const { id } = await incoming();
    await reviewer.submit(page(id), `${page(id)}/assign`, { me: '1' });
    const seen = await viewer.get(page(id));
    expect(seen.text).toMatch(/Assigned to <strong>reviewer\.c<\/strong>/);
    expect(seen.text).not.toContain('id="assign"');
    expect(seen.text).not.toContain('id="note"');
    const csrf = csrfOf(seen.text);
    expect((await viewer.post(`${page(id)}/assign`, { _csrf: csrf, me: '1' })).status).toBe(403);
    expect((await viewer.post(`${page(id)}/note`, { _csrf: csrf, note: 'x' })).status).toBe(403);
    expect(await auditOf('travelrule_note', id)).toEqual([]);
  });
});

describe('notes', () => {
  it('are kept sealed, shown as text with their lines, audited by id only', async () => {
    const { id } = await incoming();
    const text = `Called ${PERSONAL_VALUES[1]} ${PERSONAL_VALUES[0]} back.\nSource of funds: salary <script>alert(1)</script>`;
    const added = await reviewer.submit(page(id), `${page(id)}/note`, { note: text });
    expect(added.status).toBe(303);
    expect(added.headers.location).toBe(`${page(id)}?done=note#notes`);
    await admin.submit(page(id), `${page(id)}/note`, { note: 'Second look: fine.' });

    const seen = await viewer.get(page(id));
    const notes = /<ol class="notes">([\s\S]*?)<\/ol>/.exec(seen.text)![1]!;
    expect(notes).toContain('<p class="note-body">Called');
    expect(notes).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(notes).not.toContain('<script>');
    expect(notes).toContain('back.\nSource of funds');
    expect(notes.indexOf('reviewer.c')).toBeLessThan(notes.indexOf('admin.c')); // oldest first

    // Stored sealed: not a byte of the text in the row.
    const rows = await db.sql<{ id: string; body_sealed: Buffer; author: string }[]>`
      select id, body_sealed, author from travelrule_notes where transaction_id = ${id} order by created_at`;
    expect(rows.map((r) => r.author)).toEqual(['reviewer.c', 'admin.c']);
    expect(rows[0]!.body_sealed.toString('latin1')).not.toContain('Source of funds');
    // The audit entry names the note, never its text.
    const entries = await auditOf('travelrule_note', id);
    expect(entries.map((e) => e.details)).toEqual(rows.map((r) => ({ note: r.id })));
    expect(JSON.stringify(entries)).not.toContain('Source of funds');
    // Counted in the queue.
    const queue = await viewer.get('/dashboard/travelrule');
    expect(rowOf(queue.text, id)).toMatch(/<td class="num">2<\/td>/);
  });

  it('refuses an empty or too long note, keeping what was typed, and stores nothing', async () => {
    const { id } = await incoming();
    const empty = await reviewer.submit(page(id), `${page(id)}/note`, { note: '  \n ' });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('note: the note is empty');
    const long = 'x'.repeat(4001);
    const tooLong = await reviewer.submit(page(id), `${page(id)}/note`, { note: long });
    expect(tooLong.status).toBe(400);
    expect(tooLong.text).toContain('note: at most 4000 characters');
    expect(tooLong.text).toContain(`>${long}</textarea>`);
    const [n] =
      await db.sql`select count(*)::int as n from travelrule_notes where transaction_id = ${id}`;
    expect(n!.n).toBe(0);
    // An unknown transaction.
    const missing = await reviewer.submit(
      page(id),
      '/dashboard/travelrule/00000000-0000-4000-8000-000000000000/note',
      { note: 'hello' },
    );
    expect(missing.status).toBe(404);
  });
});

describe('queue filters and export', () => {
  let tagged: { id: string; ref: string };
  let plain: { id: string; ref: string };

  beforeAll(async () => {
    // The originator's address is sanctioned for this transfer only.
    const originator = travelBody('x').originator.accountNumber[0]!.toLowerCase();
    await db.sql`insert into labels (network, address, category, source, name)
      values ('evm', ${originator}, 'sanctioned', 'casework-test', 'Casework test list')`;
    try {
      tagged = await incoming();
    } finally {
      await db.sql`delete from labels where source = 'casework-test'`;
    }
    plain = await incoming();
    await reviewer.submit(page(tagged.id), `${page(tagged.id)}/assign`, { assignee: 'second.c' });
  });

  it('by assignee, nobody, score and tag', async () => {
    const bySecond = await viewer.get('/dashboard/travelrule?status=&assignee=second.c');
    expect(ids(bySecond.text)).toEqual([tagged.id]);
    const byNobody = await viewer.get('/dashboard/travelrule?status=&assignee=-');
    expect(ids(byNobody.text)).toContain(plain.id);
    expect(ids(byNobody.text)).not.toContain(tagged.id);

    const [t] = await db.sql<{ score: number }[]>`
      select greatest(originator_score, beneficiary_score) as score from travelrule_transactions where id = ${tagged.id}`;
    expect(t!.score).toBeGreaterThan(0);
    const risky = await viewer.get(`/dashboard/travelrule?status=&score=${t!.score}`);
    expect(ids(risky.text)).toContain(tagged.id);
    expect(ids(risky.text)).not.toContain(plain.id);
    if (t!.score < 100) {
      const above = await viewer.get(`/dashboard/travelrule?status=&score=${t!.score + 1}`);
      expect(ids(above.text)).not.toContain(tagged.id);
    }
    const sanctioned = await viewer.get('/dashboard/travelrule?status=&tag=sanctioned');
    expect(ids(sanctioned.text)).toEqual([tagged.id]);
    const mixer = await viewer.get('/dashboard/travelrule?status=&tag=mixer');
    expect(ids(mixer.text)).toEqual([]);
  });

  it('refuses a bad filter with a message, listing nothing', async () => {
    for (const [query, message] of [
      ['score=101', 'Score at least: must be a whole number from 0 to 100.'],
      ['score=-1', 'Score at least'],
      ['score=ten', 'Score at least'],
      ['tag=%3Cscript%3E', 'Tag: not a known tag.'],
    ]) {
      const reply = await viewer.get(`/dashboard/travelrule?status=&${query}`);
      expect(reply.status).toBe(400);
      expect(reply.text).toContain(message);
      expect(ids(reply.text)).toEqual([]);
      expect(reply.text).not.toContain('<script>');
      const exported = await viewer.get(`/dashboard/travelrule/export?status=&${query}`);
      expect(exported.status).toBe(400);
    }
  });

  it('exports what the filters find as CSV, without personal data, and audits the export', async () => {
    await reviewer.submit(page(tagged.id), `${page(tagged.id)}/note`, {
      note: `About ${PERSONAL_VALUES[11]} ${PERSONAL_VALUES[10]}: documents checked.`,
    });
    const reply = await viewer.get('/dashboard/travelrule/export?status=&assignee=second.c');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(reply.headers['content-disposition']).toMatch(
      /^attachment; filename="tollgate-travelrule-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = reply.text.split('\r\n');
    expect(lines[0]).toBe(
      'id,transaction_ref,direction,status,status_words,amount,asset,network,counterparty_vasp,originator_score,originator_tags,beneficiary_score,beneficiary_tags,assigned_to,notes,failed_messages,created_at,updated_at',
    );
    expect(lines.at(-1)).toBe('');
    expect(lines.length).toBe(3); // the header, one transaction, the final line end
    const cells = lines[1]!.split(',');
    expect(cells.slice(0, 5)).toEqual([
      tagged.id,
      tagged.ref,
      'incoming',
      'PENDING',
      'Waiting for your review',
    ]);
    expect(cells[8]).toBe(PEER.name);
    expect(cells[10]).toContain('sanctioned');
    expect(cells.slice(13, 16)).toEqual(['second.c', '1', '0']);
    for (const value of PERSONAL_VALUES) expect(reply.text).not.toContain(value);
    expect(reply.text).not.toContain('documents checked');

    const [entry] = (await auditOf('travelrule_export', null)).slice(-1);
    expect(entry).toMatchObject({
      actor: 'viewer.c',
      details: { transactions: 1, assignee: 'second.c', failed: false, status: null },
    });
  });
});

describe('a message to the other VASP that failed', () => {
  it('shows on the queue (and its filter), the transaction and the operations page', async () => {
    const { id, ref } = await incoming(refusing.url);
    const rejected = await reviewer.submit(page(id), `${page(id)}/reject`, {
      reason: 'not our customer',
    });
    expect(rejected.status).toBe(303);
    // The rejection goes to the originator VASP's callback, which refuses it (404): not retried.
    await eventually(
      async () =>
        (
          await db.sql`select status from travelrule_messages where transaction_id = ${id} and status = 'failed'`
        ).length,
      (n) => n === 1,
      30_000,
    );
    expect(refusing.received.length).toBe(1);

    const queue = await viewer.get('/dashboard/travelrule?status=&failed=1');
    expect(queue.status).toBe(200);
    expect(ids(queue.text)).toEqual([id]);
    expect(rowOf(queue.text, id)).toContain(
      '<div class="failed">A message to the other VASP failed</div>',
    );
    const all = await viewer.get('/dashboard/travelrule?status=');
    expect(ids(all.text).length).toBeGreaterThan(1);

    const detail = await viewer.get(page(id));
    expect(detail.text).toContain(
      '<p class="alert" id="failed-messages">A message to the other VASP failed',
    );
    expect(detail.text).toMatch(/<td class="failed">failed<\/td>/);

    const ops = await admin.get('/dashboard/operations');
    expect(ops.text).toContain(`><bdi>${ref}</bdi></a>`);
    expect(ops.text).toContain(
      '<a id="failed-in-queue" href="/dashboard/travelrule?status=&amp;failed=1">',
    );
  });
});

describeInChromium('casework in a real browser', (chromium) => {
  it('takes a case, writes a note, and finds the case in "assigned to me"', async () => {
    const { id, ref } = await incoming();
    const context = await chromium.context(app.baseUrl);
    const tab = await context.newPage();
    const errors: string[] = [];
    tab.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await logInTab(tab, 'second.c', PASSWORD);
    await tab.getByRole('link', { name: ref }).click();
    await tab.waitForURL(`**${page(id)}`);

    await Promise.all([
      tab.waitForURL(`**${page(id)}?done=assign*`),
      tab.getByRole('button', { name: 'Assign to me' }).click(),
    ]);
    expect(await tab.locator('#assignee').textContent()).toMatch(/^Assigned to second\.c since/);

    const note = 'Asked the originator VASP for the purpose.\nWaiting for their answer.';
    await tab.getByLabel('Add a note').fill(note);
    await Promise.all([
      tab.waitForURL(`**${page(id)}?done=note*`),
      tab.getByRole('button', { name: 'Add note' }).click(),
    ]);
    expect(await tab.locator('.notes .note-body').last().textContent()).toBe(note);

    await tab.goto('/dashboard/travelrule');
    await tab.getByLabel('Assigned to').selectOption('second.c');
    await Promise.all([
      tab.waitForURL('**/dashboard/travelrule?*assignee=second.c*'),
      tab.getByRole('button', { name: 'Search' }).click(),
    ]);
    const row = tab.locator(`tr[data-id="${id}"]`);
    expect(await row.locator('td.assignee').textContent()).toBe('second.c');
    expect(errors).toEqual([]);
    await context.close();
  });
});
