import { writeFileSync, mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeTravelAddress, encodeTravelAddress } from '../src/travelrule/trp/travel-address.js';
import type { AddressInfo } from 'node:net';
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { failedTravelRuleMessages } from '../src/monitoring/status.js';
import { createOperator } from '../src/operators/operators.js';
import { log } from '../src/log.js';
import { upsertVasp } from '../src/travelrule/vasps.js';
import { LATE_WORD, recordLateWord } from '../src/travelrule/flow.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { dashboardLogin } from './helpers/dashboard-client.js';
import { call } from './helpers/http.js';
import { captureLog } from './helpers/log-capture.js';
import { Receiver } from './helpers/receiver.js';
import { expectWebhookContract } from './helpers/webhook-contract.js';
import { selfSignedLoopback } from './helpers/certs.js';
import {
  BENEFICIARY_ADDRESS,
  travelBody,
  WITHDRAWAL_COMPLETED,
  DEPOSIT_CONFIRMED,
  sendInquiry,
} from './helpers/travelrule.js';
import { type InquiryParts, inquiryText, trpSend } from './helpers/trp-peer.js';

/**
 * Tollgate against a TRP counterparty written from the protocol's documents (helpers/trp-peer.ts
 * and the server below), not from Tollgate's TRP module: what an independent VASP sends and
 * expects. A real appliance (API and worker) and a real Postgres.
 */

interface Hit {
  /** The SHA-256 fingerprint of the client certificate presented, over https. */
  clientCert?: string;
  path: string;
  headers: Record<string, string>;
  text: string;
  json: any;
}

/** The counterparty's endpoints: its inquiry URL (answers "deferred", or refuses) and callbacks. */
class Peer {
  readonly hits: Hit[] = [];
  private server: Server | undefined;
  base = '';

  private tls: Server | undefined;
  /** The same endpoints over https (a self-signed certificate for 127.0.0.1: caFile trusts it). */
  tlsBase = '';
  caFile = '';

  async start(): Promise<void> {
    const handle = (req: IncomingMessage, res: ServerResponse) => {
      let text = '';
      req.on('data', (d) => (text += d));
      req.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {}
        const socket = req.socket as import('node:tls').TLSSocket;
        const presented =
          typeof socket.getPeerCertificate === 'function'
            ? socket.getPeerCertificate().fingerprint256
            : undefined;
        this.hits.push({
          ...(presented ? { clientCert: presented } : {}),
          path: req.url ?? '',
          headers: req.headers as Record<string, string>,
          text,
          json,
        });
        const echo = {
          'content-type': 'application/json',
          'request-identifier': String(req.headers['request-identifier'] ?? ''),
        };
        // Takes the message and never answers (a peer that stalls, a reply lost on the way): the
        // sender's attempt times out with the message in the peer's hands.
        if (req.url?.includes('/silent')) return;
        // A callback that refuses what it is sent (a peer that lost the transfer).
        if (req.url?.startsWith('/cb/refuse'))
          return void res.writeHead(422, echo).end('{"message":"unknown transfer"}');
        if (req.url === '/trp/wrong-address')
          return void res.writeHead(404, echo).end('{"message":"no such Travel Address"}');
        // Busy at the first inquiry: asks to be left alone for two minutes (RFC 9110 Retry-After).
        if (
          req.url === '/trp/busy-inquiry' &&
          this.hits.filter((h) => h.path === req.url).length === 1
        )
          return void res
            .writeHead(429, { ...echo, 'retry-after': '120' })
            .end('{"message":"too many requests"}');
        // Approves in the inquiry's response (TRP lets the answer come inline), to an address of
        // its own choosing: not the account the originator named.
        if (req.url === '/trp/approving-inquiry')
          return void res.writeHead(200, echo).end(
            JSON.stringify({
              approved: { address: APPROVED_ELSEWHERE, callback: `${this.base}/cb/approving` },
            }),
          );
        if (
          req.url?.startsWith('/trp/inquiry') ||
          req.url?.startsWith('/trp/ta-inquiry') ||
          req.url === '/trp/busy-inquiry'
        )
          return void res.writeHead(200, echo).end('{"version":"3.1.0"}');
        res.writeHead(200, echo).end('{}');
      });
    };
    this.server = createServer(handle);
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    const pems = await selfSignedLoopback('peer.test');
    this.caFile = join(mkdtempSync(join(tmpdir(), 'trp-peer-')), 'ca.pem');
    writeFileSync(this.caFile, pems.cert);
    // Asks for a client certificate (TRP's mutual TLS) and records the one presented.
    this.tls = createHttpsServer(
      { key: pems.key, cert: pems.cert, requestCert: true, rejectUnauthorized: false },
      handle,
    );
    await new Promise<void>((resolve) => this.tls!.listen(0, '127.0.0.1', resolve));
    this.tlsBase = `https://127.0.0.1:${(this.tls!.address() as AddressInfo).port}`;
  }

  waitFor(path: string): Promise<Hit> {
    return eventually(
      async () => this.hits.find((h) => h.path === path),
      (h) => h !== undefined,
      30_000,
    ) as Promise<Hit>;
  }

  /** The message of transfer `id` (its request-identifier) that reached `path`, once it has. */
  waitForTransfer(path: string, id: string): Promise<Hit> {
    return eventually(
      async () => this.hits.find((h) => h.path === path && h.headers['request-identifier'] === id),
      (h) => h !== undefined,
      30_000,
    ) as Promise<Hit>;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
    await new Promise<void>((resolve) => this.tls?.close(() => resolve()) ?? resolve());
  }
}

const PEER_UID = '7a0c1e2d-3b4f-4a5b-8c6d-7e8f9a0b1c2d';
const SILENT_UID = '7a0c1e2d-3b4f-4a5b-8c6d-7e8f9a0b1c2f';
const REFUSING_UID = '7a0c1e2d-3b4f-4a5b-8c6d-7e8f9a0b1c2e';
const BUSY_UID = '7a0c1e2d-3b4f-4a5b-8c6d-7e8f9a0b1c30';
const APPROVING_UID = '7a0c1e2d-3b4f-4a5b-8c6d-7e8f9a0b1c31';
/** The address the approving peer gives: EIP-55 mixed case, not travelBody()'s beneficiary account. */
const APPROVED_ELSEWHERE = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const INBOUND_TOKEN = 'peer-inbound-token-0123456789abcdef0123';

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let key: { id: string; apikey: string };
let reviewer: Record<string, string>;
let reviewerLogin: { login: string; password: string };
const peer = new Peer();
/** The backend's travel rule webhook receiver. */
const hooks = new Receiver();
let clientFingerprint = '';

const api = (method: string, path: string, body?: object) =>
  call(app.baseUrl, method, `/v2${path}`, {
    headers: { apikey: key.apikey },
    ...(body ? { body } : {}),
  });
const ops = (path: string, body: object = {}) =>
  call(app.baseUrl, 'POST', `/ops/travelrule${path}`, { headers: reviewer, body });
const statusOf = async (ref: string) =>
  (await api('GET', `/travelrule/tx_status?transaction_ref=${encodeURIComponent(ref)}`)).json.data;
async function idOf(ref: string): Promise<string> {
  const [row] = await db.sql<
    { id: string }[]
  >`select id from travelrule_transactions where transaction_ref = ${ref}`;
  return row!.id;
}

/** The travel rule webhooks enqueued for a transfer: their statuses, oldest first. */
async function travelRuleWebhooks(ref: string): Promise<string[]> {
  const rows = await db.sql<{ status: string }[]>`
    select e.travelrule_status as status from webhook_events e
    join travelrule_transactions t on t.id = e.travelrule_id
    where t.transaction_ref = ${ref} order by e.id`;
  return rows.map((r) => r.status);
}

/** A withdrawal to the VASP `vasp` created and accepted by a reviewer; its id. */
async function acceptedWithdrawal(ref: string, vasp: string): Promise<string> {
  await api('POST', '/travelrule/create_tx', travelBody(ref, { beneficiary_vasp_id: vasp }));
  const id = await idOf(ref);
  await ops(`/transactions/${id}/accept`);
  return id;
}

/**
 * A withdrawal to the VASP whose server refuses its inquiry (404), given up on: its id, and how
 * the beneficiary, which had the inquiry after all, answers on the callback the inquiry named.
 */
async function givenUpWithdrawal(
  ref: string,
): Promise<{ id: string; answer: (body: object) => ReturnType<typeof trpSend> }> {
  const id = await acceptedWithdrawal(ref, REFUSING_UID);
  await eventually(
    async () => (await statusOf(ref)).status,
    (s) => s === 'OTHER_VASP_REJECTED',
    30_000,
  );
  const inquiry = await peer.waitForTransfer('/trp/wrong-address', id);
  const callback = new URL(inquiry.json.callback).pathname;
  return {
    id,
    answer: (body) => trpSend(app.baseUrl, callback, JSON.stringify(body), { requestId: id }),
  };
}

/**
 * A withdrawal whose inquiry the beneficiary has, cancelled by an operator while it waits on the
 * beneficiary (TRP gives no callback to tell it on yet): its id, and how the beneficiary answers
 * on the callback the inquiry named.
 */
