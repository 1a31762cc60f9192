import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTls } from '../src/api/tls.js';
import { createApiKey } from '../src/keys/keys.js';
import { createOperator } from '../src/operators/operators.js';
import { upsertVasp } from '../src/travelrule/vasps.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { call } from './helpers/http.js';
import { freePort } from '../support/ports.js';
import { Receiver } from './helpers/receiver.js';
import { BENEFICIARY_ADDRESS, ORIGINATOR_ADDRESS, travelBody } from './helpers/travelrule.js';

/**
 * Two Tollgates talk TRP v3.1 over real HTTPS: two databases, two ports, two workers, each with
 * the other in its directory and its certificate trusted. A withdrawal from A to B and a deposit
 * into A from B run end to end, with the operators deciding on both sides and each side's
 * backend receiving its signed travel rule webhooks.
 */

interface Side {
  name: string;
  uid: string;
  db: TestDatabase;
  app: Awaited<ReturnType<typeof startTestAppliance>>;
  key: { id: string; apikey: string; webhook_secret: string };
  reviewer: Record<string, string>;
  hooks: Receiver;
}

const A = { name: 'Alpha VASP', uid: '0a0a0a0a-0000-4000-8000-00000000000a' };
const B = { name: 'Bravo VASP', uid: '0b0b0b0b-0000-4000-8000-00000000000b' };
let a: Side;
let b: Side;

const token = () => randomBytes(32).toString('base64url');
const basic = (login: string, password: string) => ({
  authorization: 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64'),
});

async function side(
  info: { name: string; uid: string },
  port: number,
  dataDir: string,
  caFile: string,
  peer: { name: string; uid: string; endpoint: string; inboundToken: string },
): Promise<Side> {
  const db = await freshDatabase();
  const key = await createApiKey(db.sql, 'backend');
  const op = await createOperator(db.sql, 'compliance.lead', 'reviewer');
  await upsertVasp(
    db.sql,
    {
      uid: peer.uid,
      name: peer.name,
      website: `https://${peer.name.split(' ')[0]!.toLowerCase()}.example`,
      country: 'DE',
      trp_endpoint: peer.endpoint,
      inbound_token: peer.inboundToken,
    },
    'cli',
  );
  const app = await startTestAppliance(
    db.url,
    {
      TOLLGATE_PORT: String(port),
      TOLLGATE_DATA_DIR: dataDir,
      TOLLGATE_TRAVEL_RULE_PUBLIC_URL: `https://127.0.0.1:${port}`,
      TOLLGATE_TRAVEL_RULE_VASP_NAME: info.name,
      TOLLGATE_TRP_CA_FILE: caFile,
    },
    { api: true, worker: true, indexer: false, devChain: false },
  );
  const hooks = await new Receiver().start();
  const reg = await call(app.baseUrl, 'POST', '/v2/travelrule/webhook', {
    headers: { apikey: key.apikey },
    body: { url: hooks.url },
  });
  expect(reg.json.code).toBe(0);
  return { ...info, db, app, key, reviewer: basic(op.login, op.password), hooks };
}

beforeAll(async () => {
  const [portA, portB] = [await freePort(), await freePort()];
  const dirA = mkdtempSync(join(tmpdir(), 'tollgate-a-'));
  const dirB = mkdtempSync(join(tmpdir(), 'tollgate-b-'));
  // Each side's self-signed certificate, made now so that the other can trust it.
  const caFile = join(mkdtempSync(join(tmpdir(), 'tollgate-ca-')), 'peers.pem');
  writeFileSync(
    caFile,
    [(await loadTls({ dataDir: dirA })).cert, (await loadTls({ dataDir: dirB })).cert]
      .map((p) => p.trim())
      .join('\n') + '\n',
  );
  // The inquiry URL each hands to the other: B's token at A, A's token at B.
  const bAtA = token();
  const aAtB = token();
  a = await side(A, portA, dirA, caFile, {
    ...B,
    endpoint: `https://127.0.0.1:${portB}/trp/v3/inquiries/${aAtB}`,
    inboundToken: bAtA,
  });
  b = await side(B, portB, dirB, caFile, {
    ...A,
    endpoint: `https://127.0.0.1:${portA}/trp/v3/inquiries/${bAtA}`,
    inboundToken: aAtB,
  });
}, 120_000);

