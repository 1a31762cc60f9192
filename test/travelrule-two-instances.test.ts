import { randomBytes, X509Certificate } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { type KeyAndCertificate, makeDevCa, makeDevCertificate } from '../src/net/tls-certs.js';
import { createOperator } from '../src/operators/operators.js';
import { upsertVasp } from '../src/travelrule/vasps.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { call } from './helpers/http.js';
import { freePort } from '../support/ports.js';
import { Receiver } from './helpers/receiver.js';
import { expectWebhookContract } from './helpers/webhook-contract.js';
import {
  BENEFICIARY_ADDRESS,
  ORIGINATOR_ADDRESS,
  travelBody,
  WITHDRAWAL_COMPLETED,
} from './helpers/travelrule.js';

/**
 * Two Tollgates talk TRP v3.1 over mutual TLS, as configured in production: two databases, two
 * API ports, two TRP listeners, two workers. Each has a certificate from a development CA
 * (`tollgate tls`'s code) and pins the other's in its directory; client certificates are
 * required. A withdrawal from A to B and a deposit into A from B run end to end, with the
 * operators deciding on both sides and each side's backend receiving its signed travel rule
 * webhooks; a Travel Address of B's customer finds B; a third party with a certificate of the
 * same CA, or none, cannot post a resolution or confirmation, even knowing the callback URL.
 */

interface Side {
  name: string;
  uid: string;
  db: TestDatabase;
  app: Awaited<ReturnType<typeof startTestAppliance>>;
  key: { id: string; apikey: string; webhook_secret: string };
  reviewer: Record<string, string>;
  hooks: Receiver;
  /** Base URL of its mutual-TLS TRP listener. */
  trp: string;
}

const A = { name: 'Alpha VASP', uid: '0a0a0a0a-0000-4000-8000-00000000000a' };
const B = { name: 'Bravo VASP', uid: '0b0b0b0b-0000-4000-8000-00000000000b' };
/** In A's directory: a VASP whose pinned certificate is Mallory's. */
const C = { name: 'Charlie VASP', uid: '0c0c0c0c-0000-4000-8000-00000000000c' };
/** In A's directory: B's endpoint, pinned to a certificate B does not have. */
const B_WRONG_PIN = { name: 'Bravo (old pin)', uid: '0b0b0b0b-0000-4000-8000-0000000000b1' };
let a: Side;
let b: Side;
let certs: Record<'a' | 'b' | 'mallory', KeyAndCertificate & { fingerprint: string }>;

const token = () => randomBytes(32).toString('base64url');
const basic = (login: string, password: string) => ({
  authorization: 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64'),
});

function writeCertificate(c: KeyAndCertificate): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-trp-cert-'));
  writeFileSync(join(dir, 'cert.pem'), c.cert);
  writeFileSync(join(dir, 'key.pem'), c.key, { mode: 0o600 });
  return { cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem') };
}

async function side(
  info: { name: string; uid: string },
  ports: { api: number; trp: number },
  own: KeyAndCertificate,
  peer: {
    name: string;
    uid: string;
    endpoint: string;
    inboundToken: string;
    fingerprint: string;
  },
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
      trp_tls_fingerprints: [peer.fingerprint],
    },
    'cli',
  );
  const files = writeCertificate(own);
  const app = await startTestAppliance(
    db.url,
    {
      TOLLGATE_PORT: String(ports.api),
      TOLLGATE_TRAVEL_RULE_VASP_NAME: info.name,
      TOLLGATE_TRP_PORT: String(ports.trp),
      TOLLGATE_TRP_PUBLIC_URL: `https://127.0.0.1:${ports.trp}`,
      TOLLGATE_TRP_CLIENT_CERT_FILE: files.cert,
      TOLLGATE_TRP_CLIENT_KEY_FILE: files.key,
      TOLLGATE_TRP_REQUIRE_CLIENT_CERT: 'true',
    },
    { api: true, worker: true, indexer: false, devChain: false },
  );
  expect(app.trpPort).toBe(ports.trp);
  const hooks = await new Receiver().start();
  const reg = await call(app.baseUrl, 'POST', '/v2/travelrule/webhook', {
    headers: { apikey: key.apikey },
    body: { url: hooks.url },
  });
  expect(reg.json.code).toBe(0);
  return {
    ...info,
    db,
    app,
    key,
    reviewer: basic(op.login, op.password),
    hooks,
    trp: `https://127.0.0.1:${ports.trp}`,
  };
}