async function cancelledWhileWaiting(
  ref: string,
): Promise<{ id: string; answer: (body: object) => ReturnType<typeof trpSend> }> {
  const id = await acceptedWithdrawal(ref, PEER_UID);
  const inquiry = await peer.waitForTransfer('/trp/inquiry', id);
  await eventually(
    async () => (await statusOf(ref)).messages,
    (m) => m[0]?.status === 'sent',
    30_000,
  );
  expect(
    (await ops(`/transactions/${id}/cancel`, { reason: 'customer withdrew' })).json.data,
  ).toEqual({ status: 'REJECTED' });
  const callback = new URL(inquiry.json.callback).pathname;
  return {
    id,
    answer: (body) => trpSend(app.baseUrl, callback, JSON.stringify(body), { requestId: id }),
  };
}

/** A transfer's history entries that keep a word of the other VASP come late (status to itself). */
const lateEntries = (history: { from_status: string; status: string; actor_type: string }[]) =>
  history.filter((h) => h.actor_type === 'counterparty' && h.from_status === h.status);

beforeAll(async () => {
  db = await freshDatabase();
  await peer.start();
  await hooks.start();
  key = await createApiKey(db.sql, 'backend');
  const r = await createOperator(db.sql, 'rita.reviewer', 'reviewer');
  reviewerLogin = r;
  reviewer = {
    authorization: 'Basic ' + Buffer.from(`${r.login}:${r.password}`).toString('base64'),
  };
  await upsertVasp(
    db.sql,
    {
      uid: PEER_UID,
      name: 'Independent Originator AG',
      website: 'https://independent.example',
      trp_endpoint: `${peer.base}/trp/inquiry`,
      inbound_token: INBOUND_TOKEN,
    },
    'cli',
  );
  await upsertVasp(
    db.sql,
    {
      uid: REFUSING_UID,
      name: 'Refusing VASP',
      website: 'https://refusing.example',
      trp_endpoint: `${peer.base}/trp/wrong-address`,
    },
    'cli',
  );
  await upsertVasp(
    db.sql,
    {
      uid: BUSY_UID,
      name: 'Busy VASP',
      website: 'https://busy.example',
      trp_endpoint: `${peer.base}/trp/busy-inquiry`,
    },
    'cli',
  );
  await upsertVasp(
    db.sql,
    {
      uid: APPROVING_UID,
      name: 'Approving VASP',
      website: 'https://approving.example',
      trp_endpoint: `${peer.base}/trp/approving-inquiry`,
    },
    'cli',
  );
  await upsertVasp(
    db.sql,
    {
      uid: SILENT_UID,
      name: 'Stalling VASP',
      website: 'https://stalling.example',
      trp_endpoint: `${peer.base}/trp/silent-inquiry`,
    },
    'cli',
  );
  // Tollgate's own TLS client certificate, presented on its TRP requests.
  const client = await selfSignedLoopback('tollgate.test');
  const dir = mkdtempSync(join(tmpdir(), 'trp-client-'));
  writeFileSync(join(dir, 'client.pem'), client.cert);
  writeFileSync(join(dir, 'client.key'), client.key);
  clientFingerprint = client.fingerprint;
  app = await startTestAppliance(
    db.url,
    {
      TOLLGATE_TRP_CA_FILE: peer.caFile,
      TOLLGATE_TRP_CLIENT_CERT_FILE: join(dir, 'client.pem'),
      TOLLGATE_TRP_CLIENT_KEY_FILE: join(dir, 'client.key'),
      // The stalling peer below: an attempt gives up after 2 s.
      TOLLGATE_TRP_TIMEOUT_MS: '2000',
      // Sent with our name as the originating VASP's LEI (written in lower case: taken in capitals).
      TOLLGATE_TRAVEL_RULE_VASP_LEI: '529900t8bm49aursdo55',
    },
    { api: true, worker: true, indexer: false, devChain: false },
  );
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await peer.stop();
  await hooks.stop();
  await db?.drop();
});