afterAll(async () => {
  for (const s of [a, b]) {
    await s?.app.stop();
    await s?.hooks.stop();
    await s?.db.drop();
  }
});

const api = (s: Side, method: string, path: string, body?: object) =>
  call(s.app.baseUrl, method, `/v2${path}`, {
    headers: { apikey: s.key.apikey },
    ...(body ? { body } : {}),
  });
const ops = (s: Side, method: string, path: string, body?: object) =>
  call(s.app.baseUrl, method, `/ops${path}`, { headers: s.reviewer, ...(body ? { body } : {}) });

async function statusOf(s: Side, ref: string): Promise<string | undefined> {
  const [row] = await s.db.sql<
    { status: string }[]
  >`select status from travelrule_transactions where transaction_ref = ${ref}`;
  return row?.status;
}

async function waitStatus(s: Side, ref: string, status: string): Promise<void> {
  expect(
    await eventually(
      () => statusOf(s, ref),
      (v) => v === status,
      30_000,
    ),
  ).toBe(status);
}

/** The incoming transaction the originator's inquiry created at the beneficiary: PENDING, for its operators. */
async function incomingPending(s: Side): Promise<{ id: string; transaction_ref: string }> {
  const found = await eventually(
    async () => (await ops(s, 'GET', '/travelrule/pending?direction=incoming')).json.data as any[],
    (rows) => rows.length > 0,
    30_000,
  );
  expect(found).toHaveLength(1);
  return found[0];
}

function hookFor(s: Side, ref: string, status: string) {
  return s.hooks
    .waitFor((all) => all.some((r) => r.json?.transaction_ref === ref && r.json?.status === status))
    .then(() => {
      const got = s.hooks.received.find(
        (r) => r.json?.transaction_ref === ref && r.json?.status === status,
      )!;
      new Webhook(s.key.webhook_secret).verify(got.body, got.headers as Record<string, string>);
      return got.json;
    });
}

