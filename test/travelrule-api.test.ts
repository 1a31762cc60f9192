import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { createOperator } from '../src/operators/operators.js';
import { upsertVasp } from '../src/travelrule/vasps.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { startTestAppliance } from './helpers/appliance.js';
import { MailCatcher, REFUSED_DOMAIN } from './helpers/mail.js';
import { Receiver } from './helpers/receiver.js';
import { expectWebhookContract } from './helpers/webhook-contract.js';
import { BENEFICIARY_ADDRESS, PERSONAL_VALUES, travelBody } from './helpers/travelrule.js';
import { eventually } from './helpers/eventually.js';

/**
 * The /v2/travelrule endpoints, the operator API and the e-mail fallback, against the real
 * appliance (API and worker), a real Postgres, a real SMTP server and a real webhook receiver.
 */

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let key: { id: string; apikey: string; webhook_secret: string };
let otherKey: { id: string; apikey: string };
const mail = new MailCatcher();
const smtpDomain = 'acme-vasp.example';
const hooks = new Receiver();
const EMAIL_VASP = '6f1c1f0e-7a41-4c55-9d7e-2b7f4f0f0a01';
const TRP_VASP = '6f1c1f0e-7a41-4c55-9d7e-2b7f4f0f0a02';

const basic = (login: string, password: string) => ({
  authorization: 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64'),
});
let reviewer: Record<string, string>;
let viewer: Record<string, string>;

const api = (method: string, path: string, body?: object, apikey = key.apikey) =>
  call(app.baseUrl, method, `/v2${path}`, { headers: { apikey }, ...(body ? { body } : {}) });