describe('a deposit from an independent originator', () => {
  it('takes its inquiry as the protocol writes it and keeps its request-identifier across the transfer', async () => {
    const transfer = 'xfer-0042-independent';
    const parties = travelBody('ignored');
    const inquiry = await trpSend(
      app.baseUrl,
      `/trp/v3/inquiries/${INBOUND_TOKEN}`,
      inquiryText({
        asset: { slip0044: 'ETH' },
        amount: '1.000000000000000001',
        callback: `${peer.base}/cb/resolution`,
        originatorPersons: parties.originator.persons,
        originatorAccounts: parties.originator.accountNumber,
        beneficiaryPersons: parties.beneficiary.persons,
        // No beneficiary accountNumber: the originator learns the address from the approval.
        originatorVasp: 'Independent Originator AG',
        originatorVaspLei: '5493001kjtiigc8y1r12',
        transliterationMethod: ['cyrs'],
      }),
      { requestId: transfer },
    );
    expect(inquiry.status).toBe(200);
    expect(inquiry.json).toEqual({ version: '3.1.0' });
    expect(inquiry.headers['request-identifier']).toBe(transfer);

    const ref = `trp-${transfer}`;
    expect(await statusOf(ref)).toMatchObject({
      direction: 'incoming',
      status: 'PENDING',
      asset: 'ETH',
      network: 'eth',
      amount: '1.000000000000000001',
      // What the inquiry said of the VASP that sent it, as stated.
      counterparty_stated_name: 'Independent Originator AG',
      counterparty_stated_lei: '5493001KJTIIGC8Y1R12',
      // How it says the names were transliterated (IVMS101 payloadMetadata).
      counterparty_transliteration: ['cyrs'],
    });
    const read = await call(app.baseUrl, 'GET', `/ops/travelrule/transactions/${await idOf(ref)}`, {
      headers: reviewer,
    });
    expect(read.json.data).toMatchObject({
      counterparty_stated_name: 'Independent Originator AG',
      counterparty_stated_lei: '5493001KJTIIGC8Y1R12',
      counterparty_transliteration: ['cyrs'],
    });
    expect((await ops(`/transactions/${await idOf(ref)}/accept`)).json.data).toEqual({
      status: 'WAITING_ADDRESS_DATA',
    });
    expect(
      (
        await api('POST', '/travelrule/send_address', {
          transaction_ref: ref,
          address: BENEFICIARY_ADDRESS,
        })
      ).json.code,
    ).toBe(0);

    // The approval reaches the originator's callback under the transfer's own identifier.
    const approval = await peer.waitFor('/cb/resolution');
    expect(approval.headers['request-identifier']).toBe(transfer);
    expect(approval.headers['api-version']).toBe('3.1.0');
    expect(approval.json).toEqual({
      approved: {
        address: BENEFICIARY_ADDRESS.toLowerCase(),
        callback: expect.stringMatching(/^https:\/\/.*\/trp\/v3\/confirmations\//),
      },
    });

    // The originator confirms with the txid, under the same identifier.
    const confirmationUrl = new URL(approval.json.approved.callback);
    const confirmed = await trpSend(
      app.baseUrl,
      confirmationUrl.pathname,
      `{"txid":"0x${'ab'.repeat(32)}"}`,
      { requestId: transfer },
    );
    expect(confirmed.status).toBe(204);
    expect((await statusOf(ref)).status).toBe('TRANSACTION_CONFIRMED');
  });

  it('takes the same inquiry arriving twice at once (a retry overtaking a stalled first) as one transfer', async () => {
    const transfer = 'xfer-0043-twice-at-once';
    const replies = await Promise.all(
      [1, 2, 3].map(() =>
        sendInquiry(app.baseUrl, INBOUND_TOKEN, {
          callback: `${peer.base}/cb/resolution-twice`,
          vaspName: 'Independent Originator AG',
          requestId: transfer,
        }),
      ),
    );
    expect(replies.map((r) => [r.status, r.json])).toEqual(
      replies.map(() => [200, { version: '3.1.0' }]),
    );
    const rows = await db.sql`
      select status from travelrule_transactions where transaction_ref = ${`trp-${transfer}`}`;
    expect(rows.map((r) => r.status)).toEqual(['PENDING']);
    const moves = await db.sql`
      select h.to_status from travelrule_history h join travelrule_transactions t on t.id = h.transaction_id
      where t.transaction_ref = ${`trp-${transfer}`} order by h.id`;
    expect(moves.map((m) => m.to_status)).toEqual(['CREATED', 'SCORE', 'PENDING']);
  });

  it("takes the same confirmation arriving twice at once as one, answering each 204; the backend's send_address likewise", async () => {
    const transfer = 'xfer-0044-confirmed-twice';
    await sendInquiry(app.baseUrl, INBOUND_TOKEN, {
      callback: `${peer.base}/cb/resolution-0044`,
      vaspName: 'Independent Originator AG',
      requestId: transfer,
    });
    const ref = `trp-${transfer}`;
    await ops(`/transactions/${await idOf(ref)}/accept`);
    // The backend's send_address three times at once (its retries of an answer it lost), then
    // once more: each answered OK, one approval sent; another address is refused.
    const sendAddress = (address: string) =>
      api('POST', '/travelrule/send_address', { transaction_ref: ref, address });
    const sends = await Promise.all([1, 2, 3].map(() => sendAddress(BENEFICIARY_ADDRESS)));
    expect(sends.map((r) => r.json.code)).toEqual([0, 0, 0]);
    expect((await sendAddress(BENEFICIARY_ADDRESS.toLowerCase())).json.code).toBe(0);
    const other = await sendAddress('0x' + '45'.repeat(20));
    expect(other.json.code).toBe(5000);
    expect(other.json.message).toMatch(/WAITING_FOR_CONFIRMATION/);
    const approval = await peer.waitFor('/cb/resolution-0044');
    const confirmation = new URL(approval.json.approved.callback).pathname;
    const replies = await Promise.all(
      [1, 2, 3].map(() =>
        trpSend(app.baseUrl, confirmation, `{"txid":"0x${'44'.repeat(32)}"}`, {
          requestId: transfer,
        }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual([204, 204, 204]);
    const view = await statusOf(ref);
    expect(view.status).toBe('TRANSACTION_CONFIRMED');
    expect(view.history.map((h: any) => h.status)).toEqual(DEPOSIT_CONFIRMED);
    const [hooks] = await db.sql`
      select count(*)::int as n from webhook_events e join travelrule_transactions t on t.id = e.travelrule_id
      where t.transaction_ref = ${ref} and e.travelrule_status = 'TRANSACTION_CONFIRMED'`;
    expect(hooks!.n).toBe(1);
    expect((await statusOf(ref)).messages.map((m: any) => m.kind)).toEqual(['trp_resolution']);
  });

  it("takes the originator's word on a deposit that ended here: a cancellation is recorded, a transaction hash kept for the compliance team", async () => {
    /** A deposit approved to the originator; the path of its confirmation callback. */
    const approvedDeposit = async (transfer: string): Promise<string> => {
      await sendInquiry(app.baseUrl, INBOUND_TOKEN, {
        callback: `${peer.base}/cb/${transfer}`,
        vaspName: 'Independent Originator AG',
        requestId: transfer,
      });
      const ref = `trp-${transfer}`;
      await ops(`/transactions/${await idOf(ref)}/accept`);
      await api('POST', '/travelrule/send_address', {
        transaction_ref: ref,
        address: BENEFICIARY_ADDRESS,
      });
      const approval = await peer.waitFor(`/cb/${transfer}`);
      return new URL(approval.json.approved.callback).pathname;
    };

    // Cancelled here while it waited for the confirmation; the originator cancels too.
    const cancelled = 'xfer-0047-cancelled-both';
    const cancelledPath = await approvedDeposit(cancelled);
    const cancelledRef = `trp-${cancelled}`;
    await ops(`/transactions/${await idOf(cancelledRef)}/cancel`, { reason: 'no confirmation' });
    const confirm = (path: string, transfer: string, body: object) =>
      trpSend(app.baseUrl, path, JSON.stringify(body), { requestId: transfer });
    expect((await confirm(cancelledPath, cancelled, { canceled: 'customer gave up' })).status).toBe(
      204,
    );
    let status = await statusOf(cancelledRef);
    expect(status.status).toBe('REJECTED');
    expect(status.counterparty_reason).toBe('customer gave up');
    expect(lateEntries(status.history)).toEqual([
      expect.objectContaining({ from_status: 'REJECTED', status: 'REJECTED' }),
    ]);
    expect((await confirm(cancelledPath, cancelled, { canceled: 'again' })).status).toBe(204);
    expect(lateEntries((await statusOf(cancelledRef)).history)).toHaveLength(1);

    // Cancelled here, and the originator sends the funds all the same: its hash is kept, the
    // transfer stays REJECTED, and the backend gets no TRANSACTION_CONFIRMED.
    const sent = 'xfer-0048-sent-after-cancel';
    const sentPath = await approvedDeposit(sent);
    const sentRef = `trp-${sent}`;
    await ops(`/transactions/${await idOf(sentRef)}/cancel`, { reason: 'no confirmation' });
    const txid = `0x${'48'.repeat(32)}`;
    const logs = captureLog();
    const level = log.level;
    log.level = 'warn'; // the test appliance logs nothing (TEST_LOG_LEVEL) unless asked
    try {
      // In capitals: the same hash, kept in lower case.
      expect(
        (await confirm(sentPath, sent, { txid: `0x${'48'.repeat(32).toUpperCase()}` })).status,
      ).toBe(204);
    } finally {
      log.level = level;
      logs.restore();
    }
    const warned = logs
      .text()
      .split('\n')
      .filter((l) => /transaction hash for a transfer that had ended here/.test(l));
    expect(warned).toHaveLength(1);
    expect(JSON.parse(warned[0]!)).toMatchObject({ level: 40, status: 'REJECTED' });
    status = await statusOf(sentRef);
    expect(status).toMatchObject({ status: 'REJECTED', tx_hash: txid });
    expect(lateEntries(status.history)).toEqual([
      expect.objectContaining({ from_status: 'REJECTED', status: 'REJECTED' }),
    ]);
    expect(await travelRuleWebhooks(sentRef)).not.toContain('TRANSACTION_CONFIRMED');
    expect((await confirm(sentPath, sent, { txid })).status).toBe(204);
    const another = await confirm(sentPath, sent, { txid: `0x${'49'.repeat(32)}` });
    expect(another.status).toBe(409);
    expect((await statusOf(sentRef)).tx_hash).toBe(txid);
    const page = await call(
      app.baseUrl,
      'GET',
      `/ops/travelrule/transactions/${await idOf(sentRef)}`,
      {
        headers: reviewer,
      },
    );
    expect(page.json.data).toMatchObject({ status: 'REJECTED', tx_hash: txid });
    // The compliance team sees it on the transaction's page and on the operations page.
    const dashboard = await dashboardLogin(
      app.baseUrl,
      reviewerLogin.login,
      reviewerLogin.password,
    );
    const detail = await dashboard.get(`/dashboard/travelrule/${await idOf(sentRef)}`);
    expect(detail.text).toContain('<p class="alert" id="sent-after-end">');
    expect(detail.text).toContain(txid);
    const operations = await dashboard.get('/dashboard/operations');
    const section = operations.text.slice(operations.text.indexOf('id="sent-after-end"'));
    expect(section).toContain(`data-transaction="${await idOf(sentRef)}"`);
    expect(section.slice(0, section.indexOf('</section>'))).toContain(txid);

    // Cancelled by the originator, then its hash: kept the same way.
    const changed = 'xfer-0049-cancelled-then-sent';
    const changedPath = await approvedDeposit(changed);
    const changedRef = `trp-${changed}`;
    expect((await confirm(changedPath, changed, { canceled: 'wrong amount' })).status).toBe(204);
    expect((await statusOf(changedRef)).status).toBe('OTHER_VASP_REJECTED');
    expect((await confirm(changedPath, changed, { txid: `0x${'4a'.repeat(32)}` })).status).toBe(
      204,
    );
    status = await statusOf(changedRef);
    expect(status).toMatchObject({
      status: 'OTHER_VASP_REJECTED',
      tx_hash: `0x${'4a'.repeat(32)}`,
    });
    expect(lateEntries(status.history)).toHaveLength(1);
  });

  it('refuses an amount given as a string, and an api-version it does not implement', async () => {
    const body = (amount: string) =>
      inquiryText({
        asset: { slip0044: 60 },
        amount,
        callback: `${peer.base}/cb/x`,
        beneficiaryAccounts: [BENEFICIARY_ADDRESS],
        originatorAccounts: ['0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'],
      });
    const asString = await trpSend(
      app.baseUrl,
      `/trp/v3/inquiries/${INBOUND_TOKEN}`,
      body('"1500000000000000000"'),
    );
    expect(asString.status).toBe(400);
    expect(asString.json.message).toMatch(/^amount: must be a JSON number in whole units/);
    const v32 = await trpSend(app.baseUrl, `/trp/v3/inquiries/${INBOUND_TOKEN}`, body('1'), {
      apiVersion: '3.2.0',
    });
    expect(v32.status).toBe(400);
  });
});

describe('a withdrawal to independent beneficiaries', () => {
  it('sends only what the protocol defines, under the transfer id, and refuses a second, different approval', async () => {
    const ref = 'wd-interop-1';
    expect(
      (
        await api(
          'POST',
          '/travelrule/create_tx',
          travelBody(ref, { beneficiary_vasp_id: PEER_UID }),
        )
      ).json.data,
    ).toBe('PENDING');
    const id = await idOf(ref);
    await ops(`/transactions/${id}/accept`);
    const sent = await peer.waitFor('/trp/inquiry');
    expect(Object.keys(sent.json)).toEqual(['asset', 'amount', 'callback', 'IVMS101']);
    expect(sent.json.asset).toEqual({ slip0044: 60 });
    // This VASP as IVMS101 writes a legal person: its LEGL name and its LEI (LEIX, no authority).
    expect(sent.json.IVMS101.originatingVASP.originatingVASP.legalPerson).toMatchObject({
      name: { nameIdentifier: [{ legalPersonNameIdentifierType: 'LEGL' }] },
      nationalIdentification: {
        nationalIdentifier: '529900T8BM49AURSDO55',
        nationalIdentifierType: 'LEIX',
      },
    });
    expect(sent.text).toContain('"amount":1.25,');
    expect(sent.headers['request-identifier']).toBe(id);

    // The beneficiary approves on the callback the inquiry named. Its token is stored nowhere
    // (it is made from the transaction id with the data key); a forged one finds nothing.
    const resolution = new URL(sent.json.callback).pathname;
    const token = resolution.split('/').at(-1)!;
    const stored = await db.sql`
      select count(*)::int as n from travelrule_transactions
      where callback_token is not null or position(${token} in row_to_json(travelrule_transactions)::text) > 0`;
    expect(stored[0]!.n).toBe(0);
    const forged = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    const forgedReply = await trpSend(
      app.baseUrl,
      resolution.replace(token, forged),
      JSON.stringify({
        approved: { address: '0x' + '66'.repeat(20), callback: `${peer.base}/cb/x` },
      }),
    );
    expect(forgedReply.status).toBe(404);
    const approve = (address: string) =>
      trpSend(
        app.baseUrl,
        resolution,
        JSON.stringify({ approved: { address, callback: `${peer.base}/cb/confirmation` } }),
        {
          requestId: id,
        },
      );
    expect((await approve(BENEFICIARY_ADDRESS)).status).toBe(204);
    await eventually(
      async () => (await statusOf(ref)).status,
      (s) => s === 'WAITING_TX_HASH',
      10_000,
    );
    // The same approval again is a retry: fine. Another address is refused, and nothing changes.
    expect((await approve(BENEFICIARY_ADDRESS)).status).toBe(204);
    const other = await approve('0x' + '99'.repeat(20));
    expect(other.status).toBe(409);
    const [row] =
      await db.sql`select beneficiary_address from travelrule_transactions where id = ${id}`;
    expect(row!.beneficiary_address).toBe(BENEFICIARY_ADDRESS.toLowerCase());
    // A rejection after the approval contradicts it: refused, saying so; nothing changes.
    const revoked = await trpSend(
      app.baseUrl,
      resolution,
      JSON.stringify({ rejected: 'changed our mind' }),
      { requestId: id },
    );
    expect(revoked.status).toBe(409);
    expect(revoked.json.message).toBe(
      'the transfer is WAITING_TX_HASH: the beneficiary VASP approved it already, and a rejection after its approval is refused',
    );
    expect((await statusOf(ref)).status).toBe('WAITING_TX_HASH');

    // The hash goes to the confirmation callback under the same identifier.
    await api('POST', '/travelrule/send_tx_hash', {
      transaction_ref: ref,
      transaction_hash: '0x' + 'cd'.repeat(32),
    });
    const confirmation = await peer.waitFor('/cb/confirmation');
    expect(confirmation.headers['request-identifier']).toBe(id);
    expect(confirmation.json).toEqual({ txid: '0x' + 'cd'.repeat(32) });
    // Even once COMPLETED, a different approval is refused.
    expect((await approve('0x' + '98'.repeat(20))).status).toBe(409);
  });

  it("takes the same approval or rejection arriving twice at once as one, answering each 204; the backend's send_tx_hash likewise", async () => {
    const callbacks = new Map<string, { id: string; path: string }>();
    for (const [ref, answer, final] of [
      [
        'wd-answered-twice-approved',
        { approved: { address: BENEFICIARY_ADDRESS, callback: `${peer.base}/cb/confirmation` } },
        'WAITING_TX_HASH',
      ],
      ['wd-answered-twice-rejected', { rejected: 'not our customer' }, 'OTHER_VASP_REJECTED'],
    ] as const) {
      const id = await acceptedWithdrawal(ref, PEER_UID);
      const sent = await peer.waitForTransfer('/trp/inquiry', id);
      const replies = await Promise.all(
        [1, 2, 3].map(() =>
          trpSend(app.baseUrl, new URL(sent!.json.callback).pathname, JSON.stringify(answer), {
            requestId: id,
          }),
        ),
      );
      expect(replies.map((r) => r.status)).toEqual([204, 204, 204]);
      callbacks.set(ref, { id, path: new URL(sent!.json.callback).pathname });
      const view = await statusOf(ref);
      expect(view.status).toBe(final);
      expect(view.history.filter((h: any) => h.actor_type === 'counterparty')).toHaveLength(1);
      const [hooks] = await db.sql`
        select count(*)::int as n from webhook_events where travelrule_id = ${id}`;
      expect(hooks!.n).toBe(1);
    }
    // A rejection with other words is refused, as a different approval is: the reason the
    // backend was given stays the first (it was answered 204 and dropped).
    const rejected = callbacks.get('wd-answered-twice-rejected')!;
    const again = await trpSend(
      app.baseUrl,
      rejected.path,
      JSON.stringify({ rejected: 'sanctions screening hit' }),
      { requestId: rejected.id },
    );
    expect(again.status).toBe(409);
    expect(again.json.message).toMatch(/rejected already/);
    expect((await statusOf('wd-answered-twice-rejected')).counterparty_reason).toBe(
      'not our customer',
    );
    // The backend's send_tx_hash three times at once, then once more: each answered OK, one
    // confirmation sent; another hash is refused.
    const ref = 'wd-answered-twice-approved';
    const sendHash = (hash: string) =>
      api('POST', '/travelrule/send_tx_hash', { transaction_ref: ref, transaction_hash: hash });
    const hash = '0x' + '46'.repeat(32);
    const sends = await Promise.all([1, 2, 3].map(() => sendHash(hash)));
    expect(sends.map((r) => r.json.code)).toEqual([0, 0, 0]);
    expect((await sendHash(hash)).json.code).toBe(0);
    const other = await sendHash('0x' + '47'.repeat(32));
    expect(other.json.code).toBe(5000);
    expect(other.json.message).toMatch(/COMPLETED/);
    const view = await statusOf(ref);
    expect(view.status).toBe('COMPLETED');
    expect(view.history.map((h: any) => h.status)).toEqual(WITHDRAWAL_COMPLETED);
    expect(view.messages.map((m: any) => m.kind)).toEqual(['trp_inquiry', 'trp_confirmation']);
  });

  it('a beneficiary that refuses the inquiry (4xx) ends the transfer where the caller can read why', async () => {
    const ref = 'wd-interop-refused';
    await acceptedWithdrawal(ref, REFUSING_UID);
    const status = await eventually(
      () => statusOf(ref),
      (s) => s.status === 'OTHER_VASP_REJECTED',
      30_000,
    );
    expect(status.counterparty_reason).toMatch(/did not reach the beneficiary VASP: HTTP 404/);
    expect(status.messages).toMatchObject([
      { kind: 'trp_inquiry', status: 'failed', attempts: 1, last_status: 404 },
    ]);
    expect(status.history.at(-1)).toMatchObject({
      status: 'OTHER_VASP_REJECTED',
      actor_type: 'system',
    });
    // Refused once, not retried.
    expect(peer.hits.filter((h) => h.path === '/trp/wrong-address')).toHaveLength(1);
    // The operations page lists it for the operators.
    expect(await failedTravelRuleMessages(db.sql)).toContainEqual(
      expect.objectContaining({
        transaction_ref: ref,
        kind: 'trp_inquiry',
        counterparty: 'Refusing VASP',
        last_status: 404,
      }),
    );
  });

  it('answers an approval that comes after an operator cancelled the transfer with a cancellation on its callback, once', async () => {
    const ref = 'wd-late-approval';
    const { id, answer } = await cancelledWhileWaiting(ref);
    const approve = (callback: string) =>
      answer({ approved: { address: BENEFICIARY_ADDRESS, callback: `${peer.base}${callback}` } });
    expect((await approve('/cb/late-approval')).status).toBe(204);
    const cancellation = await peer.waitFor('/cb/late-approval');
    expect(cancellation.headers['request-identifier']).toBe(id);
    expect(cancellation.json).toEqual({
      canceled: 'canceled by the compliance review of the counterparty VASP',
    });
    // The same approval again: taken, nothing more sent. One naming another callback: refused.
    expect((await approve('/cb/late-approval')).status).toBe(204);
    const elsewhere = await approve('/cb/late-approval-elsewhere');
    expect(elsewhere.status).toBe(409);
    const status = await statusOf(ref);
    expect(status.status).toBe('REJECTED');
    expect(status.messages).toMatchObject([
      { kind: 'trp_inquiry', status: 'sent' },
      { kind: 'trp_confirmation', status: 'sent' },
    ]);
    expect(status.history.map((h: { status: string }) => h.status)).not.toContain(
      'OTHER_VASP_APPROVED',
    );
    expect(peer.hits.filter((h) => h.path.startsWith('/cb/late-approval'))).toHaveLength(1);
  });

  it("takes a rejection of a transfer it will not make (cancelled here, or its inquiry given up on), recording the beneficiary's reason", async () => {
    // Cancelled by an operator while it waited on the beneficiary.
    const ref = 'wd-late-rejection';
    const { answer: back } = await cancelledWhileWaiting(ref);
    const webhooksBefore = await travelRuleWebhooks(ref);
    // Both sides agree no funds move: taken, not refused as a contradiction.
    expect((await back({ rejected: 'unknown beneficiary' })).status).toBe(204);
    let status = await statusOf(ref);
    expect(status.status).toBe('REJECTED');
    expect(status.counterparty_reason).toBe('unknown beneficiary');
    expect(lateEntries(status.history)).toEqual([
      expect.objectContaining({ from_status: 'REJECTED', status: 'REJECTED' }),
    ]);
    // The same rejection again changes nothing; one in other words is refused.
    expect((await back({ rejected: 'unknown beneficiary' })).status).toBe(204);
    const other = await back({ rejected: 'another reason' });
    expect(other.status).toBe(409);
    // An approval after its own rejection contradicts it: refused, no cancellation sent.
    const approval = await back({
      approved: { address: BENEFICIARY_ADDRESS, callback: `${peer.base}/cb/after-late-rejection` },
    });
    expect(approval.status).toBe(409);
    expect(approval.json.message).toMatch(/rejected it/);
    status = await statusOf(ref);
    expect(status.counterparty_reason).toBe('unknown beneficiary');
    expect(lateEntries(status.history)).toHaveLength(1);
    expect(status.messages.map((m: { kind: string }) => m.kind)).toEqual(['trp_inquiry']);
    expect(peer.hits.filter((h) => h.path === '/cb/after-late-rejection')).toHaveLength(0);
    // The backend was told the transfer ended; it hears nothing more.
    expect(await travelRuleWebhooks(ref)).toEqual(webhooksBefore);

    // Given up on (the server it went to refused it) while the beneficiary had it after all:
    // its rejection replaces our word that the inquiry did not go through.
    const refusedRef = 'wd-late-rejection-after-refusal';
    const { answer } = await givenUpWithdrawal(refusedRef);
    expect((await answer({ rejected: 'sanctioned beneficiary' })).status).toBe(204);
    status = await statusOf(refusedRef);
    expect(status.status).toBe('OTHER_VASP_REJECTED');
    expect(status.counterparty_reason).toBe('sanctioned beneficiary');
    expect(lateEntries(status.history)).toEqual([
      expect.objectContaining({
        from_status: 'OTHER_VASP_REJECTED',
        status: 'OTHER_VASP_REJECTED',
      }),
    ]);
    expect((await answer({ rejected: 'sanctioned beneficiary' })).status).toBe(204);
    expect((await answer({ rejected: 'changed its mind' })).status).toBe(409);
    expect(
      (
        await answer({
          approved: { address: BENEFICIARY_ADDRESS, callback: `${peer.base}/cb/after-late-2` },
        })
      ).status,
    ).toBe(409);
    expect(lateEntries((await statusOf(refusedRef)).history)).toHaveLength(1);
  });

  it('refuses an approval that finds a late rejection recorded while it waited for the row: no cancellation is sent', async () => {
    const ref = 'wd-late-race';
    const { id, answer: back } = await cancelledWhileWaiting(ref);
    let approval: ReturnType<typeof back> | undefined;
    // Hold the row while the approval comes: it has found the transfer ended here, with no word
    // of the beneficiary yet, and waits for the row. The beneficiary's rejection lands meanwhile.
    await db.sql.begin(async (tx) => {
      await tx`select 1 from travelrule_transactions where id = ${id} for update`;
      approval = back({
        approved: { address: BENEFICIARY_ADDRESS, callback: `${peer.base}/cb/late-race` },
      });
      await eventually(
        async () =>
          (
            await db.sql<{ n: number }[]>`
              select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`
          )[0]!.n,
        (n) => n === 1,
        30_000,
      );
      expect(
        await recordLateWord(
          tx,
          { id, status: 'REJECTED' },
          {
            trigger: LATE_WORD.rejection,
            actor: { type: 'counterparty', id: PEER_UID },
            reason: 'unknown beneficiary',
          },
        ),
      ).toBeUndefined();
    });
    const answered = await approval!;
    expect(answered.status).toBe(409);
    expect(answered.json.message).toMatch(/rejected it/);
    const status = await statusOf(ref);
    expect(status.messages.map((m: { kind: string }) => m.kind)).toEqual(['trp_inquiry']);
    expect(lateEntries(status.history)).toHaveLength(1);
    expect(peer.hits.filter((h) => h.path === '/cb/late-race')).toHaveLength(0);
  });

  it('answers an approval of an inquiry it gave up on (refused by the server it went to) with a cancellation; a rejected one stays rejected', async () => {
    const ref = 'wd-approval-after-refusal';
    const { answer } = await givenUpWithdrawal(ref);
    const approval = {
      approved: { address: BENEFICIARY_ADDRESS, callback: `${peer.base}/cb/after-refusal` },
    };
    expect((await answer(approval)).status).toBe(204);
    const cancellation = await peer.waitFor('/cb/after-refusal');
    expect(cancellation.json).toEqual({
      canceled: 'canceled by the compliance review of the counterparty VASP',
    });
    expect((await answer(approval)).status).toBe(204);
    const status = await statusOf(ref);
    expect(status.status).toBe('OTHER_VASP_REJECTED');
    expect(status.counterparty_reason).toMatch(/did not reach the beneficiary VASP: HTTP 404/);

    // A cancellation the beneficiary refuses: tx_status still says why the transfer ended.
    const refusedRef = 'wd-approval-after-refusal-2';
    const refused = await givenUpWithdrawal(refusedRef);
    const refusedApproval = await refused.answer({
      approved: { address: BENEFICIARY_ADDRESS, callback: `${peer.base}/cb/refuse-cancel` },
    });
    expect(refusedApproval.status).toBe(204);
    type Sent = { kind: string; status: string };
    const ended = await eventually(
      () => statusOf(refusedRef),
      (s) => s.messages.some((m: Sent) => m.kind === 'trp_confirmation' && m.status !== 'pending'),
      30_000,
    );
    expect(ended.messages.find((m: Sent) => m.kind === 'trp_confirmation')).toMatchObject({
      status: 'failed',
      last_status: 422,
    });
    expect(ended.counterparty_reason).toMatch(/did not reach the beneficiary VASP: HTTP 404/);

    // A transfer the beneficiary itself rejected: its approval afterwards contradicts it.
    const rejectedRef = 'wd-approval-after-rejection';
    const rejectedId = await acceptedWithdrawal(rejectedRef, PEER_UID);
    const asked = await peer.waitForTransfer('/trp/inquiry', rejectedId);
    const back = (body: object) =>
      trpSend(app.baseUrl, new URL(asked.json.callback).pathname, JSON.stringify(body), {
        requestId: rejectedId,
      });
    expect((await back({ rejected: 'unknown beneficiary' })).status).toBe(204);
    const late = await back({
      approved: { address: BENEFICIARY_ADDRESS, callback: `${peer.base}/cb/after-rejection` },
    });
    expect(late.status).toBe(409);
    expect((await statusOf(rejectedRef)).status).toBe('OTHER_VASP_REJECTED');
    expect(peer.hits.filter((h) => h.path === '/cb/after-rejection')).toHaveLength(0);
  });
});

describe('the address the beneficiary VASP approved reaches the backend', () => {
  /** The OTHER_VASP_APPROVED webhook the backend got for `ref`. */
  const approvedHook = async (ref: string) => {
    const all = await hooks.waitFor((r) =>
      r.some((h) => h.json?.transaction_ref === ref && h.json?.status === 'OTHER_VASP_APPROVED'),
    );
    return all.find(
      (h) => h.json?.transaction_ref === ref && h.json?.status === 'OTHER_VASP_APPROVED',
    )!.json;
  };

  beforeAll(async () => {
    expect((await api('POST', '/travelrule/webhook', { url: hooks.url })).json.code).toBe(0);
  });

  it('the account create_tx named, approved on the callback: tx_status and the webhook carry it, not differing', async () => {
    const ref = 'wd-payee-same';
    const id = await acceptedWithdrawal(ref, PEER_UID);
    const sent = await peer.waitForTransfer('/trp/inquiry', id);
    // Before the approval: no address yet, nothing to compare.
    expect(await statusOf(ref)).toMatchObject({
      status: 'OTHER_VASP_PENDING',
      beneficiary_address: null,
      beneficiary_address_differs: null,
    });
    // The peer approves travelBody()'s beneficiary account, in upper-case hex: the same account
    // on an EVM network.
    const upper = '0x' + BENEFICIARY_ADDRESS.slice(2).toUpperCase();
    const reply = await trpSend(
      app.baseUrl,
      new URL(sent!.json.callback).pathname,
      JSON.stringify({ approved: { address: upper, callback: `${peer.base}/cb/confirmation` } }),
      { requestId: id },
    );
    expect(reply.status).toBe(204);
    expect(await statusOf(ref)).toMatchObject({
      status: 'WAITING_TX_HASH',
      beneficiary_address: BENEFICIARY_ADDRESS.toLowerCase(),
      beneficiary_address_differs: false,
    });
    const body = await approvedHook(ref);
    expect(body).toEqual({
      transaction_ref: ref,
      status: 'OTHER_VASP_APPROVED',
      beneficiary_address: BENEFICIARY_ADDRESS.toLowerCase(),
      beneficiary_address_differs: false,
    });
    expectWebhookContract('travelRule', [body]);
    // Paid and confirmed: the address stays.
    await api('POST', '/travelrule/send_tx_hash', {
      transaction_ref: ref,
      transaction_hash: '0x' + '5e'.repeat(32),
    });
    expect(await statusOf(ref)).toMatchObject({
      status: 'COMPLETED',
      beneficiary_address: BENEFICIARY_ADDRESS.toLowerCase(),
      beneficiary_address_differs: false,
    });
  });

  it('another address, approved in the inquiry response: taken, and flagged as differing in tx_status and the webhook', async () => {
    const ref = 'wd-payee-other';
    const id = await acceptedWithdrawal(ref, APPROVING_UID);
    const view = await eventually(
      () => statusOf(ref),
      (v) => v.status === 'WAITING_TX_HASH',
      30_000,
    );
    expect(view).toMatchObject({
      beneficiary_address: APPROVED_ELSEWHERE.toLowerCase(),
      beneficiary_address_differs: true,
    });
    expect(view.history.map((h: any) => h.status)).toContain('OTHER_VASP_APPROVED');
    const body = await approvedHook(ref);
    expect(body).toEqual({
      transaction_ref: ref,
      status: 'OTHER_VASP_APPROVED',
      beneficiary_address: APPROVED_ELSEWHERE.toLowerCase(),
      beneficiary_address_differs: true,
    });
    expectWebhookContract('travelRule', [body]);
    // Stored in clear as before; the accounts create_tx named stay sealed.
    const [row] =
      await db.sql`select beneficiary_address from travelrule_transactions where id = ${id}`;
    expect(row!.beneficiary_address).toBe(APPROVED_ELSEWHERE.toLowerCase());
  });

  it('a deposit shows the address its originator was told, with nothing to compare', async () => {
    const sent = await sendInquiry(app.baseUrl, INBOUND_TOKEN, {
      callback: `${peer.base}/cb/payee-deposit`,
      vaspName: 'Independent Originator AG',
    });
    expect(sent.status).toBe(200);
    expect(await statusOf(sent.ref)).toMatchObject({
      direction: 'incoming',
      beneficiary_address: null,
      beneficiary_address_differs: null,
    });
    await ops(`/transactions/${await idOf(sent.ref)}/accept`);
    const deposit = '0x' + '7d'.repeat(20);
    expect(
      (
        await api('POST', '/travelrule/send_address', {
          transaction_ref: sent.ref,
          address: deposit,
        })
      ).json.code,
    ).toBe(0);
    expect(await statusOf(sent.ref)).toMatchObject({
      status: 'WAITING_FOR_CONFIRMATION',
      beneficiary_address: deposit,
      beneficiary_address_differs: null,
    });
  });
});

describe('a beneficiary that asks for time', () => {
  it('is left alone as long as its Retry-After asks, then asked again under the same request-identifier, the attempts counted on', async () => {
    const ref = 'wd-interop-busy';
    const id = await acceptedWithdrawal(ref, BUSY_UID);
    const first = await peer.waitFor('/trp/busy-inquiry');
    const [message] = await db.sql<{ id: string }[]>`
      select id::text from travelrule_messages where transaction_id = ${id} and kind = 'trp_inquiry'`;
    const key = `trm:${message!.id}`;
    // The 429 is recorded; the next attempt is set for two minutes on (graphile-worker's backoff
    // would have asked again after e seconds), with the attempts the first job had left.
    const next = await eventually(
      () =>
        db.sql<{ in_s: number; attempts: number; max_attempts: number }[]>`
          select extract(epoch from j.run_at - now())::float8 as in_s, j.attempts, j.max_attempts
          from graphile_worker._private_jobs j where j.key = ${key}
            and exists (select 1 from travelrule_messages m where m.id = ${message!.id} and m.attempts = 1)`,
      (rows) => rows.length === 1 && rows[0]!.attempts === 0,
      30_000,
    );
    expect(next[0]!.in_s).toBeGreaterThan(60);
    expect(next[0]!.in_s).toBeLessThanOrEqual(120);
    expect(next[0]!.max_attempts).toBe(24);
    expect((await statusOf(ref)).messages).toMatchObject([
      { kind: 'trp_inquiry', status: 'pending', attempts: 1, last_status: 429 },
    ]);
    // The old job ends as done (graphile-worker completes it in a batch a moment after the task
    // returns), not left failed on the operations page.
    expect(
      await eventually(
        () => db.sql`select 1 from graphile_worker._private_jobs j join travelrule_messages m
          on j.payload->>'message_id' = m.id::text where m.id = ${message!.id} and j.key is null`,
        (rows) => rows.length === 0,
        10_000,
      ),
    ).toHaveLength(0);
    // Two minutes pass: the next attempt goes, under the same request-identifier.
    await db.sql`update graphile_worker._private_jobs set run_at = now() where key = ${key}`;
    const messages = await eventually(
      async () => (await statusOf(ref)).messages,
      (m) => m[0]?.status === 'sent',
      30_000,
    );
    expect(messages).toMatchObject([{ kind: 'trp_inquiry', status: 'sent', attempts: 2 }]);
    const hits = peer.hits.filter((h) => h.path === '/trp/busy-inquiry');
    expect(hits).toHaveLength(2);
    expect(hits[1]!.headers['request-identifier']).toBe(first.headers['request-identifier']);
  });
});

describe('a message whose answer never came back', () => {
  const messagesOf = async (ref: string) =>
    (await statusOf(ref)).messages.map((m: any) => ({
      kind: m.kind,
      status: m.status,
      last_error: m.last_error,
    }));

  it('an inquiry the beneficiary answered over the callback counts as delivered, not "not sent"', async () => {
    const ref = 'wd-stalled-inquiry';
    const id = await acceptedWithdrawal(ref, SILENT_UID);
    // The beneficiary has the inquiry but its answer to the POST never comes; it approves on the
    // callback the inquiry named, as the protocol lets it.
    const sent = await peer.waitFor('/trp/silent-inquiry');
    const approved = await trpSend(
      app.baseUrl,
      new URL(sent.json.callback).pathname,
      JSON.stringify({
        approved: { address: BENEFICIARY_ADDRESS, callback: `${peer.base}/cb/confirmation` },
      }),
      { requestId: id },
    );
    expect(approved.status).toBe(204);
    expect(
      await eventually(
        () => messagesOf(ref),
        (m) => m[0]?.status !== 'pending',
        30_000,
      ),
    ).toEqual([{ kind: 'trp_inquiry', status: 'sent', last_error: null }]);
    expect((await statusOf(ref)).status).toBe('WAITING_TX_HASH');
  });

  it('an approval the originator confirmed counts as delivered, not "not sent"', async () => {
    const transfer = 'xfer-stalled-resolution';
    const inquiry = await sendInquiry(app.baseUrl, INBOUND_TOKEN, {
      callback: `${peer.base}/cb/silent-resolution`,
      vaspName: 'Independent Originator AG',
      requestId: transfer,
    });
    expect(inquiry.status).toBe(200);
    const ref = `trp-${transfer}`;
    await ops(`/transactions/${await idOf(ref)}/accept`);
    await api('POST', '/travelrule/send_address', {
      transaction_ref: ref,
      address: BENEFICIARY_ADDRESS,
    });
    // The originator has the approval (its confirmation callback is in it and nowhere else) but
    // its answer never comes; it confirms with the txid.
    const approval = await peer.waitFor('/cb/silent-resolution');
    const confirmed = await trpSend(
      app.baseUrl,
      new URL(approval.json.approved.callback).pathname,
      `{"txid":"0x${'ef'.repeat(32)}"}`,
      { requestId: transfer },
    );
    expect(confirmed.status).toBe(204);
    expect(
      await eventually(
        () => messagesOf(ref),
        (m) => m[0]?.status !== 'pending',
        30_000,
      ),
    ).toEqual([{ kind: 'trp_resolution', status: 'sent', last_error: null }]);
    expect((await statusOf(ref)).status).toBe('TRANSACTION_CONFIRMED');
  });

  it('an inquiry whose transfer an operator cancels meanwhile is "not sent again", the peer may have it', async () => {
    const ref = 'wd-stalled-then-cancelled';
    const id = await acceptedWithdrawal(ref, SILENT_UID);
    // The beneficiary has the inquiry; its answer never comes (the attempt times out after 2 s).
    await peer.waitFor('/trp/silent-inquiry');
    await eventually(
      () => messagesOf(ref),
      (m) => /no response within/.test(m[0]?.last_error ?? ''),
      30_000,
    );
    expect((await ops(`/transactions/${id}/cancel`, { reason: 'customer withdrew' })).status).toBe(
      200,
    );
    const settled = await eventually(
      () => messagesOf(ref),
      (m) => m[0]?.status !== 'pending',
      30_000,
    );
    expect(settled[0]).toMatchObject({ kind: 'trp_inquiry', status: 'cancelled' });
    expect(settled[0].last_error).toMatch(
      /^not sent again: the transaction is REJECTED; an attempt at \S+Z went out whole and its answer was lost: the other VASP may have it$/,
    );
  });
});

describe('identity discovery', () => {
  it('answers GET /identity at the host of its TRP endpoint with its name, LEI and certificate, to anyone', async () => {
    // As TRP's client finds it: the path of the endpoint's URL replaced by /identity.
    const url = new URL('/identity', app.baseUrl);
    const res = await call(app.baseUrl, 'GET', url.pathname);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['api-version']).toBe('3.1.0');
    expect(Object.keys(res.json).sort()).toEqual(['lei', 'name', 'x509']);
    expect(res.json.name).toBe('Tollgate VASP');
    expect(res.json.lei).toBe('529900T8BM49AURSDO55');
    // The certificate Tollgate presents on its TRP requests: the one a counterparty pins.
    expect(new X509Certificate(res.json.x509).fingerprint256).toBe(clientFingerprint);
    expect(res.json.x509).toMatch(
      /^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n$/,
    );
  });
});

describe('Travel Addresses', () => {
  it('sends the inquiry where the beneficiary Travel Address given to create_tx points', async () => {
    const address = encodeTravelAddress(`${peer.tlsBase}/trp/ta-inquiry`);
    expect(address).toMatch(/^ta/);
    const ref = 'wd-travel-address';
    // No beneficiary_vasp_id: the Travel Address alone says where the inquiry goes.
    expect(
      (
        await api(
          'POST',
          '/travelrule/create_tx',
          travelBody(ref, { beneficiary_travel_address: address }),
        )
      ).json.data,
    ).toBe('PENDING');
    expect((await ops(`/transactions/${await idOf(ref)}/accept`)).json.data).toEqual({
      status: 'OTHER_VASP_PENDING',
    });
    const sent = await peer.waitFor('/trp/ta-inquiry?t=i');
    // Over https, Tollgate presents its TLS client certificate (TRP's mutual TLS).
    expect(sent.clientCert).toBe(clientFingerprint);
    expect(Object.keys(sent.json)).toEqual(['asset', 'amount', 'callback', 'IVMS101']);
    expect((await statusOf(ref)).status).toBe('OTHER_VASP_PENDING');
    // A malformed Travel Address is refused at create_tx, naming the field.
    const bad = await api(
      'POST',
      '/travelrule/create_tx',
      // The last character changed (to one it is not): the checksum no longer matches.
      travelBody('wd-bad-ta', {
        beneficiary_travel_address: address.slice(0, -1) + (address.endsWith('x') ? 'y' : 'x'),
      }),
    );
    expect(bad.json).toMatchObject({
      code: 5000,
      message: /^beneficiary_travel_address: not a valid Travel Address/,
    });
  });

  it('issues a Travel Address for a customer; an inquiry on it belongs to that key and account', async () => {
    const issue = () =>
      api('POST', '/travelrule/travel_address', { network: 'eth', address: BENEFICIARY_ADDRESS });
    const issued = (await issue()).json.data;
    expect(issued).toMatchObject({
      travel_address: expect.stringMatching(/^ta/),
      network: 'eth',
      address: BENEFICIARY_ADDRESS.toLowerCase(),
    });
    expect((await issue()).json.data.travel_address).toBe(issued.travel_address);
    expect(
      (await api('POST', '/travelrule/travel_address', { network: 'eth', address: 'nope' })).json
        .code,
    ).toBe(5002);
    // The sending VASP reads the Travel Address as the protocol says and POSTs its inquiry there.
    const target = decodeTravelAddress(issued.travel_address);
    if (!target.ok) throw new Error(target.reason);
    expect(target.url.searchParams.get('t')).toBe('i');
    const path = `${target.url.pathname}${target.url.search}`;
    const parties = travelBody('ignored');
    const body = (beneficiaryAccounts?: string[]) =>
      inquiryText({
        asset: { slip0044: 60 },
        amount: '0.5',
        callback: `${peer.base}/cb/ta`,
        originatorPersons: parties.originator.persons,
        originatorAccounts: parties.originator.accountNumber,
        beneficiaryPersons: parties.beneficiary.persons,
        ...(beneficiaryAccounts ? { beneficiaryAccounts } : {}),
      });
    const other = await trpSend(app.baseUrl, path, body(['0x' + '12'.repeat(20)]));
    expect(other.status).toBe(400);
    expect(other.json.message).toMatch(/not the account of this Travel Address/);
    const sent = await trpSend(app.baseUrl, path, body(), { requestId: 'ta-transfer-1' });
    expect(sent.status).toBe(200);
    const [row] = await db.sql`
      select api_key_id::text, status, beneficiary_address, counterparty_vasp_id
      from travelrule_transactions where transaction_ref = 'trp-ta-transfer-1'`;
    expect(row).toEqual({
      api_key_id: key.id,
      status: 'PENDING',
      beneficiary_address: BENEFICIARY_ADDRESS.toLowerCase(),
      counterparty_vasp_id: null,
    });
    // A token changed by one character names nobody.
    const token = target.url.pathname.split('/').at(-1)!;
    const changed = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    expect((await trpSend(app.baseUrl, path.replace(token, changed), body())).status).toBe(404);
  });

  it("takes an LNURL or a ta… address as a directory entry's TRP endpoint", async () => {
    const lnurl =
      'LNURL1DP68GURN8GHJ7MMSV4H8VCTNWQH8GETNWSKKUET59E5K7TE3XGEN7ARPVU7KJMN3W45HY7GF5KZ53';
    const v = await upsertVasp(
      db.sql,
      { name: 'Lnurl VASP', website: 'https://lnurl.example', trp_endpoint: lnurl },
      'cli',
    );
    expect(v.trp_endpoint).toBe(lnurl);
  });
});

describe('without the development setting, personal data goes over https only', () => {
  let strict: Awaited<ReturnType<typeof startTestAppliance>>;
  beforeAll(async () => {
    strict = await startTestAppliance(
      db.url,
      { TOLLGATE_TRAVEL_RULE_ALLOW_HTTP_LOOPBACK: 'false' },
      { api: true, worker: false, indexer: false, devChain: false },
    );
  }, 60_000);
  afterAll(async () => {
    await strict?.stop();
  });

  it('refuses a plain-http callback and a plain-http travel rule webhook; https is taken', async () => {
    const body = (callback: string) =>
      inquiryText({
        asset: { slip0044: 60 },
        amount: '1',
        callback,
        originatorAccounts: ['0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'],
        beneficiaryAccounts: [BENEFICIARY_ADDRESS],
      });
    const plain = await trpSend(
      strict.baseUrl,
      `/trp/v3/inquiries/${INBOUND_TOKEN}`,
      body(`${peer.base}/cb/plain`),
    );
    expect(plain.status).toBe(400);
    expect(plain.json.message).toBe('callback: must be https: it carries personal data');
    const secure = await trpSend(
      strict.baseUrl,
      `/trp/v3/inquiries/${INBOUND_TOKEN}`,
      body('https://127.0.0.1:9/cb'),
    );
    expect(secure.status).toBe(200);

    const hook = await call(strict.baseUrl, 'POST', '/v2/travelrule/webhook', {
      headers: { apikey: key.apikey },
      body: { url: `${peer.base}/hook` },
    });
    expect(hook.json).toMatchObject({ code: 5004, message: /must be https/ });
  });
});

describe('counterparty URLs have an allow-list of their own', () => {
  let own: TestDatabase;
  let sep: Awaited<ReturnType<typeof startTestAppliance>>;
  beforeAll(async () => {
    own = await freshDatabase();
    await upsertVasp(
      own.sql,
      {
        uid: PEER_UID,
        name: 'Independent Originator AG',
        website: 'https://independent.example',
        trp_endpoint: `${peer.base}/trp/inquiry`,
      },
      'cli',
    );
    // Loopback is open for the operator's own webhooks, not for counterparties' URLs.
    sep = await startTestAppliance(
      own.url,
      { TOLLGATE_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8', TOLLGATE_TRP_ALLOW_CIDRS: '' },
      { api: true, worker: true, indexer: false, devChain: false },
    );
  }, 60_000);
  afterAll(async () => {
    await sep?.stop();
    await own?.drop();
  });

  it('does not send an inquiry into a range only the webhook list opens', async () => {
    const k = await createApiKey(own.sql, 'backend');
    const r = await createOperator(own.sql, 'rita.reviewer', 'reviewer');
    const auth = {
      authorization: 'Basic ' + Buffer.from(`${r.login}:${r.password}`).toString('base64'),
    };
    const before = peer.hits.length;
    const ref = 'wd-separate-lists';
    await call(sep.baseUrl, 'POST', '/v2/travelrule/create_tx', {
      headers: { apikey: k.apikey },
      body: travelBody(ref, { beneficiary_vasp_id: PEER_UID }),
    });
    const [row] = await own.sql<{ id: string }[]>`
      select id from travelrule_transactions where transaction_ref = ${ref}`;
    await call(sep.baseUrl, 'POST', `/ops/travelrule/transactions/${row!.id}/accept`, {
      headers: auth,
      body: {},
    });
    const status = await eventually(
      async () =>
        (
          await call(sep.baseUrl, 'GET', `/v2/travelrule/tx_status?transaction_ref=${ref}`, {
            headers: { apikey: k.apikey },
          })
        ).json.data,
      (s) => s.status === 'OTHER_VASP_REJECTED',
      30_000,
    );
    expect(status.counterparty_reason).toMatch(/may not be sent to/);
    expect(peer.hits.length).toBe(before);
  });
});

describe('companies as parties (IVMS101 legal persons)', () => {
  /** GLEIF's own LEI (its ISO 17442 check digits hold). */
  const LEI = '506700GE1G29325QX363';
  const company = (name: string) => ({
    legalPerson: {
      name: { nameIdentifier: [{ legalPersonName: name, legalPersonNameIdentifierType: 'LEGL' }] },
      geographicAddress: [
        {
          addressType: 'BIZZ',
          addressLine: ['1 Harbour Way'],
          townName: 'London',
          country: 'GB',
        },
      ],
      customerNumber: 'NW-0001',
      nationalIdentification: { nationalIdentifier: LEI, nationalIdentifierType: 'LEIX' },
      countryOfRegistration: 'GB',
    },
  });

  beforeAll(async () => {
    expect((await api('POST', '/travelrule/webhook', { url: hooks.url })).json.code).toBe(0);
  });

  it("a deposit whose originator and beneficiary are companies: taken, shown to the operator, and handed to the backend's webhook", async () => {
    const transfer = 'xfer-legal-persons-1';
    const inquiry = await trpSend(
      app.baseUrl,
      `/trp/v3/inquiries/${INBOUND_TOKEN}`,
      inquiryText({
        asset: { slip0044: 60 },
        amount: '3',
        callback: `${peer.base}/cb/legal`,
        originatorPersons: [company('Northwind Holdings Ltd')],
        originatorAccounts: ['0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'],
        beneficiaryPersons: [
          {
            legalPerson: {
              name: {
                nameIdentifier: [
                  {
                    legalPersonName: 'Quillfeather Trading GmbH',
                    legalPersonNameIdentifierType: 'LEGL',
                  },
                ],
              },
            },
          },
        ],
      }),
      { requestId: transfer },
    );
    expect(inquiry.status, inquiry.text).toBe(200);
    const ref = `trp-${transfer}`;
    expect((await statusOf(ref)).status).toBe('PENDING');
    const id = await idOf(ref);
    const detail = await call(app.baseUrl, 'GET', `/ops/travelrule/transactions/${id}`, {
      headers: reviewer,
    });
    expect(detail.text).toContain('Northwind Holdings Ltd');
    expect(detail.text).toContain(LEI);

    expect((await ops(`/transactions/${id}/accept`)).json.data).toEqual({
      status: 'WAITING_ADDRESS_DATA',
    });
    const all = await hooks.waitFor((r) =>
      r.some((h) => h.json?.transaction_ref === ref && h.json?.status === 'WAITING_ADDRESS_DATA'),
    );
    const body = all.find(
      (h) => h.json?.transaction_ref === ref && h.json?.status === 'WAITING_ADDRESS_DATA',
    )!.json;
    expect(body.persons).toEqual([
      {
        legalPerson: {
          name: {
            nameIdentifier: [
              {
                legalPersonName: 'Quillfeather Trading GmbH',
                legalPersonNameIdentifierType: 'LEGL',
              },
            ],
          },
        },
      },
    ]);
    expectWebhookContract('travelRule', [body]);
  });

  it('a withdrawal for a corporate customer: the inquiry carries it as IVMS101 writes a legal person', async () => {
    const ref = 'wd-legal-person';
    const body = travelBody(ref, { beneficiary_vasp_id: PEER_UID }) as any;
    body.originator.persons = [company('Northwind Holdings Ltd')];
    const created = await api('POST', '/travelrule/create_tx', body);
    expect(created.json.code, created.text).toBe(0);
    const id = await idOf(ref);
    await ops(`/transactions/${id}/accept`);
    const sent = await peer.waitForTransfer('/trp/inquiry', id);
    expect(sent!.json.IVMS101.originator.originatorPersons).toEqual([
      company('Northwind Holdings Ltd'),
    ]);
  });
});

describe('what a peer gets wrong is refused, not applied', () => {
  /** The peer's inquiry for a deposit of 1 ETH, travelBody()'s parties unless `more` says. */
  const depositInquiry = (transfer: string, callback: string, more: Partial<InquiryParts> = {}) => {
    const parties = travelBody('ignored');
    return trpSend(
      app.baseUrl,
      `/trp/v3/inquiries/${INBOUND_TOKEN}`,
      inquiryText({
        asset: { slip0044: 60 },
        amount: '1',
        callback,
        originatorPersons: parties.originator.persons,
        originatorAccounts: parties.originator.accountNumber,
        beneficiaryPersons: parties.beneficiary.persons,
        ...more,
      }),
      { requestId: transfer },
    );
  };

  /** A deposit from the peer, accepted by the operator and given an address by the backend. */
  async function approvedDeposit(transfer: string, callback: string): Promise<string> {
    const inquiry = await depositInquiry(transfer, callback);
    expect(inquiry.status, inquiry.text).toBe(200);
    const ref = `trp-${transfer}`;
    await ops(`/transactions/${await idOf(ref)}/accept`);
    const sent = await api('POST', '/travelrule/send_address', {
      transaction_ref: ref,
      address: BENEFICIARY_ADDRESS,
    });
    expect(sent.json.code, sent.text).toBe(0);
    return ref;
  }

  it("an approval posted to one withdrawal's callback under another's request-identifier", async () => {
    const a = await acceptedWithdrawal('wd-mixed-a', PEER_UID);
    const b = await acceptedWithdrawal('wd-mixed-b', PEER_UID);
    const [toA] = [
      await peer.waitForTransfer('/trp/inquiry', a),
      await peer.waitForTransfer('/trp/inquiry', b),
    ];
    const approval = JSON.stringify({
      approved: { address: APPROVED_ELSEWHERE, callback: `${peer.base}/cb/mixed` },
    });
    // The peer mixes them up: B's identifier on A's callback. Applied, it paid A to B's address.
    const mixed = await trpSend(app.baseUrl, new URL(toA!.json.callback).pathname, approval, {
      requestId: b,
    });
    expect(mixed.status).toBe(400);
    expect(mixed.json.message).toBe(
      `request-identifier: this callback is of the transfer ${a}; every message of a transfer carries its request-identifier`,
    );
    expect((await statusOf('wd-mixed-a')).status).toBe('OTHER_VASP_PENDING');
    expect((await statusOf('wd-mixed-b')).status).toBe('OTHER_VASP_PENDING');
    // Under its own identifier (any letter case), it is taken.
    const right = await trpSend(app.baseUrl, new URL(toA!.json.callback).pathname, approval, {
      requestId: a.toUpperCase(),
    });
    expect(right.status).toBe(204);
    expect((await statusOf('wd-mixed-a')).status).toBe('WAITING_TX_HASH');
  });

  it("a confirmation posted to one deposit's callback under another's request-identifier; a txid in capitals is the same hash", async () => {
    const one = await approvedDeposit('xfer-mixed-1', `${peer.base}/cb/mixed-1`);
    const two = await approvedDeposit('xfer-mixed-2', `${peer.base}/cb/mixed-2`);
    const confirmationsOf = async (path: string) =>
      new URL((await peer.waitFor(path)).json.approved.callback).pathname;
    const toOne = await confirmationsOf('/cb/mixed-1');
    await confirmationsOf('/cb/mixed-2');
    const txid = `0x${'AB'.repeat(32)}`;
    const mixed = await trpSend(app.baseUrl, toOne, JSON.stringify({ txid }), {
      requestId: 'xfer-mixed-2',
    });
    expect(mixed.status).toBe(400);
    expect(mixed.json.message).toMatch(
      /^request-identifier: this callback is of the transfer xfer-mixed-1;/,
    );
    expect((await statusOf(one)).status).toBe('WAITING_FOR_CONFIRMATION');
    expect((await statusOf(two)).status).toBe('WAITING_FOR_CONFIRMATION');
    const right = await trpSend(app.baseUrl, toOne, JSON.stringify({ txid }), {
      requestId: 'xfer-mixed-1',
    });
    expect(right.status).toBe(204);
    // Hex in one letter case, as addresses are: the same hash again in lower case is a repeat.
    expect((await statusOf(one)).tx_hash).toBe(txid.toLowerCase());
    const again = await trpSend(app.baseUrl, toOne, JSON.stringify({ txid: txid.toLowerCase() }), {
      requestId: 'xfer-mixed-1',
    });
    expect(again.status).toBe(204);
  });

  it('a callback we could never post to is refused when it is given, in an inquiry or an approval', async () => {
    const inquiry = await depositInquiry('xfer-private-callback', 'https://10.1.2.3/cb');
    expect(inquiry.status).toBe(400);
    expect(inquiry.json.message).toBe(
      'callback: 10.1.2.3 is an address TRP messages may not be sent to',
    );
    expect(
      await db.sql`select 1 from travelrule_transactions where transaction_ref = 'trp-xfer-private-callback'`,
    ).toHaveLength(0);

    const id = await acceptedWithdrawal('wd-private-callback', PEER_UID);
    const sent = await peer.waitForTransfer('/trp/inquiry', id);
    const approval = await trpSend(
      app.baseUrl,
      new URL(sent!.json.callback).pathname,
      JSON.stringify({
        approved: { address: BENEFICIARY_ADDRESS, callback: 'https://10.1.2.3/cb' },
      }),
      { requestId: id },
    );
    expect(approval.status).toBe(400);
    expect(approval.json.message).toBe(
      'approved.callback: 10.1.2.3 is an address TRP messages may not be sent to',
    );
    expect((await statusOf('wd-private-callback')).status).toBe('OTHER_VASP_PENDING');
  });

  it('an approval the originator refuses is said on the deposit, which an operator can then cancel', async () => {
    const ref = await approvedDeposit('xfer-refused-approval', `${peer.base}/cb/refuse`);
    // A 422 is final: no second attempt.
    const status = await eventually(
      () => statusOf(ref),
      (s) => s.counterparty_reason !== null,
      30_000,
    );
    expect(status).toMatchObject({
      status: 'WAITING_FOR_CONFIRMATION',
      counterparty_reason:
        'our approval did not reach the originator VASP, so it cannot confirm the transfer: peer answered 422: unknown transfer',
    });
    const cancelled = await ops(`/transactions/${await idOf(ref)}/cancel`, {
      reason: 'the originator never got our approval',
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect((await statusOf(ref)).status).toBe('REJECTED');
    // Nothing is sent for it: TRP has no message taking an approval back.
    expect(peer.hits.filter((h) => h.path === '/cb/refuse')).toHaveLength(1);
  });

  it("takes an inquiry whose originator names no wallet address (IVMS101's accountNumber is 0..n)", async () => {
    const inquiry = await depositInquiry('xfer-pooled-wallet', `${peer.base}/cb/pooled`, {
      originatorAccounts: undefined,
      beneficiaryAccounts: [BENEFICIARY_ADDRESS],
    });
    expect(inquiry.status, inquiry.text).toBe(200);
    expect((await statusOf('trp-xfer-pooled-wallet')).status).toBe('PENDING');
  });
});
