import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../src/audit/index.js';
import { createApiKey } from '../src/keys/keys.js';
import { createOperator } from '../src/operators/operators.js';
import { loadKeyring } from '../src/travelrule/crypto.js';
import { createViewToken } from '../src/travelrule/view-link.js';
import { upsertVasp } from '../src/travelrule/vasps.js';
import { startTestAppliance } from './helpers/appliance.js';
import { runCli } from './helpers/cli.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { csrfOf, DashboardClient } from './helpers/dashboard-client.js';
import { call } from './helpers/http.js';
import { sendInquiry } from './helpers/travelrule.js';

/**
 * The audit trail a bank's auditor signs off (issue 17 point 3), against a real Postgres, the
 * real appliance (one reached directly, one behind a configured proxy) and the real CLI: every
 * change of the CLI is an entry of actor `cli`; every read of personal data (the dashboard's
 * transaction page, the e-mailed view link, an export) is one with the client address; the
 * audit page shows references and reasons, filters and exports safely; the chain stays intact.
 */

const PASSWORD = 'correct horse battery staple';
const DATA_KEY = randomBytes(32).toString('base64');
const PEER = {
  uid: '0d0d0d0d-0000-4000-8000-00000000000d',
  name: 'Delta VASP',
  token: randomBytes(32).toString('base64url'),
};
/** The client the configured proxy names (X-Forwarded-For). */
const FORWARDED_CLIENT = '203.0.113.9';
/** A reason that a spreadsheet would run as a formula. */
const FORMULA_REASON = '=HYPERLINK("https://evil.example","click")';

let db: TestDatabase;
let direct: Awaited<ReturnType<typeof startTestAppliance>>;
let proxied: Awaited<ReturnType<typeof startTestAppliance>>;

beforeAll(async () => {
  db = await freshDatabase();
  await createApiKey(db.sql, 'backend');
  for (const [login, role] of [
    ['viewer.at', 'viewer'],
    ['reviewer.at', 'reviewer'],
    ['admin.at', 'admin'],
  ] as const)
    await createOperator(db.sql, login, role, PASSWORD);
  await upsertVasp(
    db.sql,
    {
      uid: PEER.uid,
      name: PEER.name,
      website: 'https://delta.example',
      country: 'DE',
      trp_endpoint: 'https://127.0.0.1:9/trp/v3/inquiries/x',
      inbound_token: PEER.token,
    },
    'cli',
  );
  const roles = { api: true, worker: false, indexer: false, devChain: false } as const;
  direct = await startTestAppliance(db.url, { TOLLGATE_DATA_KEY: DATA_KEY }, roles);
  proxied = await startTestAppliance(
    db.url,
    { TOLLGATE_DATA_KEY: DATA_KEY, TOLLGATE_TRUST_PROXY: '127.0.0.1/32' },
    roles,
  );
}, 120_000);

afterAll(async () => {
  await direct?.stop();
  await proxied?.stop();
  await db?.drop();
});

/** What a browser does for the dashboard (test/helpers/dashboard-client.ts), optionally through the configured proxy. */
class Client extends DashboardClient {
  constructor(baseUrl: string, extra: Record<string, string> = {}) {
    super(baseUrl, { headers: extra });
  }
}

async function login(client: Client, name: string): Promise<Client> {
  const page = await client.get('/dashboard/login');
  const reply = await client.post('/dashboard/login', {
    _csrf: csrfOf(page.text),
    login: name,
    password: PASSWORD,
  });
  expect(reply.status).toBe(303);
  expect(reply.headers.location).toBe('/dashboard/travelrule');
  return client;
}

/** The proxied appliance serves plain HTTP: TLS ends at the proxy. */
const proxiedUrl = () => `http://127.0.0.1:${proxied.apiPort}`;

const viaProxy = () =>
  new Client(proxiedUrl(), {
    'x-forwarded-for': FORWARDED_CLIENT,
    'x-forwarded-proto': 'https',
  });

