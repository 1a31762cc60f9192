import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { openPool } from '../src/db/index.js';
import { createOperator } from '../src/operators/operators.js';
import { upsertVasp } from '../src/travelrule/vasps.js';
import { startTestAppliance } from './helpers/appliance.js';
import { mutualTlsTrpListener, selfSignedLoopback } from './helpers/certs.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { call } from './helpers/http.js';
import { BENEFICIARY_ADDRESS, travelBody } from './helpers/travelrule.js';
import { inquiryText, trpSend } from './helpers/trp-peer.js';

/**
 * Mutual TLS with a counterparty written from the protocol (helpers/trp-peer.ts and the https
 * server below), not from Tollgate's TRP module: a self-signed certificate of its own, which the
 * directory pins, asking Tollgate for its client certificate, and presenting its own on every
 * message it sends to Tollgate's TRP listener. Client certificates are required, as by default.
 */

interface Hit {
  path: string;
  clientCert: string | undefined;
  json: any;
}

interface Pems {
  cert: string;
  key: string;
}

const PEER_UID = '5e5e5e5e-0000-4000-8000-000000000001';
const INBOUND_TOKEN = 'independent-peer-token-0123456789abcdef';

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let trpBase: string;
let key: { apikey: string };
let reviewer: Record<string, string>;
let peerCert: Pems & { fingerprint: string };
let ourFingerprint: string;
let peerServer: Server;
let peerBase: string;
const hits: Hit[] = [];

const api = (method: string, path: string, body?: object) =>
  call(app.baseUrl, method, `/v2${path}`, {
    headers: { apikey: key.apikey },
    ...(body ? { body } : {}),
  });
const ops = (method: string, path: string, body?: object) =>
  call(app.baseUrl, method, `/ops/travelrule${path}`, {
    headers: reviewer,
    ...(body ? { body } : {}),
  });
const statusOf = async (ref: string): Promise<string | undefined> =>
  (await api('GET', `/travelrule/tx_status?transaction_ref=${encodeURIComponent(ref)}`)).json.data
    ?.status;
const waitFor = (path: string) =>
  eventually(
    async () => hits.find((h) => h.path === path),
    (h) => h !== undefined,
    30_000,
  ) as Promise<Hit>;

beforeAll(async () => {
  db = await freshDatabase();
  key = await createApiKey(db.sql, 'backend');
  const r = await createOperator(db.sql, 'rita.reviewer', 'reviewer');
  reviewer = {
    authorization: 'Basic ' + Buffer.from(`${r.login}:${r.password}`).toString('base64'),
  };

  // The counterparty: asks for a client certificate and records it; answers an inquiry with
  // an approval in the response itself, callbacks with 204.
  peerCert = await selfSignedLoopback('independent-beneficiary.test');
  peerServer = createServer(
    { cert: peerCert.cert, key: peerCert.key, requestCert: true, rejectUnauthorized: false },
    (req, res) => {
      let text = '';
      req.on('data', (d) => (text += d));
      req.on('end', () => {
        const presented = (req.socket as TLSSocket).getPeerCertificate().fingerprint256;
        hits.push({ path: req.url ?? '', clientCert: presented, json: JSON.parse(text || '{}') });
        const headers = {
          'content-type': 'application/json',
          'request-identifier': String(req.headers['request-identifier'] ?? ''),
        };
        if (req.url === '/trp/inquiry')
          return void res.writeHead(200, headers).end(
            JSON.stringify({
              approved: { address: BENEFICIARY_ADDRESS, callback: `${peerBase}/cb/confirmation` },
            }),
          );
        res.writeHead(204, headers).end();
      });
    },
  );
  await new Promise<void>((resolve) => peerServer.listen(0, '127.0.0.1', resolve));
  peerBase = `https://127.0.0.1:${(peerServer.address() as AddressInfo).port}`;

  await upsertVasp(
    db.sql,
    {
      uid: PEER_UID,
      name: 'Independent Beneficiary AG',
      website: 'https://independent.example',
      trp_endpoint: `${peerBase}/trp/inquiry`,
      inbound_token: INBOUND_TOKEN,
      trp_tls_fingerprints: [peerCert.fingerprint],
    },
    'cli',
  );

  const listener = await mutualTlsTrpListener('trp-mtls-');
  ourFingerprint = listener.ours.fingerprint;
  trpBase = listener.trpBase;
  app = await startTestAppliance(
    db.url,
    {
      ...listener.env,
      TOLLGATE_TRAVEL_RULE_ALLOW_HTTP_LOOPBACK: 'false',
    },
    { api: true, worker: true, indexer: false, devChain: false },
  );
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await new Promise<void>((resolve) => peerServer?.close(() => resolve()) ?? resolve());
  await db?.drop();
});