/** One transfer over TRP from `from` to `to`, both operators accepting; returns the beneficiary side's reference. */
async function transfer(from: Side, to: Side, ref: string, txid: string): Promise<string> {
  expect(
    (
      await api(
        from,
        'POST',
        '/travelrule/create_tx',
        travelBody(ref, { beneficiary_vasp_id: to.uid }),
      )
    ).json.data,
  ).toBe('PENDING');
  const [out] = await from.db.sql<
    { id: string }[]
  >`select id from travelrule_transactions where transaction_ref = ${ref}`;
  expect(
    (await ops(from, 'POST', `/travelrule/transactions/${out!.id}/accept`, {})).json.data,
  ).toEqual({ status: 'OTHER_VASP_PENDING' });

  // The beneficiary VASP: the inquiry is pending for its operators, with the data and its screening.
  const incoming = await incomingPending(to);
  const detail = (await ops(to, 'GET', `/travelrule/transactions/${incoming.id}`)).json.data;
  expect(detail).toMatchObject({
    direction: 'incoming',
    asset: 'ETH',
    network: 'eth',
    amount: '1.25',
    counterparty_vasp_id: from.uid,
    counterparty_protocol: 'trp',
  });
  expect(detail.screening.originator).toBeDefined();
  expect(
    detail.ivms101.originator.persons[0].naturalPerson.name.nameIdentifier[0].primaryIdentifier,
  ).toBe('Quennellworth');
  expect(detail.ivms101.originator.accountNumber).toEqual([ORIGINATOR_ADDRESS.toLowerCase()]);
  expect(
    (await ops(to, 'POST', `/travelrule/transactions/${incoming.id}/accept`, {})).json.data,
  ).toEqual({ status: 'WAITING_ADDRESS_DATA' });

  // Its backend is asked for the deposit address, with the beneficiary's persons and accounts.
  const ask = await hookFor(to, incoming.transaction_ref, 'WAITING_ADDRESS_DATA');
  expect(ask.persons[0].naturalPerson.name.nameIdentifier[0].primaryIdentifier).toBe(
    'Abernathy-Stroud',
  );
  expect(ask.accountNumber).toEqual([BENEFICIARY_ADDRESS.toLowerCase()]);
  expect(
    (
      await api(to, 'POST', '/travelrule/send_address', {
        transaction_ref: incoming.transaction_ref,
        address: BENEFICIARY_ADDRESS,
      })
    ).json.code,
  ).toBe(0);
  await waitStatus(to, incoming.transaction_ref, 'WAITING_FOR_CONFIRMATION');

  // The originator learns of the approval, pays out, and sends the hash.
  expect(await hookFor(from, ref, 'OTHER_VASP_APPROVED')).toEqual({
    transaction_ref: ref,
    status: 'OTHER_VASP_APPROVED',
  });
  await waitStatus(from, ref, 'WAITING_TX_HASH');
  const [approved] = await from.db
    .sql`select beneficiary_address from travelrule_transactions where transaction_ref = ${ref}`;
  expect(approved!.beneficiary_address).toBe(BENEFICIARY_ADDRESS.toLowerCase());
  expect(
    (
      await api(from, 'POST', '/travelrule/send_tx_hash', {
        transaction_ref: ref,
        transaction_hash: txid,
      })
    ).json.code,
  ).toBe(0);

  // The beneficiary's backend gets the hash.
  expect(await hookFor(to, incoming.transaction_ref, 'TRANSACTION_CONFIRMED')).toEqual({
    transaction_ref: incoming.transaction_ref,
    status: 'TRANSACTION_CONFIRMED',
    txid,
  });
  await waitStatus(from, ref, 'COMPLETED');
  await waitStatus(to, incoming.transaction_ref, 'TRANSACTION_CONFIRMED');
  // In the outbox a notice is about no chain position; only the confirmed one names its txid.
  const rows = await to.db.sql`
    select e.travelrule_status, e.network, e.address, e.tx_hash, e.block_number, e.block_hash, e.body
    from webhook_events e join travelrule_transactions t on t.id = e.travelrule_id
    where t.transaction_ref = ${incoming.transaction_ref} order by e.created_at`;
  expect(rows.map((r) => ({ ...r }))).toEqual([
    {
      travelrule_status: 'WAITING_ADDRESS_DATA',
      network: null,
      address: null,
      tx_hash: null,
      block_number: null,
      block_hash: null,
      body: null,
    },
    {
      travelrule_status: 'TRANSACTION_CONFIRMED',
      network: null,
      address: null,
      tx_hash: txid,
      block_number: null,
      block_hash: null,
      body: null,
    },
  ]);
  return incoming.transaction_ref;
}