beforeAll(async () => {
  const ports = async () => ({ api: await freePort(), trp: await freePort() });
  const [portsA, portsB] = [await ports(), await ports()];
  // One development CA signs all three: the same CA vouches for Mallory, so only the pins decide.
  const ca = await makeDevCa();
  const make = () => makeDevCertificate(ca, { hosts: ['127.0.0.1'] });
  certs = { a: await make(), b: await make(), mallory: await make() };
  // The inquiry URL each hands to the other: B's token at A, A's token at B.
  const bAtA = token();
  const aAtB = token();
  a = await side(A, portsA, certs.a, {
    ...B,
    endpoint: `https://127.0.0.1:${portsB.trp}/trp/v3/inquiries/${aAtB}`,
    inboundToken: bAtA,
    fingerprint: certs.b.fingerprint,
  });
  b = await side(B, portsB, certs.b, {
    ...A,
    endpoint: `https://127.0.0.1:${portsA.trp}/trp/v3/inquiries/${bAtA}`,
    inboundToken: aAtB,
    fingerprint: certs.a.fingerprint,
  });
  for (const entry of [
    { ...C, fingerprint: certs.mallory.fingerprint, endpoint: 'https://charlie.example/trp' },
    {
      ...B_WRONG_PIN,
      fingerprint: certs.mallory.fingerprint.replace(/^../, '00'),
      endpoint: `https://127.0.0.1:${portsB.trp}/trp/v3/inquiries/${aAtB}`,
    },
  ])
    await upsertVasp(
      a.db.sql,
      {
        uid: entry.uid,
        name: entry.name,
        website: 'https://charlie.example',
        trp_endpoint: entry.endpoint,
        trp_tls_fingerprints: [entry.fingerprint],
      },
      'cli',
    );
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
      expectWebhookContract('travelRule', [got.json]);
      return got.json;
    });
}

/**
 * A withdrawal from `from`, stored PENDING and accepted by its operator, so that its inquiry goes
 * out: the transaction's id at `from`.
 */
async function sentWithdrawal(
  from: Side,
  ref: string,
  extra: Record<string, unknown>,
): Promise<string> {
  expect((await api(from, 'POST', '/travelrule/create_tx', travelBody(ref, extra))).json.data).toBe(
    'PENDING',
  );
  const [out] = await from.db.sql<
    { id: string }[]
  >`select id from travelrule_transactions where transaction_ref = ${ref}`;
  expect(
    (await ops(from, 'POST', `/travelrule/transactions/${out!.id}/accept`, {})).json.data,
  ).toEqual({ status: 'OTHER_VASP_PENDING' });
  return out!.id;
}