describe('mutual TLS with an independent counterparty', () => {
  it('withdrawal: the inquiry goes to the pinned server with our certificate; its approval in the response applies', async () => {
    const ref = 'wd-mtls-1';
    expect(
      (
        await api(
          'POST',
          '/travelrule/create_tx',
          travelBody(ref, { beneficiary_vasp_id: PEER_UID }),
        )
      ).json.data,
    ).toBe('PENDING');
    const [row] = await db.sql<
      { id: string }[]
    >`select id from travelrule_transactions where transaction_ref = ${ref}`;
    await ops('POST', `/transactions/${row!.id}/accept`, {});
    const inquiry = await waitFor('/trp/inquiry');
    expect(inquiry.clientCert).toBe(ourFingerprint);
    // Our callback points at the mutual-TLS listener.
    expect(inquiry.json.callback.startsWith(`${trpBase}/trp/v3/resolutions/`)).toBe(true);
    expect(
      await eventually(
        () => statusOf(ref),
        (s) => s === 'WAITING_TX_HASH',
        30_000,
      ),
    ).toBe('WAITING_TX_HASH');
    const [applied] =
      await db.sql`select beneficiary_address from travelrule_transactions where id = ${row!.id}`;
    expect(applied!.beneficiary_address).toBe(BENEFICIARY_ADDRESS.toLowerCase());
    await api('POST', '/travelrule/send_tx_hash', {
      transaction_ref: ref,
      transaction_hash: '0x' + 'ab'.repeat(32),
    });
    const confirmation = await waitFor('/cb/confirmation');
    expect(confirmation.clientCert).toBe(ourFingerprint);
    expect(confirmation.json).toEqual({ txid: '0x' + 'ab'.repeat(32) });
  });

  it('deposit: its inquiry and confirmation are taken from its certificate only', async () => {
    const body = inquiryText({
      asset: { slip0044: 60 },
      amount: '0.5',
      callback: `${peerBase}/cb/resolution`,
      originatorAccounts: ['0x' + '12'.repeat(20)],
      beneficiaryAccounts: [BENEFICIARY_ADDRESS],
    });
    const path = `/trp/v3/inquiries/${INBOUND_TOKEN}`;
    // Without a certificate, or with another one, the right token is not enough.
    const none = await trpSend(trpBase, path, body, { requestId: 'dep-none' });
    expect(none.status).toBe(403);
    const stranger = await selfSignedLoopback('stranger.test');
    const other = await trpSend(trpBase, path, body, {
      requestId: 'dep-other',
      clientCert: stranger,
    });
    expect(other.status).toBe(403);
    expect(other.json.message).toMatch(/not pinned for any VASP/);
    // Not served on the API port at all.
    expect((await trpSend(app.baseUrl, path, body, { requestId: 'dep-api' })).status).toBe(404);
    expect(
      await db.sql`select 1 from travelrule_transactions where direction = 'incoming'`,
    ).toHaveLength(0);

    const taken = await trpSend(trpBase, path, body, { requestId: 'dep-1', clientCert: peerCert });
    expect(taken.status).toBe(200);
    expect(taken.json).toEqual({ version: '3.1.0' });
    const [incoming] = await db.sql<
      { id: string; transaction_ref: string }[]
    >`select id, transaction_ref from travelrule_transactions where direction = 'incoming'`;
    expect(incoming!.transaction_ref).toBe('trp-dep-1');
    await ops('POST', `/transactions/${incoming!.id}/accept`, {});
    await api('POST', '/travelrule/send_address', {
      transaction_ref: 'trp-dep-1',
      address: BENEFICIARY_ADDRESS,
    });
    const resolution = await waitFor('/cb/resolution');
    expect(resolution.clientCert).toBe(ourFingerprint);
    const confirmUrl = new URL(resolution.json.approved.callback);
    expect(confirmUrl.origin).toBe(trpBase);

    const forged = await trpSend(
      trpBase,
      confirmUrl.pathname,
      JSON.stringify({ txid: '0x' + 'ee'.repeat(32) }),
      { requestId: 'dep-1', clientCert: stranger },
    );
    expect(forged.status).toBe(403);
    expect(await statusOf('trp-dep-1')).toBe('WAITING_FOR_CONFIRMATION');
    const confirmed = await trpSend(
      trpBase,
      confirmUrl.pathname,
      JSON.stringify({ txid: '0x' + 'cd'.repeat(32) }),
      { requestId: 'dep-1', clientCert: peerCert },
    );
    expect(confirmed.status).toBe(204);
    expect(await statusOf('trp-dep-1')).toBe('TRANSACTION_CONFIRMED');
  });

  it('deposit while the database cannot take writes (a failover): the peer is told to retry, then it is taken', async () => {
    const body = inquiryText({
      asset: { slip0044: 60 },
      amount: '0.25',
      callback: `${peerBase}/cb/resolution`,
      originatorAccounts: ['0x' + '34'.repeat(20)],
      beneficiaryAccounts: [BENEFICIARY_ADDRESS],
    });
    const path = `/trp/v3/inquiries/${INBOUND_TOKEN}`;
    // The appliance's connections to this test's database open again as read-only sessions
    // (this connection, opened before and never cut, can set it back).
    const admin = openPool(db.url, { max: 1 });
    const [{ name }] = (await admin`select current_database() as name`) as unknown as [
      { name: string },
    ];
    const readOnly = async (on: boolean) => {
      await admin.unsafe(
        `alter database "${name}" ${on ? 'set default_transaction_read_only = on' : 'reset default_transaction_read_only'}`,
      );
      await admin`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = ${name} and pid <> pg_backend_pid() and backend_type = 'client backend'`;
    };
    try {
      await readOnly(true);
      try {
        let refused = await trpSend(trpBase, path, body, {
          requestId: 'dep-ro',
          clientCert: peerCert,
        });
        // The first request after the cut may meet a terminated connection: a 503 as well.
        for (let i = 0; i < 5 && refused.json?.code !== 5030; i++)
          refused = await trpSend(trpBase, path, body, {
            requestId: 'dep-ro',
            clientCert: peerCert,
          });
        expect(refused.status).toBe(503);
        expect(refused.headers['retry-after']).toBe('5');
        expect(refused.json).toMatchObject({ code: 5030 });
        expect(refused.text).not.toMatch(/read-only|postgres/i);
      } finally {
        await readOnly(false);
      }
      // Read through the connection that is never cut: the test's own pool was cut just now too,
      // and a query sent on it before its socket's close is seen fails for the test's sake alone.
      expect(
        await admin`select 1 from travelrule_transactions where transaction_ref = 'trp-dep-ro'`,
      ).toHaveLength(0);
      // The peer's retry is taken.
      const taken = await eventually(
        () => trpSend(trpBase, path, body, { requestId: 'dep-ro', clientCert: peerCert }),
        (r) => r.status !== 503,
        10_000,
      );
      expect(taken.status).toBe(200);
      expect(
        await admin`select 1 from travelrule_transactions where transaction_ref = 'trp-dep-ro'`,
      ).toHaveLength(1);
    } finally {
      await admin.end();
    }
  });
});