async function incoming(): Promise<{ id: string; ref: string }> {
  const sent = await sendInquiry(direct.baseUrl, PEER.token, {
    callback: 'https://127.0.0.1:9/trp/v3/resolutions/cb',
    vaspName: PEER.name,
  });
  expect(sent.status).toBe(200);
  const [row] = await db.sql<{ id: string }[]>`
    select id from travelrule_transactions where transaction_ref = ${sent.ref}`;
  return { id: row!.id, ref: sent.ref };
}

interface Entry {
  id: string;
  actor: string;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
  client_address: string | null;
}

async function entriesAfter(id: string): Promise<Entry[]> {
  return db.sql<Entry[]>`
    select a.id::text, actor, action, target, details, client_address from audit_log a
    where a.id > ${id}::bigint order by a.id`;
}

async function lastId(): Promise<string> {
  const [r] = await db.sql<
    { id: string }[]
  >`select coalesce(max(id), 0)::text as id from audit_log`;
  return r!.id;
}

/** The whole log as text: what must never hold a secret. */
async function logText(): Promise<string> {
  const rows = await db.sql<{ t: string }[]>`select row_to_json(a)::text as t from audit_log a`;
  return rows.map((r) => r.t).join('\n');
}

describe('the CLI audits its changes (actor cli, no client address, no secret)', () => {
  it('keys, operators, vasps, labels and travel addresses', async () => {
    const env = { TOLLGATE_TRAVEL_RULE_PUBLIC_URL: 'https://tollgate.example.com/' };
    const cli = async (args: string[], extra: Record<string, string> = {}) => {
      const run = runCli(db.url, args, { ...env, ...extra });
      expect(await run.exited, `${args.join(' ')}: ${run.err()}`).toBe(0);
      return run;
    };
    const before = await lastId();
    const created = (await cli(['keys', 'create', '--name', 'audited'])).lastJson();
    const [{ id: keyId } = { id: '' }] = await db.sql<{ id: string }[]>`
      select id::text from api_keys where name = 'audited'`;
    const rotated = (await cli(['keys', 'rotate', keyId, '--overlap-hours', '0'])).lastJson();
    await cli(['keys', 'revoke', keyId]);
    const op = (
      await cli(['operators', 'create', '--login', 'cli.made', '--role', 'viewer'])
    ).lastJson();
    const reset = (await cli(['operators', 'reset-password', 'cli.made'])).lastJson();
    await cli(['operators', 'reset-mfa', 'cli.made']);
    await cli(['operators', 'disable', 'cli.made']);
    const uid = '55555555-5555-4555-8555-555555555555';
    await cli([
      'vasps',
      'add',
      '--uid',
      uid,
      '--name',
      'Echo',
      '--website',
      'https://echo.example',
    ]);
    const newUrl = (await cli(['vasps', 'rotate-token', uid])).lastLine();
    await cli(['vasps', 'remove', uid]);
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-audit-'));
    writeFileSync(
      join(dir, 'vasps.json'),
      JSON.stringify([{ uid, name: 'Echo again', website: 'https://echo.example' }]),
    );
    await cli(['vasps', 'import', join(dir, 'vasps.json')]);
    writeFileSync(
      join(dir, 'labels.csv'),
      'address,network,category,name,source\n0x00000000000000000000000000000000000000aa,evm,mixer,Mix,intel\n',
    );
    await cli(['labels', 'import', join(dir, 'labels.csv')]);
    const issued = (
      await cli(
        [
          'travel-address',
          '--key',
          'backend',
          '--network',
          'eth',
          '--address',
          '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        ],
        { TOLLGATE_DATA_KEY: DATA_KEY },
      )
    ).lastJson();

    const entries = await entriesAfter(before);
    // A credential change also ends the operator's sessions (its own entry).
    expect(entries.filter((e) => e.action === 'sessions_revoked').length).toBeGreaterThan(0);
    const changes = entries.filter((e) => e.action !== 'sessions_revoked');
    expect(changes.map((e) => [e.action, e.target])).toEqual([
      ['apikey_create', keyId],
      ['apikey_rotate', keyId],
      ['apikey_revoke', keyId],
      ['operator_create', 'cli.made'],
      ['operator_reset_password', 'cli.made'],
      ['mfa_reset', 'cli.made'],
      ['operator_disable', 'cli.made'],
      ['vasp_create', uid],
      ['vasp_rotate_token', uid],
      ['vasp_remove', uid],
      ['vasp_import', 'vasps.json'],
      ['labels_import', expect.any(String)],
      ['travel_address_issue', issued.travel_address],
    ]);
    for (const e of entries) {
      expect(e.actor, e.action).toBe('cli');
      expect(e.client_address, e.action).toBeNull();
    }
    expect(entries.find((e) => e.action === 'labels_import')!.details).toMatchObject({
      file: 'labels.csv',
      inserted: 1,
    });
    // No secret the commands printed is in the log.
    const text = await logText();
    const token = new URL(newUrl).pathname.split('/').pop()!;
    for (const secret of [
      created.apikey,
      created.webhook_secret,
      rotated.apikey,
      op.password,
      reset.password,
      token,
    ]) {
      expect(typeof secret).toBe('string');
      expect(secret.length).toBeGreaterThan(10);
      expect(text).not.toContain(secret);
    }
    expect((await verifyAuditChain(db.sql)).intact).toBe(true);
  }, 120_000);
});

describe('reads of personal data, with the client address', () => {
  it('a view-link opening: the reference and the client, never the token', async () => {
    const { id, ref } = await incoming();
    const keyring = loadKeyring({ dataKey: DATA_KEY, dataKeysOld: [], dataDir: tmpdir() });
    const token = createViewToken(keyring, id, new Date(Date.now() + 3_600_000));
    const path = `/v2/travelrule/transaction/${id}?q=${encodeURIComponent(token)}`;
    const before = await lastId();
    // Directly: the peer; a forged X-Forwarded-For from an untrusted peer is not believed.
    const d = await call(direct.baseUrl, 'GET', path, {
      headers: { 'x-forwarded-for': '10.9.9.9' },
    });
    expect(d.status).toBe(200);
    // Behind the configured proxy: the client it names.
    const p = await call(proxiedUrl(), 'GET', path, {
      headers: { 'x-forwarded-for': FORWARDED_CLIENT, 'x-forwarded-proto': 'https' },
    });
    expect(p.status).toBe(200);
    // A bad token reads nothing and writes nothing.
    const bad = await call(direct.baseUrl, 'GET', `/v2/travelrule/transaction/${id}?q=1.2.3`);
    expect(bad.status).toBe(403);
    const entries = await entriesAfter(before);
    expect(entries.map((e) => [e.actor, e.action, e.target, e.details, e.client_address])).toEqual([
      ['view_link', 'travelrule_view_link', id, { transaction_ref: ref }, '127.0.0.1'],
      ['view_link', 'travelrule_view_link', id, { transaction_ref: ref }, FORWARDED_CLIENT],
    ]);
    expect(await logText()).not.toContain(token.split('.').pop()!);
  });

  it('the dashboard transaction page, directly and behind the proxy', async () => {
    const { id } = await incoming();
    const before = await lastId();
    const viewer = await login(new Client(direct.baseUrl), 'viewer.at');
    expect((await viewer.get(`/dashboard/travelrule/${id}`)).status).toBe(200);
    const behind = await login(viaProxy(), 'viewer.at');
    expect((await behind.get(`/dashboard/travelrule/${id}`)).status).toBe(200);
    const entries = await entriesAfter(before);
    expect(entries.map((e) => [e.actor, e.action, e.client_address])).toEqual([
      ['viewer.at', 'login', '127.0.0.1'],
      ['viewer.at', 'travelrule_view', '127.0.0.1'],
      ['viewer.at', 'login', FORWARDED_CLIENT],
      ['viewer.at', 'travelrule_view', FORWARDED_CLIENT],
    ]);
    expect(entries[1]!.target).toBe(id);
  });
});

describe('the operator API', () => {
  it('audits a read of personal data with the client address, directly and behind the proxy', async () => {
    const { id } = await incoming();
    const basic = {
      authorization: `Basic ${Buffer.from(`viewer.at:${PASSWORD}`).toString('base64')}`,
    };
    const before = await lastId();
    const d = await call(direct.baseUrl, 'GET', `/ops/travelrule/transactions/${id}`, {
      headers: basic,
    });
    expect(d.status).toBe(200);
    const p = await call(proxiedUrl(), 'GET', `/ops/travelrule/transactions/${id}`, {
      headers: { ...basic, 'x-forwarded-for': FORWARDED_CLIENT, 'x-forwarded-proto': 'https' },
    });
    expect(p.status).toBe(200);
    const entries = (await entriesAfter(before)).filter((e) => e.action === 'travelrule_view');
    expect(entries.map((e) => [e.actor, e.target, e.client_address])).toEqual([
      ['viewer.at', id, '127.0.0.1'],
      ['viewer.at', id, FORWARDED_CLIENT],
    ]);
  });
});

describe('the audit page', () => {
  let rejected: { id: string; ref: string };

  beforeAll(async () => {
    rejected = await incoming();
    const reviewer = await login(new Client(direct.baseUrl), 'reviewer.at');
    const page = await reviewer.get(`/dashboard/travelrule/${rejected.id}`);
    const done = await reviewer.post(`/dashboard/travelrule/${rejected.id}/reject`, {
      _csrf: csrfOf(page.text),
      reason: FORMULA_REASON,
    });
    expect(done.status).toBe(303);
  });

  it('shows references with a link, the reason and the client address; filters', async () => {
    const admin = await login(new Client(direct.baseUrl), 'admin.at');
    const page = await admin.get(`/dashboard/audit?target=${encodeURIComponent(rejected.ref)}`);
    expect(page.status).toBe(200);
    const rows = page.text.match(/<tr data-id="[^"]*">[\s\S]*?<\/tr>/g) ?? [];
    // The reference finds the view and the rejection of that transaction, nothing else.
    expect(rows.length).toBe(2);
    const reject = rows.find((r) => r.includes('travelrule_reject'))!;
    expect(reject).toContain(
      `<a href="/dashboard/travelrule/${rejected.id}" title="${rejected.id}"><bdi>${rejected.ref}</bdi></a>`,
    );
    expect(reject).toContain('=HYPERLINK(&quot;https://evil.example&quot;,&quot;click&quot;)');
    expect(reject).toContain('<code>127.0.0.1</code>');
    // The bare id finds the same entries.
    const byId = await admin.get(`/dashboard/audit?target=${rejected.id}`);
    expect(byId.text.match(/<tr data-id=/g)?.length).toBe(2);
    // Action and actor filters.
    const onlyReject = await admin.get(
      `/dashboard/audit?action=travelrule_reject&actor=reviewer.at&target=${rejected.id}`,
    );
    expect(onlyReject.text.match(/<tr data-id=/g)?.length).toBe(1);
    const otherActor = await admin.get(`/dashboard/audit?actor=viewer.at&target=${rejected.id}`);
    expect(otherActor.text).not.toContain('<tr data-id=');
    // Dates: today holds them, tomorrow nothing, yesterday-only nothing.
    const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
    const today = await admin.get(
      `/dashboard/audit?from=${day(0)}&to=${day(0)}&target=${rejected.id}`,
    );
    expect(today.text.match(/<tr data-id=/g)?.length).toBe(2);
    const tomorrow = await admin.get(`/dashboard/audit?from=${day(1)}&target=${rejected.id}`);
    expect(tomorrow.text).not.toContain('<tr data-id=');
    const yesterday = await admin.get(`/dashboard/audit?to=${day(-1)}&target=${rejected.id}`);
    expect(yesterday.text).not.toContain('<tr data-id=');
    // A day that is no date is said, not dropped in silence (the whole log was shown, or
    // exported, as if no range had been asked; found by an outside probe).
    for (const q of ['from=2026-13-45', 'to=2026-02-30', 'from=notadate']) {
      const bad = await admin.get(`/dashboard/audit?${q}`);
      expect(bad.status, q).toBe(400);
      expect(bad.text).toMatch(
        /role="alert">(From|To): must be a date \(YYYY-MM-DD\)\. Showing every entry\./,
      );
    }
    const exports = async () =>
      (await db.sql`select 1 from audit_log where action = 'audit_export'`).length;
    const exportsBefore = await exports();
    const badExport = await admin.get('/dashboard/audit/export?from=2026-13-45');
    expect(badExport.status).toBe(400);
    expect(badExport.text).toContain('Nothing exported');
    expect(await exports()).toBe(exportsBefore);
    // The chain, for admins.
    const [head] = await db.sql<{ id: string; hash: string }[]>`
      select id::text, hash from audit_log order by id desc limit 1`;
    expect(page.text).toContain(`<code>#${head!.id} ${head!.hash}</code>`);
    expect(page.text).toContain('id="audit-verify-link"');
    expect(page.text).not.toContain('id="audit-verify"');
    const verified = await admin.get('/dashboard/audit?verify=1');
    expect(verified.text).toContain('<strong class="ok">Intact</strong>');
    const viewer = await login(new Client(direct.baseUrl), 'viewer.at');
    const viewerPage = await viewer.get('/dashboard/audit?verify=1');
    expect(viewerPage.status).toBe(200);
    expect(viewerPage.text).not.toContain('id="audit-chain"');
  });

  it('exports the filtered entries as CSV, injection-safe, and audits the export', async () => {
    const admin = await login(viaProxy(), 'admin.at');
    const before = await lastId();
    const csv = await admin.get(
      `/dashboard/audit/export?target=${encodeURIComponent(rejected.ref)}`,
    );
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="tollgate-audit-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,at,actor,action,target,transaction_ref,reason,client_address,details',
    );
    expect(lines.length).toBe(3);
    const reject = lines.find((l) => l.includes('travelrule_reject'))!;
    expect(reject).toContain(`,${rejected.id},${rejected.ref},`);
    // The formula is quoted as text: a cell never starts with = + - @.
    expect(reject).toContain(`"'=HYPERLINK(""https://evil.example"",""click"")"`);
    for (const line of lines)
      for (const cell of line.split(',')) expect(cell).not.toMatch(/^"?[=+\-@]/);
    const entries = await entriesAfter(before);
    expect(entries.map((e) => [e.actor, e.action, e.client_address])).toEqual([
      ['admin.at', 'audit_export', FORWARDED_CLIENT],
    ]);
    expect(entries[0]!.details).toMatchObject({ entries: 2, target: rejected.ref });
  });

  it('the chain stays intact through all of it; an edited client address is found', async () => {
    const report = await verifyAuditChain(db.sql);
    expect(report).toMatchObject({ intact: true, problems: [] });
    const [entry] = await db.sql<{ id: string }[]>`
      select id::text from audit_log where client_address = ${FORWARDED_CLIENT} order by id limit 1`;
    await db.sql`update audit_log set client_address = '198.51.100.77' where id = ${entry!.id}`;
    const broken = await verifyAuditChain(db.sql);
    expect(broken.problems).toEqual([{ id: entry!.id, problem: 'edited' }]);
    const admin = await login(new Client(direct.baseUrl), 'admin.at');
    const page = await admin.get('/dashboard/audit?verify=1');
    expect(page.text).toContain('<strong class="error">Broken</strong>');
    expect(page.text).toContain(`Entry #${entry!.id}: edited`);
  });
});