/** The view link in an e-mail's text. */
function viewLink(text: string): string {
  return /https:\/\/\S+\/v2\/travelrule\/transaction\/[0-9a-f-]{36}\?q=[^\s"<]+/.exec(text)![0];
}

async function transactionId(ref: string, apiKeyId = key.id): Promise<string> {
  const [row] = await db.sql<
    { id: string }[]
  >`select id from travelrule_transactions where transaction_ref = ${ref} and api_key_id = ${apiKeyId}`;
  return row!.id;
}

beforeAll(async () => {
  db = await freshDatabase();
  await mail.start();
  await hooks.start();
  key = await createApiKey(db.sql, 'backend');
  otherKey = await createApiKey(db.sql, 'other');
  const r = await createOperator(db.sql, 'rita.reviewer', 'reviewer');
  const v = await createOperator(db.sql, 'victor.viewer', 'viewer');
  reviewer = basic(r.login, r.password);
  viewer = basic(v.login, v.password);
  await upsertVasp(
    db.sql,
    {
      uid: EMAIL_VASP,
      name: 'Mail Only Exchange',
      website: 'https://mail-only.example',
      email: 'compliance@mail-only.example',
    },
    'cli',
  );
  await upsertVasp(
    db.sql,
    {
      uid: TRP_VASP,
      name: 'Protocol Exchange',
      website: 'https://protocol.example',
      trp_endpoint: 'https://protocol.example/trp',
    },
    'cli',
  );
  app = await startTestAppliance(
    db.url,
    {
      TOLLGATE_SMTP_URL: mail.url,
      TOLLGATE_SMTP_FROM: `Acme Travel Rule <travelrule@${smtpDomain}>`,
      TOLLGATE_TRAVEL_RULE_VASP_NAME: 'Test Sender VASP',
    },
    { api: true, worker: true, indexer: false, devChain: false },
  );
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await mail.stop();
  await hooks.stop();
  await db?.drop();
});

describe('create_tx', () => {
  it('validates, screens both parties, stores encrypted and answers PENDING', async () => {
    const res = await api('POST', '/travelrule/create_tx', travelBody('wd-1'));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ code: 0, message: 'OK', data: 'PENDING' });
    const id = await transactionId('wd-1');
    const [row] = await db.sql<any[]>`select * from travelrule_transactions where id = ${id}`;
    expect(row.status).toBe('PENDING');
    expect(row.direction).toBe('outgoing');
    expect(row.originator_score).toBeTypeOf('number');
    expect(row.screening.originator).toBeDefined();
    expect(row.screening.beneficiary).toBeDefined();
    const stored =
      Buffer.concat([row.ivms101_ciphertext, row.ivms101_nonce]).toString('latin1') +
      JSON.stringify(row);
    for (const value of PERSONAL_VALUES) expect(stored).not.toContain(value);
    const history = await db.sql<
      { from_status: string | null; to_status: string; actor_type: string }[]
    >`
      select from_status, to_status, actor_type from travelrule_history where transaction_id = ${id} order by id`;
    expect(history.map((h) => h.to_status)).toEqual(['CREATED', 'SCORE', 'PENDING']);
    expect(history[0]).toMatchObject({ from_status: null, actor_type: 'api_key' });
  });

  it('screens a sanctioned originator address: the record carries the tag and a high score', async () => {
    const sanctioned = '0x01e2919679362dFBC9ee1644Ba9C6da6D6245BB1';
    const body = travelBody('wd-sanctioned');
    body.originator.accountNumber = [sanctioned];
    expect((await api('POST', '/travelrule/create_tx', body)).json.data).toBe('PENDING');
    const [row] = await db.sql<
      any[]
    >`select originator_score, beneficiary_score, screening from travelrule_transactions where transaction_ref = 'wd-sanctioned'`;
    expect(row.screening.originator.tags.sanctioned).toBe(true);
    expect(row.originator_score).toBe(100);
    expect(row.screening.beneficiary.tags.sanctioned).toBeUndefined();
  });

  it('a duplicate transaction_ref for the same key is a clear 400; another key may use it', async () => {
    const res = await api('POST', '/travelrule/create_tx', travelBody('wd-1'));
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      code: 5000,
      message: expect.stringMatching(/^transaction_ref: .*already has/),
    });
    expect(
      (await api('POST', '/travelrule/create_tx', travelBody('wd-1'), otherKey.apikey)).json.data,
    ).toBe('PENDING');
  });

  it('refuses invalid IVMS101 with the failing path and never the value', async () => {
    const body = travelBody('wd-bad');
    body.originator.persons[0].naturalPerson.dateAndPlaceOfBirth.dateOfBirth = '2999-01-01';
    const res = await api('POST', '/travelrule/create_tx', body);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe(5000);
    expect(res.json.message).toMatch(
      /^originator\.persons\[0\]\.naturalPerson\.dateAndPlaceOfBirth\.dateOfBirth: /,
    );
    expect(res.text).not.toContain('2999-01-01');
    const badAccount = travelBody('wd-bad2');
    badAccount.beneficiary.accountNumber = ['0xnot-an-address'];
    const res2 = await api('POST', '/travelrule/create_tx', badAccount);
    expect(res2.json).toMatchObject({
      code: 5002,
      message: expect.stringMatching(/^beneficiary\.accountNumber\[0\]/),
    });
    expect(
      await db.sql`select 1 from travelrule_transactions where transaction_ref in ('wd-bad', 'wd-bad2')`,
    ).toHaveLength(0);
  });

  it('an unknown beneficiary_vasp_id is refused; a known one is stored', async () => {
    const res = await api(
      'POST',
      '/travelrule/create_tx',
      travelBody('wd-vasp', { beneficiary_vasp_id: '00000000-0000-4000-8000-000000000000' }),
    );
    expect(res.json).toMatchObject({
      code: 5000,
      message: expect.stringMatching(/^beneficiary_vasp_id: no VASP/),
    });
    expect(
      (
        await api(
          'POST',
          '/travelrule/create_tx',
          travelBody('wd-vasp', { beneficiary_vasp_id: EMAIL_VASP }),
        )
      ).json.data,
    ).toBe('PENDING');
    const [row] =
      await db.sql`select beneficiary_vasp_id, counterparty_vasp_id from travelrule_transactions where transaction_ref = 'wd-vasp'`;
    expect(row).toEqual({ beneficiary_vasp_id: EMAIL_VASP, counterparty_vasp_id: EMAIL_VASP });
  });

  it('notes the threshold of each configured jurisdiction without enforcing it', async () => {
    const other = await startTestAppliance(
      db.url,
      {
        TOLLGATE_CONFIG: await thresholdConfig(),
      },
      { api: true, worker: false, indexer: false, devChain: false },
    );
    try {
      const res = await call(other.baseUrl, 'POST', '/v2/travelrule/create_tx', {
        headers: { apikey: key.apikey },
        body: travelBody('wd-threshold'),
      });
      expect(res.json.data).toBe('PENDING');
      const [row] = await db.sql<
        any[]
      >`select threshold from travelrule_transactions where transaction_ref = 'wd-threshold'`;
      expect(row.threshold).toEqual([
        {
          jurisdiction: 'TR',
          currency: 'TRY',
          threshold: '15000',
          result: 'above',
          value: '150000',
          rate: '120000',
        },
        { jurisdiction: 'DE', currency: 'EUR', threshold: '1000', result: 'unknown' },
      ]);
    } finally {
      await other.stop();
    }
  });
});