describe('two Tollgates over TRP v3.1', () => {
  it('withdrawal from A to B, end to end', async () => {
    const theirRef = await transfer(a, b, 'a-to-b-1', '0x' + 'a1'.repeat(32));
    const history = await b.db.sql<{ to_status: string; actor_type: string }[]>`
      select h.to_status, h.actor_type from travelrule_history h join travelrule_transactions t on t.id = h.transaction_id
      where t.transaction_ref = ${theirRef} order by h.id`;
    expect(history.map((h) => `${h.to_status}:${h.actor_type}`)).toEqual([
      'CREATED:counterparty',
      'SCORE:system',
      'PENDING:system',
      'WAITING_ADDRESS_DATA:operator',
      'WAITING_FOR_CONFIRMATION:api_key',
      'TRANSACTION_CONFIRMED:counterparty',
    ]);
    const ours = await a.db.sql<{ to_status: string }[]>`
      select h.to_status from travelrule_history h join travelrule_transactions t on t.id = h.transaction_id
      where t.transaction_ref = 'a-to-b-1' order by h.id`;
    expect(ours.map((h) => h.to_status)).toEqual([
      'CREATED',
      'SCORE',
      'PENDING',
      'OTHER_VASP_PENDING',
      'OTHER_VASP_APPROVED',
      'WAITING_TX_HASH',
      'COMPLETED',
    ]);
    const messages = await a.db
      .sql`select m.kind, m.status from travelrule_messages m join travelrule_transactions t on t.id = m.transaction_id where t.transaction_ref = 'a-to-b-1' order by m.id`;
    expect(messages).toEqual([
      { kind: 'trp_inquiry', status: 'sent' },
      { kind: 'trp_confirmation', status: 'sent' },
    ]);
  });

  it('deposit into A from B, end to end', async () => {
    await transfer(b, a, 'b-to-a-1', '0x' + 'b2'.repeat(32));
  });

  it("a rejection by A's operator reaches B's backend as OTHER_VASP_REJECTED, without A's internal reason", async () => {
    expect(
      (
        await api(
          b,
          'POST',
          '/travelrule/create_tx',
          travelBody('b-to-a-2', { beneficiary_vasp_id: A.uid }),
        )
      ).json.data,
    ).toBe('PENDING');
    const [out] = await b.db.sql<
      { id: string }[]
    >`select id from travelrule_transactions where transaction_ref = 'b-to-a-2'`;
    await ops(b, 'POST', `/travelrule/transactions/${out!.id}/accept`, {});
    const incoming = await incomingPending(a);
    const refused = await ops(a, 'POST', `/travelrule/transactions/${incoming.id}/reject`, {
      reason: 'customer under internal investigation',
    });
    expect(refused.json.data).toEqual({ status: 'REJECTED' });
    expect(await hookFor(b, 'b-to-a-2', 'OTHER_VASP_REJECTED')).toEqual({
      transaction_ref: 'b-to-a-2',
      status: 'OTHER_VASP_REJECTED',
    });
    await waitStatus(b, 'b-to-a-2', 'OTHER_VASP_REJECTED');
    const [row] = await b.db
      .sql`select counterparty_reason from travelrule_transactions where transaction_ref = 'b-to-a-2'`;
    expect(row!.counterparty_reason).not.toContain('investigation');
    // B can no longer send a hash for it.
    expect(
      (
        await api(b, 'POST', '/travelrule/send_tx_hash', {
          transaction_ref: 'b-to-a-2',
          transaction_hash: '0x' + 'c3'.repeat(32),
        })
      ).json.message,
    ).toMatch(/OTHER_VASP_REJECTED/);
  });

  it('refuses malformed TRP messages and unknown tokens with 400/404, echoing the request-identifier', async () => {
    const requestId = '6d1e3f0a-2b4c-4d5e-8f90-a1b2c3d4e5f6';
    const headers = { 'api-version': '3.1.0', 'request-identifier': requestId };
    const unknown = await call(a.app.baseUrl, 'POST', `/trp/v3/inquiries/${token()}`, {
      headers,
      body: {},
    });
    expect(unknown.status).toBe(400); // the body is checked before the token is looked up
    const notFound = await call(a.app.baseUrl, 'POST', `/trp/v3/confirmations/${token()}`, {
      headers,
      body: { txid: '0x' + '00'.repeat(32) },
    });
    expect(notFound.status).toBe(404);
    expect(notFound.headers['request-identifier']).toBe(requestId);
    const noVersion = await call(a.app.baseUrl, 'POST', `/trp/v3/confirmations/${token()}`, {
      headers: { 'request-identifier': requestId },
      body: { txid: 'x' },
    });
    expect(noVersion.status).toBe(400);
    const both = await call(a.app.baseUrl, 'POST', `/trp/v3/resolutions/${token()}`, {
      headers,
      body: {
        approved: { address: ORIGINATOR_ADDRESS, callback: 'https://x.example/' },
        rejected: 'no',
      },
    });
    expect(both.status).toBe(400);
  });
});
