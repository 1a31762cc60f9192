import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { createOperator } from '../src/operators/operators.js';
import { upsertVasp } from '../src/travelrule/vasps.js';
import { startTestAppliance } from './helpers/appliance.js';
import { randomAddress } from './helpers/chain.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { call } from './helpers/http.js';
import { TRP_API_VERSION, trpSend } from './helpers/trp-peer.js';
import { travelBody } from './helpers/travelrule.js';

/**
 * A beneficiary VASP that took the inquiry (2xx) and answered it in a way Tollgate cannot take:
 * a body that is not JSON, another request-identifier than the inquiry's, an approval the
 * transfer cannot take (an address of another network). Found by an outside probe: the first two
 * ended the transfer as "did not reach the beneficiary VASP" and refused the peer's later
 * approval; the last was dropped with a log line only. Now the message is sent, says what was
 * not taken, and the transfer waits for the resolution on its callback, which is taken. The peer
 * is written from the protocol (helpers/trp-peer.ts); a real appliance (API and worker) and a
 * real Postgres.
 */

interface Inquiry {
  path: string;
  requestId: string;
  callback: string;
}

let db: TestDatabase;
let peer: Server;
let peerUrl: string;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let apikey: string;
let reviewer: Record<string, string>;
const inquiries: Inquiry[] = [];

/** The peer's answer to an inquiry on each path (its status, headers and body). */
const ANSWERS: Record<string, (requestId: string) => [number, Record<string, string>, string]> = {
  '/not-json': (id) => [200, { 'request-identifier': id }, 'thank you, received'],
  '/other-id': () => [
    200,
    { 'request-identifier': 'not-the-one-sent', 'content-type': 'application/json' },
    JSON.stringify({ version: TRP_API_VERSION }),
  ],
  '/bad-approval': (id) => [
    200,
    { 'request-identifier': id, 'content-type': 'application/json' },
    JSON.stringify({
      approved: {
        address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
        callback: `${peerUrl}/confirm`,
      },
    }),
  ],
};

beforeAll(async () => {
  peer = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const requestId = String(req.headers['request-identifier'] ?? '');
    const answer = ANSWERS[req.url ?? ''];
    if (!answer) return void res.writeHead(204, { 'request-identifier': requestId }).end();
    inquiries.push({
      path: req.url!,
      requestId,
      callback: (JSON.parse(text) as { callback: string }).callback,
    });
    const [status, headers, body] = answer(requestId);
    res.writeHead(status, { 'api-version': TRP_API_VERSION, ...headers }).end(body);
  });
  await new Promise<void>((r) => peer.listen(0, '127.0.0.1', r));
  peerUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
  db = await freshDatabase();
  apikey = (await createApiKey(db.sql, 'answers')).apikey;
  const op = await createOperator(db.sql, 'rita.reviewer', 'reviewer');
  reviewer = {
    authorization: 'Basic ' + Buffer.from(`${op.login}:${op.password}`).toString('base64'),
  };
  for (const [i, path] of Object.keys(ANSWERS).entries())
    await upsertVasp(
      db.sql,
      {
        uid: `6f1c1f0e-7a41-4c55-9d7e-2b7f4f0f0b0${i}`,
        name: `Peer ${path}`,
        website: 'https://peer.example',
        trp_endpoint: `${peerUrl}${path}`,
      },
      'cli',
    );
  app = await startTestAppliance(
    db.url,
    {},
    { api: true, worker: true, indexer: false, devChain: false },
  );
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await new Promise((r) => peer?.close(r));
  await db?.drop();
});

const statusOf = async (ref: string) =>
  (
    await call(app.baseUrl, 'GET', `/v2/travelrule/tx_status?transaction_ref=${ref}`, {
      headers: { apikey },
    })
  ).json.data;

describe('an inquiry the beneficiary VASP took, its answer not readable or not takeable', () => {
  it.each([
    ['/not-json', 'its answer is not JSON, not read'],
    ['/other-id', 'its answer carries another request-identifier, not read'],
    [
      '/bad-approval',
      'the resolution in its answer was not taken: approved.address: not a valid eth address',
    ],
  ])(
    '%s: sent, saying so; the transfer waits for the callback, and takes it',
    async (path, note) => {
      const i = Object.keys(ANSWERS).indexOf(path);
      const ref = `wd-answer-${i}`;
      const created = await call(app.baseUrl, 'POST', '/v2/travelrule/create_tx', {
        headers: { apikey },
        body: travelBody(ref, { beneficiary_vasp_id: `6f1c1f0e-7a41-4c55-9d7e-2b7f4f0f0b0${i}` }),
      });
      expect(created.json.data).toBe('PENDING');
      const [row] = await db.sql<{ id: string }[]>`
      select id from travelrule_transactions where transaction_ref = ${ref}`;
      const accepted = await call(
        app.baseUrl,
        'POST',
        `/ops/travelrule/transactions/${row!.id}/accept`,
        { headers: reviewer, body: {} },
      );
      expect(accepted.json.data).toEqual({ status: 'OTHER_VASP_PENDING' });
      const sent = await eventually(
        () => statusOf(ref),
        (s) => s.messages[0]?.status !== 'pending',
        30_000,
      );
      expect(sent.status).toBe('OTHER_VASP_PENDING');
      expect(sent.messages).toMatchObject([
        {
          kind: 'trp_inquiry',
          status: 'sent',
          attempts: 1,
          last_status: 200,
          last_error: `sent; ${note}; waiting for the resolution on the callback`,
        },
      ]);
      // The peer approves on the callback the inquiry gave it, as the protocol lets it.
      const inquiry = inquiries.find((q) => q.path === path)!;
      const approval = await trpSend(
        new URL(inquiry.callback).origin,
        new URL(inquiry.callback).pathname,
        JSON.stringify({ approved: { address: randomAddress(), callback: `${peerUrl}/confirm` } }),
        { requestId: inquiry.requestId },
      );
      expect(approval.status).toBe(204);
      expect((await statusOf(ref)).status).toBe('WAITING_TX_HASH');
    },
  );
});