async function thresholdConfig(): Promise<string> {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const file = join(mkdtempSync(join(tmpdir(), 'tollgate-cfg-')), 'config.json');
  writeFileSync(
    file,
    JSON.stringify({
      travel_rule: {
        thresholds: [
          { jurisdiction: 'tr', currency: 'TRY', amount: '15000', rates: { ETH: '120000' } },
          { jurisdiction: 'DE', currency: 'EUR', amount: '1000' },
        ],
      },
    }),
  );
  return file;
}

describe('list_vasps, receive_tx_without_protocol, the webhook registration', () => {
  it('list_vasps pages the directory by name', async () => {
    const res = await api('GET', '/travelrule/list_vasps?page=1&limit=1');
    expect(res.json).toEqual({
      code: 0,
      message: 'OK',
      data: [
        {
          uid: EMAIL_VASP,
          name: 'Mail Only Exchange',
          legal_name: null,
          country: null,
          website: 'https://mail-only.example',
        },
      ],
      page_count: 2,
    });
    expect((await api('GET', '/travelrule/list_vasps')).json.data.map((v: any) => v.name)).toEqual([
      'Mail Only Exchange',
      'Protocol Exchange',
    ]);
    expect((await api('GET', '/travelrule/list_vasps?limit=101')).status).toBe(400);
  });

  it('receive_tx_without_protocol stores an APPROVED, screened deposit', async () => {
    const body = travelBody('dep-1', {
      transaction_hash: '0x' + 'ab'.repeat(32),
      created_at: '2026-11-20T10:00:00Z',
    });
    const res = await api('POST', '/travelrule/receive_tx_without_protocol', body);
    expect(res.json).toEqual({ code: 0, message: 'OK', data: 'APPROVED' });
    const [row] = await db.sql<
      any[]
    >`select status, direction, tx_hash, screening from travelrule_transactions where transaction_ref = 'dep-1'`;
    expect(row).toMatchObject({
      status: 'APPROVED',
      direction: 'incoming',
      tx_hash: '0x' + 'ab'.repeat(32),
    });
    expect(row.screening.originator).toBeDefined();
    const bad = await api(
      'POST',
      '/travelrule/receive_tx_without_protocol',
      travelBody('dep-2', { created_at: '2026-11-20T10:00:00Z' }),
    );
    expect(bad.json).toMatchObject({
      code: 5000,
      message: expect.stringMatching(/^transaction_hash: /),
    });
  });

  it('registers, shows and removes the travel rule webhook; a bad URL gets 5004', async () => {
    expect((await api('GET', '/travelrule/webhook')).json.data).toEqual({
      url: null,
      source: null,
    });
    expect((await api('POST', '/travelrule/webhook', { url: 'ftp://x' })).json.code).toBe(5004);
    expect((await api('POST', '/travelrule/webhook', { url: hooks.url })).json).toEqual({
      code: 0,
      message: 'OK',
      data: null,
    });
    expect((await api('GET', '/travelrule/webhook')).json.data).toEqual({
      url: hooks.url,
      source: 'key',
    });
    expect((await api('DELETE', '/travelrule/webhook')).json.code).toBe(0);
    expect((await api('DELETE', '/travelrule/webhook')).json.code).toBe(5003);
    await api('POST', '/travelrule/webhook', { url: hooks.url });
  });
});