/** One transfer over TRP from `from` to `to`, both operators accepting; returns the beneficiary side's reference. */
async function transfer(from: Side, to: Side, ref: string, txid: string): Promise<string> {
  await sentWithdrawal(from, ref, { beneficiary_vasp_id: to.uid });

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
  // With the address the beneficiary's backend gave: the account create_tx named.
  expect(await hookFor(from, ref, 'OTHER_VASP_APPROVED')).toEqual({
    transaction_ref: ref,
    status: 'OTHER_VASP_APPROVED',
    beneficiary_address: BENEFICIARY_ADDRESS.toLowerCase(),
    beneficiary_address_differs: false,
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
    expect(ours.map((h) => h.to_status)).toEqual(WITHDRAWAL_COMPLETED);
    // B acted on the confirmation before A recorded it sent: wait for A's record.
    const messages = await eventually(
      () =>
        a.db
          .sql`select m.kind, m.status from travelrule_messages m join travelrule_transactions t on t.id = m.transaction_id where t.transaction_ref = 'a-to-b-1' order by m.id`,
      (rows) => rows.length === 2 && rows.every((r) => r.status !== 'pending'),
    );
    expect(messages).toEqual([
      { kind: 'trp_inquiry', status: 'sent' },
      { kind: 'trp_confirmation', status: 'sent' },
    ]);
  });

  it('deposit into A from B, end to end', async () => {
    await transfer(b, a, 'b-to-a-1', '0x' + 'b2'.repeat(32));
  });

  it("a rejection by A's operator reaches B's backend as OTHER_VASP_REJECTED, without A's internal reason", async () => {
    await sentWithdrawal(b, 'b-to-a-2', { beneficiary_vasp_id: A.uid });
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
    const asB = { headers, clientCert: certs.b };
    const unknown = await call(a.trp, 'POST', `/trp/v3/inquiries/${token()}`, {
      ...asB,
      body: {},
    });
    expect(unknown.status).toBe(400); // the body is checked before the token is looked up
    const notFound = await call(a.trp, 'POST', `/trp/v3/confirmations/${token()}`, {
      ...asB,
      body: { txid: '0x' + '00'.repeat(32) },
    });
    expect(notFound.status).toBe(404);
    expect(notFound.headers['request-identifier']).toBe(requestId);
    const noVersion = await call(a.trp, 'POST', `/trp/v3/confirmations/${token()}`, {
      headers: { 'request-identifier': requestId },
      clientCert: certs.b,
      body: { txid: 'x' },
    });
    expect(noVersion.status).toBe(400);
    const both = await call(a.trp, 'POST', `/trp/v3/resolutions/${token()}`, {
      ...asB,
      body: {
        approved: { address: ORIGINATOR_ADDRESS, callback: 'https://x.example/' },
        rejected: 'no',
      },
    });
    expect(both.status).toBe(400);
    // With its own listener, TRP is not served on the API port, and the listener serves only TRP.
    expect(
      (await call(a.app.baseUrl, 'POST', `/trp/v3/inquiries/${token()}`, { headers, body: {} }))
        .status,
    ).toBe(404);
    expect((await call(a.trp, 'GET', '/v2/openapi.json', { clientCert: certs.b })).status).toBe(
      404,
    );
    expect((await call(a.trp, 'GET', '/dashboard', { clientCert: certs.b })).status).toBe(404);
  });

  it("tells anyone who it is at GET /identity on the TRP listener: B's name and the certificate A pins for it", async () => {
    // No client certificate, no TRP headers: identity discovery comes before any trust.
    const id = await call(b.trp, 'GET', '/identity');
    expect(id.status).toBe(200);
    expect(id.headers['api-version']).toBe('3.1.0');
    // No LEI configured: the name and the certificate only.
    expect(Object.keys(id.json).sort()).toEqual(['name', 'x509']);
    expect(id.json.name).toBe(B.name);
    expect(new X509Certificate(id.json.x509).fingerprint256).toBe(certs.b.fingerprint);
  });

  it('a forged resolution or confirmation, from a certificate not pinned for the transfer, or none, is refused and changes nothing', async () => {
    // A → B withdrawal waiting for B's answer: A's resolutions URL is in B's database.
    const outId = await sentWithdrawal(a, 'a-to-b-forged', { beneficiary_vasp_id: B.uid });
    const incoming = await incomingPending(b);
    const [atB] = await b.db.sql<
      { counterparty_callback: string }[]
    >`select counterparty_callback from travelrule_transactions where id = ${incoming.id}`;
    const resolutionUrl = new URL(atB!.counterparty_callback);
    expect(resolutionUrl.origin).toBe(a.trp);

    const forged = {
      approved: { address: '0x' + '66'.repeat(20), callback: 'https://mallory.example/trp/c' },
    };
    const post = (clientCert?: KeyAndCertificate) =>
      call(a.trp, 'POST', resolutionUrl.pathname, {
        headers: { 'api-version': '3.1.0', 'request-identifier': randomBytes(8).toString('hex') },
        body: forged,
        ...(clientCert ? { clientCert } : {}),
      });
    // Mallory: a certificate of the same CA, pinned for VASP C in A's directory, not for B.
    const byMallory = await post(certs.mallory);
    expect(byMallory.status).toBe(403);
    expect(byMallory.json.message).toMatch(/not one the directory pins for this VASP/);
    // No certificate at all.
    const anonymous = await post();
    expect(anonymous.status).toBe(403);
    expect(anonymous.json.message).toMatch(/mutual TLS/);
    const [still] = await a.db.sql<
      { status: string; beneficiary_address: string | null; counterparty_callback: string | null }[]
    >`select status, beneficiary_address, counterparty_callback from travelrule_transactions where id = ${outId}`;
    expect(still).toEqual({
      status: 'OTHER_VASP_PENDING',
      beneficiary_address: null,
      counterparty_callback: null,
    });

    // B's operator rejects; then a forged confirmation to B's callback of a deposit is refused too.
    await ops(b, 'POST', `/travelrule/transactions/${incoming.id}/reject`, { reason: 'test' });
    await waitStatus(a, 'a-to-b-forged', 'OTHER_VASP_REJECTED');

    const outBId = await sentWithdrawal(b, 'b-to-a-forged', { beneficiary_vasp_id: A.uid });
    const atA = await incomingPending(a);
    await ops(a, 'POST', `/travelrule/transactions/${atA.id}/accept`, {});
    await hookFor(a, atA.transaction_ref, 'WAITING_ADDRESS_DATA');
    await api(a, 'POST', '/travelrule/send_address', {
      transaction_ref: atA.transaction_ref,
      address: BENEFICIARY_ADDRESS,
    });
    await waitStatus(b, 'b-to-a-forged', 'WAITING_TX_HASH');
    const [approvedAtB] = await b.db.sql<
      { counterparty_callback: string }[]
    >`select counterparty_callback from travelrule_transactions where id = ${outBId}`;
    const confirmationUrl = new URL(approvedAtB!.counterparty_callback);
    expect(confirmationUrl.origin).toBe(a.trp);
    const fakeConfirmation = await call(a.trp, 'POST', confirmationUrl.pathname, {
      headers: { 'api-version': '3.1.0', 'request-identifier': 'forged-1' },
      body: { txid: '0x' + '77'.repeat(32) },
      clientCert: certs.mallory,
    });
    expect(fakeConfirmation.status).toBe(403);
    const fakeCancel = await call(a.trp, 'POST', confirmationUrl.pathname, {
      headers: { 'api-version': '3.1.0', 'request-identifier': 'forged-2' },
      body: { canceled: 'never mind' },
    });
    expect(fakeCancel.status).toBe(403);
    await waitStatus(a, atA.transaction_ref, 'WAITING_FOR_CONFIRMATION');
    // The real one, from B, goes through.
    await api(b, 'POST', '/travelrule/send_tx_hash', {
      transaction_ref: 'b-to-a-forged',
      transaction_hash: '0x' + 'd4'.repeat(32),
    });
    await waitStatus(a, atA.transaction_ref, 'TRANSACTION_CONFIRMED');
  });

  it("a Travel Address of B's customer takes A's inquiry to B, which knows A by its certificate", async () => {
    const issued = await api(b, 'POST', '/travelrule/travel_address', {
      network: 'eth',
      address: BENEFICIARY_ADDRESS,
    });
    expect(issued.json.code).toBe(0);
    expect(issued.json.data.url.startsWith(`${b.trp}/trp/v3/inquiries/`)).toBe(true);
    // Without naming the VASP, a Travel Address alone is refused while certificates are required.
    const unnamed = await api(
      a,
      'POST',
      '/travelrule/create_tx',
      travelBody('a-to-b-ta-0', { beneficiary_travel_address: issued.json.data.travel_address }),
    );
    expect(unnamed.json.message).toMatch(/beneficiary_vasp_id: required/);
    await sentWithdrawal(a, 'a-to-b-ta', {
      beneficiary_vasp_id: B.uid,
      beneficiary_travel_address: issued.json.data.travel_address,
    });
    const incoming = await incomingPending(b);
    const detail = (await ops(b, 'GET', `/travelrule/transactions/${incoming.id}`)).json.data;
    expect(detail.counterparty_vasp_id).toBe(A.uid);
    expect(detail.ivms101.beneficiary.accountNumber).toEqual([BENEFICIARY_ADDRESS.toLowerCase()]);
    await ops(b, 'POST', `/travelrule/transactions/${incoming.id}/reject`, { reason: 'test' });
    await waitStatus(a, 'a-to-b-ta', 'OTHER_VASP_REJECTED');
    // Mallory's certificate on the same Travel Address is taken as C's inquiry only if C is
    // pinned at B: it is not, so it is refused.
    const byMallory = await call(b.trp, 'POST', new URL(issued.json.data.url).pathname, {
      headers: { 'api-version': '3.1.0', 'request-identifier': 'mallory-ta' },
      body: {
        asset: { slip0044: 60 },
        amount: 1,
        callback: 'https://mallory.example/cb',
        IVMS101: { originator: {}, beneficiary: {} },
      },
      clientCert: certs.mallory,
    });
    expect([400, 403]).toContain(byMallory.status);
  });

  it('a server that presents a certificate the directory does not pin gets nothing', async () => {
    const pendingAtB = await b.db.sql`select count(*)::int as n from travelrule_transactions`;
    const outId = await sentWithdrawal(a, 'a-to-wrong-pin', {
      beneficiary_vasp_id: B_WRONG_PIN.uid,
    });
    const message = await eventually(
      async () =>
        (
          await a.db.sql<{ attempts: number; last_error: string | null }[]>`
            select attempts, last_error from travelrule_messages where transaction_id = ${outId}`
        )[0],
      (m) => (m?.attempts ?? 0) > 0,
      30_000,
    );
    expect(message!.last_error).toMatch(/does not pin for this VASP/);
    expect(message!.last_error).toContain(certs.b.fingerprint);
    expect(await b.db.sql`select count(*)::int as n from travelrule_transactions`).toEqual(
      pendingAtB,
    );
  });

  it('sent only bodies that keep the documented travelRule contract, on both sides', () => {
    expectWebhookContract(
      'travelRule',
      [a, b].flatMap((s) => s.hooks.received.map((r) => r.json)),
    );
  });
});