describe('the operator API', () => {
  it('needs operator credentials (not an API key); a viewer reads, only a reviewer decides', async () => {
    const id = await transactionId('wd-1');
    const none = await call(app.baseUrl, 'GET', '/ops/travelrule/pending');
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Basic /);
    expect(
      (
        await call(app.baseUrl, 'GET', '/ops/travelrule/pending', {
          headers: { apikey: key.apikey },
        })
      ).status,
    ).toBe(401);
    const pending = await call(app.baseUrl, 'GET', '/ops/travelrule/pending', { headers: viewer });
    expect(pending.status).toBe(200);
    expect(pending.json.data.map((t: any) => t.transaction_ref)).toContain('wd-1');
    expect(JSON.stringify(pending.json)).not.toContain('Quennellworth');
    const denied = await call(app.baseUrl, 'POST', `/ops/travelrule/transactions/${id}/reject`, {
      headers: viewer,
      body: { reason: 'x' },
    });
    expect(denied.status).toBe(403);
    // What a page of another site can make a browser send, with the reviewer's Basic credentials
    // the browser kept after the 401 challenge: a form (text/plain holds JSON), or a request the
    // browser marks as another origin's. Each is refused, and nothing is decided.
    const forged = [
      { headers: { ...reviewer, 'content-type': 'text/plain' }, status: 415 },
      { headers: { ...reviewer, origin: 'https://attacker.example' }, status: 403 },
      { headers: { ...reviewer, 'sec-fetch-site': 'cross-site' }, status: 403 },
      { headers: { ...reviewer, origin: 'null' }, status: 403 },
      // This host, but over plain HTTP: another origin.
      { headers: { ...reviewer, origin: `http://${new URL(app.baseUrl).host}` }, status: 403 },
    ];
    for (const f of forged) {
      const res = await call(app.baseUrl, 'POST', `/ops/travelrule/transactions/${id}/reject`, {
        headers: f.headers,
        body: '{"reason":"forged"}',
      });
      expect(res.status, JSON.stringify(f.headers)).toBe(f.status);
      expect(res.json.code).toBe(f.status === 415 ? 5000 : 4030);
    }
    const detail = await call(app.baseUrl, 'GET', `/ops/travelrule/transactions/${id}`, {
      headers: viewer,
    });
    expect(
      detail.json.data.ivms101.originator.persons[0].naturalPerson.name.nameIdentifier[0]
        .primaryIdentifier,
    ).toBe('Quennellworth');
    expect(detail.json.data.history.map((h: any) => h.to_status)).toEqual([
      'CREATED',
      'SCORE',
      'PENDING',
    ]);
    expect(JSON.stringify(detail.json)).not.toMatch(/callback_token/);
    // The parties in clear: no cache may keep the answer; nor the queue, nor a refusal.
    expect(detail.headers['cache-control']).toBe('no-store');
    expect(pending.headers['cache-control']).toBe('no-store');
    expect(denied.headers['cache-control']).toBe('no-store');
  });

  it('a reject needs a reason, is recorded with the operator, and a second decision is refused (409)', async () => {
    const id = await transactionId('wd-sanctioned');
    const noReason = await call(app.baseUrl, 'POST', `/ops/travelrule/transactions/${id}/reject`, {
      headers: reviewer,
      body: { reason: '  ' },
    });
    expect(noReason.status).toBe(400);
    expect(noReason.json.message).toMatch(/reason/);
    // A reason of the wrong type, or a body that is not an object, is named as such.
    for (const [body, message] of [
      [{ reason: 1 }, 'reason: expected a string, not a number'],
      [{}, 'reason: is required'],
      ['[]', 'the body must be a JSON object'],
      ['null', 'the body must be a JSON object'],
    ] as const) {
      const refused = await call(app.baseUrl, 'POST', `/ops/travelrule/transactions/${id}/reject`, {
        headers: reviewer,
        body,
      });
      expect(refused.status).toBe(400);
      expect(refused.json).toMatchObject({ code: 5000, message });
    }
    const badEmail = await call(app.baseUrl, 'POST', `/ops/travelrule/transactions/${id}/accept`, {
      headers: reviewer,
      body: { email: 1 },
    });
    expect(badEmail.status).toBe(400);
    expect(badEmail.json).toMatchObject({
      code: 5000,
      message: 'email: expected a string, not a number',
    });
    const done = await call(app.baseUrl, 'POST', `/ops/travelrule/transactions/${id}/reject`, {
      headers: reviewer,
      body: { reason: 'sanctioned originator address' },
    });
    expect(done.json).toEqual({ code: 0, message: 'OK', data: { status: 'REJECTED' } });
    const [h] =
      await db.sql`select from_status, to_status, actor_type, actor_id, reason from travelrule_history where transaction_id = ${id} order by id desc limit 1`;
    expect(h).toEqual({
      from_status: 'PENDING',
      to_status: 'REJECTED',
      actor_type: 'operator',
      actor_id: 'rita.reviewer',
      reason: 'sanctioned originator address',
    });
    const again = await call(app.baseUrl, 'POST', `/ops/travelrule/transactions/${id}/accept`, {
      headers: reviewer,
      body: {},
    });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ code: 4090, message: expect.stringMatching(/REJECTED/) });
    expect(
      (
        await call(
          app.baseUrl,
          'POST',
          '/ops/travelrule/transactions/00000000-0000-4000-8000-000000000000/accept',
          { headers: reviewer, body: {} },
        )
      ).status,
    ).toBe(404);
  });

  it('send_tx_hash and send_address are refused before their status, with the status named', async () => {
    const early = await api('POST', '/travelrule/send_tx_hash', {
      transaction_ref: 'wd-1',
      transaction_hash: '0x' + '11'.repeat(32),
    });
    expect(early.json).toMatchObject({
      code: 5000,
      message: expect.stringMatching(/is PENDING; send_tx_hash/),
    });
    expect(
      (
        await api('POST', '/travelrule/send_tx_hash', {
          transaction_ref: 'nope',
          transaction_hash: '0x' + '11'.repeat(32),
        })
      ).json.code,
    ).toBe(5003);
    expect(
      (
        await api('POST', '/travelrule/send_address', {
          transaction_ref: 'wd-1',
          address: BENEFICIARY_ADDRESS,
        })
      ).json.message,
    ).toMatch(/deposits/);
  });
});

describe('what a backend reads and checks (additions to the spec)', () => {
  it('check_tx runs every create_tx check and the screening, and stores nothing', async () => {
    const before = await db.sql`select count(*)::int as n from travelrule_transactions`;
    const jobs = await db.sql`select count(*)::int as n from graphile_worker.jobs`;
    const body = travelBody('chk-1');
    body.originator.accountNumber = ['0x01e2919679362dFBC9ee1644Ba9C6da6D6245BB1'];
    const ok = await api('POST', '/travelrule/check_tx', body);
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({
      code: 0,
      message: 'OK',
      data: {
        valid: true,
        network: 'eth',
        screening: { originator: { score: 100, tags: { sanctioned: true } } },
      },
    });
    expect(ok.json.data.threshold).toBeInstanceOf(Array);
    for (const value of PERSONAL_VALUES) expect(JSON.stringify(ok.json)).not.toContain(value);
    // The same failures as create_tx: a bad field, a reference already used.
    const bad = travelBody('chk-2');
    bad.beneficiary.accountNumber = ['not-an-address'];
    expect((await api('POST', '/travelrule/check_tx', bad)).json.code).toBe(5002);
    const taken = await api('POST', '/travelrule/check_tx', travelBody('wd-1'));
    expect(taken.json).toMatchObject({ code: 5000, message: /already has/ });
    expect(await db.sql`select count(*)::int as n from travelrule_transactions`).toEqual(before);
    expect(await db.sql`select count(*)::int as n from graphile_worker.jobs`).toEqual(jobs);
    // And create_tx then takes the body.
    expect((await api('POST', '/travelrule/create_tx', body)).json.data).toBe('PENDING');
  });

  it('tx_status tells the backend where its transaction stands, without personal data or operator reasons', async () => {
    const ref = 'st-1';
    expect((await api('POST', '/travelrule/create_tx', travelBody(ref))).json.data).toBe('PENDING');
    const id = await transactionId(ref);
    await call(app.baseUrl, 'POST', `/ops/travelrule/transactions/${id}/reject`, {
      headers: reviewer,
      body: { reason: 'customer under investigation 4471' },
    });
    const res = await api('GET', `/travelrule/tx_status?transaction_ref=${ref}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      code: 0,
      message: 'OK',
      data: {
        transaction_ref: ref,
        direction: 'outgoing',
        status: 'REJECTED',
        asset: 'ETH',
        network: 'eth',
        amount: '1.25',
        tx_hash: null,
        counterparty_reason: null,
        messages: [],
      },
    });
    expect(res.json.data.history.map((h: any) => [h.status, h.actor_type])).toEqual([
      ['CREATED', 'api_key'],
      ['SCORE', 'system'],
      ['PENDING', 'system'],
      ['REJECTED', 'operator'],
    ]);
    const text = JSON.stringify(res.json);
    expect(text).not.toContain('4471');
    expect(text).not.toContain('rita.reviewer');
    for (const value of PERSONAL_VALUES) expect(text).not.toContain(value);
    // Another key's reference, or none: 5003.
    expect(
      (await api('GET', `/travelrule/tx_status?transaction_ref=${ref}`, undefined, otherKey.apikey))
        .json.code,
    ).toBe(5003);
    expect((await api('GET', '/travelrule/tx_status?transaction_ref=nope')).json.code).toBe(5003);
    expect((await api('GET', '/travelrule/tx_status')).json.code).toBe(5000);
  });

  it('takes the same transaction_ref length everywhere (255)', async () => {
    const ref = 'r'.repeat(255);
    expect((await api('POST', '/travelrule/create_tx', travelBody(ref))).json.data).toBe('PENDING');
    // send_tx_hash finds it (refused for its status, not for the reference's length).
    const early = await api('POST', '/travelrule/send_tx_hash', {
      transaction_ref: ref,
      transaction_hash: '0x' + '11'.repeat(32),
    });
    expect(early.json.message).toMatch(/is PENDING; send_tx_hash/);
    expect(
      (await api('GET', `/travelrule/tx_status?transaction_ref=${ref}`)).json.data.status,
    ).toBe('PENDING');
    const tooLong = await api('POST', '/travelrule/send_address', {
      transaction_ref: 'r'.repeat(256),
      address: BENEFICIARY_ADDRESS,
    });
    expect(tooLong.json).toMatchObject({ code: 5000, message: /transaction_ref/ });
  });
});

describe('the e-mail fallback, end to end', () => {
  it('accept → e-mail with the view link (no personal data in it) → the link shows the data; a bad token 403 → answer recorded → webhook → send_tx_hash → e-mail with the hash', async () => {
    const id = await transactionId('wd-vasp');
    const accepted = await call(app.baseUrl, 'POST', `/ops/travelrule/transactions/${id}/accept`, {
      headers: reviewer,
      body: {},
    });
    expect(accepted.json.data).toEqual({ status: 'OTHER_VASP_PENDING' });
    const [first] = await mail.waitFor(1);
    expect(first!.to).toEqual(['compliance@mail-only.example']);
    expect(first!.text).toContain('Test Sender VASP');
    for (const value of PERSONAL_VALUES) expect(first!.raw + first!.text).not.toContain(value);
    const link = viewLink(first!.text);
    const path = new URL(link).pathname + new URL(link).search;

    const page = await call(app.baseUrl, 'GET', path);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(page.text).toContain('Quennellworth');
    expect(page.text).toContain('Abernathy-Stroud');

    const tampered = path.replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A'));
    const forbidden = await call(app.baseUrl, 'GET', tampered);
    expect(forbidden.status).toBe(403);
    expect(forbidden.text).not.toContain('Quennellworth');
    expect((await call(app.baseUrl, 'GET', path.replace(/\?q=.*/, ''))).status).toBe(403);
    const otherId = await transactionId('wd-1');
    expect((await call(app.baseUrl, 'GET', path.replace(id, otherId))).status).toBe(403);

    // The beneficiary VASP answers outside the protocol; an operator records it.
    const answered = await call(app.baseUrl, 'POST', `/ops/travelrule/transactions/${id}/answer`, {
      headers: reviewer,
      body: { approved: true },
    });
    expect(answered.json.data).toEqual({ status: 'WAITING_TX_HASH' });
    const [hook] = await hooks.waitFor((all) =>
      all.some((r) => r.json?.status === 'OTHER_VASP_APPROVED'),
    );
    const approved = hooks.received.find((r) => r.json?.status === 'OTHER_VASP_APPROVED')!;
    expect(hook).toBeDefined();
    // Approved without an address: none to pay to but the one the backend knows, nothing compared.
    expect(approved.json).toEqual({
      transaction_ref: 'wd-vasp',
      status: 'OTHER_VASP_APPROVED',
      beneficiary_address: null,
      beneficiary_address_differs: null,
    });
    expect(
      (await api('GET', '/travelrule/tx_status?transaction_ref=wd-vasp')).json.data,
    ).toMatchObject({ beneficiary_address: null, beneficiary_address_differs: null });
    expectWebhookContract('travelRule', [approved.json]);
    new Webhook(key.webhook_secret).verify(
      approved.body,
      approved.headers as Record<string, string>,
    );

    const hash = '0x' + 'cd'.repeat(32);
    expect(
      (
        await api('POST', '/travelrule/send_tx_hash', {
          transaction_ref: 'wd-vasp',
          transaction_hash: '0x1234',
        })
      ).json.message,
    ).toMatch(/^transaction_hash: /);
    expect(
      (
        await api('POST', '/travelrule/send_tx_hash', {
          transaction_ref: 'wd-vasp',
          transaction_hash: hash,
        })
      ).json,
    ).toEqual({ code: 0, message: 'OK', data: null });
    const mails = await mail.waitFor(2);
    expect(mails[1]!.text).toContain(hash);
    for (const value of PERSONAL_VALUES)
      expect(mails[1]!.raw + mails[1]!.text).not.toContain(value);
    const settled = await eventually(
      async () => ({
        row: (
          await db.sql`select status, tx_hash from travelrule_transactions where id = ${id}`
        )[0],
        msgs: [
          ...(await db.sql`select kind, status from travelrule_messages where transaction_id = ${id} order by id`),
        ],
      }),
      (v) => v.msgs.every((m) => m.status === 'sent'),
    );
    expect(settled.row).toEqual({ status: 'COMPLETED', tx_hash: hash });
    expect(settled.msgs).toEqual([
      { kind: 'email_inquiry', status: 'sent' },
      { kind: 'email_tx_hash', status: 'sent' },
    ]);
    // Each e-mail's Message-ID names its message (the same on every attempt at it: a copy sent
    // after a relay's lost answer is recognisably the same message).
    const rows = await db.sql<{ id: string }[]>`
      select id::text from travelrule_messages where transaction_id = ${id} order by id`;
    expect(
      mails
        .slice(0, 2)
        .map((m) => /^message-id:\s*(\S+)/im.exec(m.raw.replace(/\r\n[ \t]+/g, ' '))?.[1]),
    ).toEqual(rows.map((r) => `<travelrule.${r.id}.${id}@${smtpDomain}>`));
  });

  it('accepting for a VASP outside the directory needs an e-mail address', async () => {
    await api('POST', '/travelrule/create_tx', travelBody('wd-unknown-vasp'));
    const id = await transactionId('wd-unknown-vasp');
    const refused = await call(app.baseUrl, 'POST', `/ops/travelrule/transactions/${id}/accept`, {
      headers: reviewer,
      body: {},
    });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toMatch(/^email: /);
    const ok = await call(app.baseUrl, 'POST', `/ops/travelrule/transactions/${id}/accept`, {
      headers: reviewer,
      body: { email: 'desk@unknown-vasp.example' },
    });
    expect(ok.json.data).toEqual({ status: 'OTHER_VASP_PENDING' });
    const mails = await mail.waitFor(3);
    expect(mails[2]!.to).toEqual(['desk@unknown-vasp.example']);
    // The audit trail says where the e-mail went.
    const [audit] = await db.sql`
      select details from audit_log where action = 'travelrule_accept' and target = ${id}`;
    expect(audit!.details).toEqual({
      status: 'OTHER_VASP_PENDING',
      via: 'api',
      email: 'desk@unknown-vasp.example',
    });
    // An answer in neither shape is refused saying which two there are.
    for (const wrong of [{ approved: 'yes' }, { approved: true, rejected: 'x' }, {}]) {
      const refusedAnswer = await call(
        app.baseUrl,
        'POST',
        `/ops/travelrule/transactions/${id}/answer`,
        { headers: reviewer, body: wrong },
      );
      expect(refusedAnswer.status).toBe(400);
      expect(refusedAnswer.json.message).toMatch(/"approved": true.*"rejected"/);
    }
    // An e-mail counterparty's rejection is recorded by an operator and reaches the caller.
    const rejected = await call(app.baseUrl, 'POST', `/ops/travelrule/transactions/${id}/answer`, {
      headers: reviewer,
      body: { rejected: 'unknown customer' },
    });
    expect(rejected.json.data).toEqual({ status: 'OTHER_VASP_REJECTED' });
    await hooks.waitFor((all) =>
      all.some(
        (r) =>
          r.json?.transaction_ref === 'wd-unknown-vasp' && r.json?.status === 'OTHER_VASP_REJECTED',
      ),
    );
    // Its link no longer shows the persons of a transfer that will not happen.
    const link = new URL(viewLink(mails[2]!.text));
    const gone = await call(app.baseUrl, 'GET', link.pathname + link.search);
    expect(gone.status).toBe(410);
    expect(gone.headers['cache-control']).toBe('no-store');
    expect(gone.text).toContain('wd-unknown-vasp');
    expect(gone.text).toContain('no longer shown');
    for (const value of PERSONAL_VALUES) expect(gone.text).not.toContain(value);
  });

  it('a transfer cancelled while its e-mailed VASP has the link: the link stops showing the persons', async () => {
    await api('POST', '/travelrule/create_tx', travelBody('wd-cancelled-link'));
    const id = await transactionId('wd-cancelled-link');
    const before = mail.mails.length;
    await call(app.baseUrl, 'POST', `/ops/travelrule/transactions/${id}/accept`, {
      headers: reviewer,
      body: { email: 'desk@cancel-vasp.example' },
    });
    const mails = await mail.waitFor(before + 1);
    const link = new URL(viewLink(mails[before]!.text));
    const path = link.pathname + link.search;
    const open = await call(app.baseUrl, 'GET', path);
    expect(open.status).toBe(200);
    expect(open.text).toContain('Quennellworth');
    const cancelled = await call(app.baseUrl, 'POST', `/ops/travelrule/transactions/${id}/cancel`, {
      headers: reviewer,
      body: { reason: 'customer withdrew the request' },
    });
    expect(cancelled.json.data).toEqual({ status: 'REJECTED' });
    const gone = await call(app.baseUrl, 'GET', path);
    expect(gone.status).toBe(410);
    for (const value of PERSONAL_VALUES) expect(gone.text).not.toContain(value);
    // Nor the operator's reason.
    expect(gone.text).not.toContain('withdrew');
    // The VASP is told by e-mail: the reference, no link, no personal data, never the reason.
    const told = (await mail.waitFor(before + 2))[before + 1]!;
    expect(told.to).toEqual(['desk@cancel-vasp.example']);
    expect(/^subject:\s*(.*)$/im.exec(told.raw.replace(/\r\n[ \t]+/g, ' '))?.[1]).toBe(
      'Travel rule transaction wd-cancelled-link cancelled by Test Sender VASP',
    );
    expect(told.text).toContain('wd-cancelled-link');
    expect(told.text).toContain('no longer shows');
    expect(told.text).not.toMatch(/https:\/\//);
    expect(told.text + told.raw).not.toContain('withdrew');
    for (const value of PERSONAL_VALUES) expect(told.raw + told.text).not.toContain(value);
    const messages = await eventually(
      () =>
        db.sql`select kind, status from travelrule_messages where transaction_id = ${id} order by id`,
      (rows) => rows.every((r) => r.status === 'sent'),
    );
    expect([...messages]).toEqual([
      { kind: 'email_inquiry', status: 'sent' },
      { kind: 'email_cancel', status: 'sent' },
    ]);
  });

  it('an e-mail the relay refuses for good ends the withdrawal OTHER_VASP_REJECTED, saying why; no answer can be recorded for it', async () => {
    await api('POST', '/travelrule/create_tx', travelBody('wd-mail-refused'));
    const id = await transactionId('wd-mail-refused');
    const accepted = await call(app.baseUrl, 'POST', `/ops/travelrule/transactions/${id}/accept`, {
      headers: reviewer,
      body: { email: `desk@${REFUSED_DOMAIN}` },
    });
    expect(accepted.json.data).toEqual({ status: 'OTHER_VASP_PENDING' });
    // The backend hears of it, as of an inquiry a TRP peer refused.
    await hooks.waitFor((all) =>
      all.some(
        (r) =>
          r.json?.transaction_ref === 'wd-mail-refused' && r.json?.status === 'OTHER_VASP_REJECTED',
      ),
    );
    const status = (await api('GET', '/travelrule/tx_status?transaction_ref=wd-mail-refused')).json
      .data;
    expect(status.status).toBe('OTHER_VASP_REJECTED');
    expect(status.counterparty_reason).toMatch(
      /^the e-mail did not reach the beneficiary VASP: SMTP send failed .*550/,
    );
    const [message] = await db.sql`
      select kind, status, attempts from travelrule_messages where transaction_id = ${id}`;
    expect(message).toEqual({ kind: 'email_inquiry', status: 'failed', attempts: 1 });
    // An answer recorded for a mail that never reached the VASP is refused, not taken as approval.
    const answered = await call(app.baseUrl, 'POST', `/ops/travelrule/transactions/${id}/answer`, {
      headers: reviewer,
      body: { approved: true },
    });
    expect(answered.status).toBe(409);
    expect(
      hooks.received.filter((r) => r.json?.transaction_ref === 'wd-mail-refused'),
    ).toHaveLength(1);
  });

  it('sent only bodies that keep the documented travelRule contract', () => {
    expectWebhookContract(
      'travelRule',
      hooks.received.map((r) => r.json),
    );
  });
});
