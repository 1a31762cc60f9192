import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/api/server.js';
import { parseTravelRuleInput, type NormalisedInput } from '../src/travelrule/ivms101/index.js';
import { type TrpError, TrpRefused, TrpRetryable, trpPost } from '../src/travelrule/trp/client.js';
import { isRetryable } from '../src/errors.js';
import { stringifyWithBigInts } from '../src/json.js';
import {
  TRP_VERSION,
  buildInquiry,
  type Confirmation,
  type InboundInquiry,
  type Resolution,
} from '../src/travelrule/trp/messages.js';
import { TrpHttpError, trpRoutes, type TrpInboundHandlers } from '../src/travelrule/trp/server.js';
import { DtiTable } from '../src/travelrule/trp/assets.js';
import { parseAllowList } from '../src/net/ssrf.js';
import { selfSignedLoopback } from './helpers/certs.js';
import { call } from './helpers/http.js';

/**
 * The TRP layer over real sockets: trpRoutes mounted on a node server, called with trpPost (and
 * with raw requests where trpPost would never send what is tested), plus a scripted peer for
 * the client's error handling, and an HTTPS peer with a self-signed certificate.
 */

const LOOPBACK = parseAllowList(['127.0.0.0/8', '::1/128']);
const TOKEN = 'tok_0123456789abcdef';
const UNKNOWN_TOKEN = 'tok_unknown_0000000000';
const PERSONAL = ['Yılmaz', 'Ayşe', 'Schmidt', 'U09876543', '1985-07-14'];

function outgoing(): NormalisedInput {
  const result = parseTravelRuleInput(
    {
      transaction_ref: 'wd-1',
      transaction_asset: 'ETH',
      transaction_amount: '0.5',
      transaction_asset_decimals: '18',
      originator: {
        persons: [
          {
            naturalPerson: {
              name: {
                nameIdentifier: [
                  {
                    primaryIdentifier: 'Yılmaz',
                    secondaryIdentifier: 'Ayşe',
                    nameIdentifierType: 'LEGL',
                  },
                ],
              },
              dateAndPlaceOfBirth: { dateOfBirth: '1985-07-14', placeOfBirth: 'Lyon' },
              nationalIdentification: {
                nationalIdentifier: 'U09876543',
                nationalIdentifierType: 'CCPT',
                countryOfIssue: 'TR',
              },
            },
          },
        ],
        accountNumber: ['0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'],
      },
      beneficiary: {
        persons: [
          {
            naturalPerson: {
              name: {
                nameIdentifier: [{ primaryIdentifier: 'Schmidt', nameIdentifierType: 'LEGL' }],
              },
            },
          },
        ],
        accountNumber: ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'],
      },
    },
    'create_tx',
  );
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

function inquiryBody(): Record<string, unknown> {
  const tx = outgoing();
  // As it goes on the wire (the amount a JSON number), read back as a plain object.
  return JSON.parse(
    stringifyWithBigInts(
      buildInquiry({
        asset: { slip0044: 60 },
        amount: tx.transaction_amount,
        callback: 'https://vasp-a.example/trp/v3/resolutions/tok_callback_000000',
        originator: tx.originator,
        beneficiary: tx.beneficiary,
        vaspName: 'Alpha Exchange GmbH',
      }),
    ),
  );
}

type Recorded =
  | {
      kind: 'inquiry';
      token: string;
      inquiry: InboundInquiry;
      meta: { requestId: string; extensions: string[] };
    }
  | { kind: 'resolution'; token: string; resolution: Resolution; meta: { requestId: string } }
  | {
      kind: 'confirmation';
      token: string;
      confirmation: Confirmation;
      meta: { requestId: string };
    };

const recorded: Recorded[] = [];

/** Handlers that know one token; another token is unknown (404), "tok_conflict…" is in the wrong state. */
const handlers: TrpInboundHandlers = {
  async inquiry(token, inquiry, meta) {
    if (token === 'tok_explode_0000000000') throw new Error('database went away');
    if (token !== TOKEN) throw new TrpHttpError(404, 'unknown inquiry URL');
    recorded.push({ kind: 'inquiry', token, inquiry, meta });
    return { version: TRP_VERSION };
  },
  async resolution(token, resolution, meta) {
    if (token === 'tok_conflict_000000000')
      throw new TrpHttpError(409, 'the transfer is not waiting for a resolution');
    if (token !== TOKEN) throw new TrpHttpError(404, 'unknown transfer');
    recorded.push({ kind: 'resolution', token, resolution, meta });
  },
  async confirmation(token, confirmation, meta) {
    if (token !== TOKEN) throw new TrpHttpError(404, 'unknown transfer');
    recorded.push({ kind: 'confirmation', token, confirmation, meta });
  },
};

let trp: RunningServer;
let base: string;
/** The peers here are plain http on loopback, allowed only by the development setting. */
const opts = (requestId = randomUUID()) => ({
  timeoutMs: 5000,
  allow: LOOPBACK,
  requestId,
  allowHttpLoopback: true,
});
const headers = (over: Record<string, string> = {}) => ({
  'api-version': '3.1.0',
  'request-identifier': randomUUID(),
  ...over,
});

beforeAll(async () => {
  const app = new Hono();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.route('/', trpRoutes(handlers, DtiTable.load()));
  trp = await startServer(app, { host: '127.0.0.1', port: 0, tls: null });
  base = `http://127.0.0.1:${trp.port}`;
});

afterAll(async () => {
  await trp.close();
});

/** The failure of a TRP request, with whether the job would try it again. */
async function refused(promise: Promise<unknown>): Promise<{
  retryable: boolean;
  status?: number;
  retryAfterS?: number;
  inDoubt?: boolean;
  message: string;
  forLog: string;
}> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err instanceof TrpRetryable || err instanceof TrpRefused).toBe(true);
  const e = err as TrpError;
  for (const value of PERSONAL) expect(e.message).not.toContain(value);
  const retryAfterS = e instanceof TrpRetryable ? e.retryAfterS : undefined;
  const inDoubt = e instanceof TrpRetryable ? e.inDoubt : undefined;
  return {
    retryable: isRetryable(e),
    status: e.status,
    retryAfterS,
    inDoubt,
    message: e.message,
    forLog: e.forLog,
  };
}

describe('trpRoutes', () => {
  it('answers an inquiry synchronously and echoes request-identifier', async () => {
    const requestId = randomUUID();
    const res = await trpPost(`${base}/trp/v3/inquiries/${TOKEN}`, inquiryBody(), opts(requestId));
    expect(res).toEqual({ status: 200, body: { version: '3.1.0' } });
    const got = recorded.at(-1)!;
    expect(got.kind).toBe('inquiry');
    expect(got.token).toBe(TOKEN);
    expect(got.meta).toEqual({ requestId, extensions: [], peer: { certificate: null } });
    if (got.kind === 'inquiry')
      expect(got.inquiry).toMatchObject({
        asset: 'ETH',
        network: 'eth',
        amount: '0.5',
        amountBaseUnits: '500000000000000000',
        originatingVaspName: 'Alpha Exchange GmbH',
      });

    const raw = await call(base, 'POST', `/trp/v3/inquiries/${TOKEN}`, {
      headers: headers({
        'request-identifier': requestId,
        'api-version': '3.1',
        'api-extensions': 'message-signing, , beneficiary-details',
      }),
      body: inquiryBody(),
    });
    expect(raw.status).toBe(200);
    expect(raw.headers['request-identifier']).toBe(requestId);
    expect(raw.headers['api-version']).toBe(TRP_VERSION);
    expect(recorded.at(-1)!.meta).toEqual({
      requestId,
      extensions: ['message-signing', 'beneficiary-details'],
      peer: { certificate: null },
    });
  });

  it('takes resolutions and confirmations', async () => {
    const approved = {
      approved: {
        address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        callback: 'https://vasp-b.example/trp/v3/confirmations/tok_x',
      },
    };
    // Taken with 204 and no body, as TRP implementations answer a resolution or confirmation.
    expect(await trpPost(`${base}/trp/v3/resolutions/${TOKEN}`, approved, opts())).toEqual({
      status: 204,
      body: null,
    });
    expect(recorded.at(-1)).toMatchObject({ kind: 'resolution', resolution: approved });
    expect(
      await trpPost(`${base}/trp/v3/confirmations/${TOKEN}`, { txid: '0xfeed' }, opts()),
    ).toEqual({ status: 204, body: null });
    expect(recorded.at(-1)).toMatchObject({
      kind: 'confirmation',
      confirmation: { txid: '0xfeed' },
    });
  });

  it('refuses bad headers with 400, still echoing a valid request-identifier', async () => {
    const path = `/trp/v3/inquiries/${TOKEN}`;
    const requestId = randomUUID();
    const missing = await call(base, 'POST', path, {
      headers: { 'request-identifier': requestId },
      body: inquiryBody(),
    });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({
      code: 5000,
      status: 5000,
      message: 'api-version header is required',
    });
    expect(missing.headers['api-version']).toBe(TRP_VERSION);
    // The version is checked before the identifier, so none is echoed yet.
    expect(missing.headers['request-identifier']).toBeUndefined();

    const old = await call(base, 'POST', path, {
      headers: headers({ 'api-version': '2.0.0' }),
      body: inquiryBody(),
    });
    expect(old.status).toBe(400);
    expect(old.json.message).toMatch(/^api-version is not supported/);
    // Only the versions whose content this endpoint implements (3.1.x).
    for (const version of ['3.0', '3.2.0', '3', '4.0.0']) {
      const res = await call(base, 'POST', path, {
        headers: headers({ 'api-version': version }),
        body: inquiryBody(),
      });
      expect(res.status, version).toBe(400);
      expect(res.json.message).toMatch(/speaks TRP 3\.1\.0 \(api-version 3\.1 or 3\.1\.x\)/);
    }
    // Any identifier form the spec allows (not only UUIDs); none, or one with spaces, is refused.
    const tokenId = await call(base, 'POST', path, {
      headers: headers({ 'request-identifier': 'transfer-0042_a' }),
      body: inquiryBody(),
    });
    expect(tokenId.status).toBe(200);
    expect(tokenId.headers['request-identifier']).toBe('transfer-0042_a');

    for (const bad of [undefined, 'has spaces in it']) {
      const res = await call(base, 'POST', path, {
        headers: { 'api-version': '3.1.0', ...(bad ? { 'request-identifier': bad } : {}) },
        body: inquiryBody(),
      });
      expect(res.status).toBe(400);
      expect(res.json.message).toMatch(/^request-identifier /);
      expect(res.headers['request-identifier']).toBeUndefined();
    }

    const notJson = await call(base, 'POST', path, {
      headers: headers({ 'request-identifier': requestId }),
      body: '{"asset":',
    });
    expect(notJson.status).toBe(400);
    expect(notJson.json).toEqual({ code: 5000, status: 5000, message: 'body is not JSON' });
    expect(notJson.headers['request-identifier']).toBe(requestId);
  });

  it('takes JSON under any of its content-type spellings', async () => {
    for (const type of [
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/x+json',
    ]) {
      const res = await call(base, 'POST', `/trp/v3/inquiries/${TOKEN}`, {
        headers: headers({ 'content-type': type }),
        body: JSON.stringify(inquiryBody()),
      });
      expect(res.status, type).toBe(200);
    }
  });

  it('refuses malformed messages with 400 and the TRP path', async () => {
    const body = inquiryBody();
    delete body.asset;
    const before = recorded.length;
    let res = await call(base, 'POST', `/trp/v3/inquiries/${TOKEN}`, { headers: headers(), body });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('asset: is required');

    const bad = inquiryBody() as any;
    bad.IVMS101.originator.originatorPersons[0].naturalPerson.dateAndPlaceOfBirth.dateOfBirth =
      '1985-13-01';
    const err = await refused(trpPost(`${base}/trp/v3/inquiries/${TOKEN}`, bad, opts()));
    expect(err).toMatchObject({ retryable: false, status: 400 });
    expect(err.message).toBe(
      'peer answered 400: IVMS101.originator.originatorPersons[0].naturalPerson.dateAndPlaceOfBirth.dateOfBirth: must be a real calendar date',
    );

    res = await call(base, 'POST', `/trp/v3/resolutions/${TOKEN}`, {
      headers: headers(),
      body: { version: '3.1.0', rejected: 'no' },
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('the body must hold exactly one of version, approved, rejected');
    res = await call(base, 'POST', `/trp/v3/confirmations/${TOKEN}`, {
      headers: headers(),
      body: { txid: '' },
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/^txid: /);
    res = await call(base, 'POST', `/trp/v3/confirmations/${TOKEN}`, { headers: headers() });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('body is not JSON');
    // A body labelled as something else than JSON is refused, as TRISA's handler refuses it.
    res = await call(base, 'POST', `/trp/v3/inquiries/${TOKEN}`, {
      headers: headers({ 'content-type': 'text/plain' }),
      body: JSON.stringify(inquiryBody()),
    });
    expect(res.status).toBe(415);
    expect(res.json.message).toBe('content-type must be application/json');
    // Compressed, not UTF-8, or half a surrogate pair: refused, never stored as other text.
    const text = JSON.stringify(inquiryBody());
    res = await call(base, 'POST', `/trp/v3/inquiries/${TOKEN}`, {
      headers: headers({ 'content-encoding': 'gzip' }),
      body: gzipSync(text),
    });
    expect(res.status).toBe(415);
    expect(res.json).toEqual({
      code: 5000,
      status: 5000,
      message: 'Content-Encoding gzip is not supported: send the body uncompressed',
    });
    const named = '"Alpha Exchange GmbH"';
    expect(text).toContain(named);
    res = await call(base, 'POST', `/trp/v3/inquiries/${TOKEN}`, {
      headers: headers(),
      body: Buffer.concat(
        text
          .split(named)
          .flatMap((part, i) => [
            ...(i ? [Buffer.from('"Alpha\xff\xfe"', 'latin1')] : []),
            Buffer.from(part),
          ]),
      ),
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('body is not valid UTF-8');
    res = await call(base, 'POST', `/trp/v3/inquiries/${TOKEN}`, {
      headers: headers(),
      body: text.replaceAll(named, '"Alpha\\udc00"'),
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('strings must not contain half of a UTF-16 surrogate pair');
    expect(recorded.length).toBe(before);
  });

  it('answers 404, 409, 413 and 500 in the TRP error shape', async () => {
    const unknown = await refused(
      trpPost(`${base}/trp/v3/inquiries/${UNKNOWN_TOKEN}`, inquiryBody(), opts()),
    );
    expect(unknown).toMatchObject({
      retryable: false,
      status: 404,
      message: 'peer answered 404: unknown inquiry URL',
    });

    const requestId = randomUUID();
    const shape = await call(base, 'POST', '/trp/v3/confirmations/short', {
      headers: headers({ 'request-identifier': requestId }),
      body: { txid: 'x' },
    });
    expect(shape.status).toBe(404);
    expect(shape.json).toEqual({ code: 4040, status: 4040, message: 'unknown TRP endpoint' });
    expect(shape.headers['request-identifier']).toBe(requestId);

    const conflict = await call(base, 'POST', '/trp/v3/resolutions/tok_conflict_000000000', {
      headers: headers(),
      body: { rejected: 'no' },
    });
    expect(conflict.status).toBe(409);
    expect(conflict.json).toEqual({
      code: 4090,
      status: 4090,
      message: 'the transfer is not waiting for a resolution',
    });

    const large = await call(base, 'POST', `/trp/v3/confirmations/${TOKEN}`, {
      headers: headers(),
      body: JSON.stringify({ canceled: 'x'.repeat(1024 * 1024) }),
    });
    expect(large.status).toBe(413);
    expect(large.json.code).toBe(4130);
    expect(await postChunked(`${base}/trp/v3/confirmations/${TOKEN}`, 1100 * 1024)).toBe(413);

    const explode = await call(base, 'POST', '/trp/v3/inquiries/tok_explode_0000000000', {
      headers: headers(),
      body: inquiryBody(),
    });
    expect(explode.status).toBe(500);
    expect(explode.json.code).toBe(5999);
    expect(explode.text).not.toContain('database went away');

    // The rest of the app is untouched by the sub-router.
    expect((await call(base, 'GET', '/healthz')).json).toEqual({ status: 'ok' });
  });
});

/** Streams `bytes` of body without a content-length; resolves to the status. */
function postChunked(url: string, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: { ...headers(), 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let sent = 0;
    const write = (): void => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

/** A scripted peer: each path answers as its name says. */
function scriptedPeer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = req.headers['request-identifier'] as string;
      switch (req.url) {
        case '/500':
          res
            .writeHead(500, { 'content-type': 'application/json' })
            .end(JSON.stringify({ message: 'try later' }));
          break;
        case '/429':
          res.writeHead(429).end();
          break;
        case '/503-date':
          res.writeHead(503, { 'retry-after': new Date(Date.now() + 600_000).toUTCString() }).end();
          break;
        case '/500-retry-after':
          res.writeHead(500, { 'retry-after': '600' }).end();
          break;
        case '/400':
          res
            .writeHead(400, { 'content-type': 'application/json' })
            .end(JSON.stringify({ code: 5000, message: `bad\n${'m'.repeat(500)}` }));
          break;
        case '/302':
          res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
          break;
        case '/wrong-id':
          res.writeHead(200, { 'request-identifier': randomUUID() }).end('{}');
          break;
        case '/no-echo':
          res.writeHead(200).end(JSON.stringify({ version: '3.1.0' }));
          break;
        case '/empty':
          res.writeHead(200, { 'request-identifier': id }).end();
          break;
        case '/not-json':
          res.writeHead(200, { 'request-identifier': id }).end('<html>');
          break;
        case '/huge':
          res
            .writeHead(200, { 'request-identifier': id })
            .end('"' + 'x'.repeat(2 * 1024 * 1024) + '"');
          break;
        case '/slow':
          break; // never answers
        default:
          res.writeHead(404).end();
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    }),
  );
}

describe('trpPost', () => {
  let peer: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    peer = await scriptedPeer();
  });
  afterAll(async () => {
    await peer.close();
  });

  it('says whether a retry can help', async () => {
    expect(await refused(trpPost(`${peer.url}/500`, inquiryBody(), opts()))).toMatchObject({
      retryable: true,
      status: 500,
      message: 'peer answered 500: try later',
    });
    expect(await refused(trpPost(`${peer.url}/429`, {}, opts()))).toMatchObject({
      retryable: true,
      status: 429,
      retryAfterS: undefined,
    });
    // A 429 or 503 may say how long to leave the peer alone (seconds or a date); other answers'
    // Retry-After means nothing (RFC 9110).
    const later = await refused(trpPost(`${peer.url}/503-date`, {}, opts()));
    expect(later).toMatchObject({ retryable: true, status: 503 });
    expect(later.retryAfterS).toBeGreaterThan(590);
    expect(later.retryAfterS).toBeLessThanOrEqual(600);
    expect(await refused(trpPost(`${peer.url}/500-retry-after`, {}, opts()))).toMatchObject({
      retryable: true,
      status: 500,
      retryAfterS: undefined,
    });
    const bad = await refused(trpPost(`${peer.url}/400`, inquiryBody(), opts()));
    expect(bad).toMatchObject({ retryable: false, status: 400 });
    expect(bad.message.length).toBeLessThanOrEqual('peer answered 400: '.length + 200);
    expect(bad.message).not.toContain('\n');
    // For logs, the peer's words are left out: they may echo the persons of the request.
    expect(bad.forLog).toBe("peer answered 400 (its words are in the transfer's record)");
    expect(await refused(trpPost(`${peer.url}/302`, {}, opts()))).toMatchObject({
      retryable: false,
      status: 302,
      message: 'redirect 302 not followed',
    });
    // Sent whole, never answered: the peer may have it. Refused at connect: it has nothing.
    expect(
      await refused(trpPost(`${peer.url}/slow`, inquiryBody(), { ...opts(), timeoutMs: 300 })),
    ).toMatchObject({ retryable: true, inDoubt: true });
    expect(await refused(trpPost(`${peer.url}/500`, inquiryBody(), opts()))).toMatchObject({
      inDoubt: false,
    });
    // Without the development setting, plain http is refused before any connection.
    const plain = await refused(
      trpPost(`${peer.url}/500`, inquiryBody(), { ...opts(), allowHttpLoopback: false }),
    );
    expect(plain).toMatchObject({ retryable: false, message: /must be https/ });
    const closed = await refused(trpPost('http://127.0.0.1:1/', {}, opts()));
    expect(closed.retryable).toBe(true);
    expect(closed.inDoubt).toBe(false);
    expect(closed.message).toMatch(/ECONNREFUSED/);
  });

  it('checks the echoed request-identifier and the answer: a 2xx took the message, whatever its body', async () => {
    // An answer not read is said (`unread`), and not taken; the message is delivered all the same
    // (found by an outside probe: a peer that took the inquiry was recorded as never reached).
    expect(await trpPost(`${peer.url}/wrong-id`, {}, opts())).toEqual({
      status: 200,
      body: null,
      unread: 'its answer carries another request-identifier',
    });
    expect(await trpPost(`${peer.url}/no-echo`, {}, opts())).toEqual({
      status: 200,
      body: { version: '3.1.0' },
    });
    expect(await trpPost(`${peer.url}/empty`, {}, opts())).toEqual({ status: 200, body: null });
    expect(await trpPost(`${peer.url}/not-json`, {}, opts())).toEqual({
      status: 200,
      body: null,
      unread: 'its answer is not JSON',
    });
    expect(await trpPost(`${peer.url}/huge`, {}, opts())).toEqual({
      status: 200,
      body: null,
      unread: 'its answer is larger than 1048576 bytes',
    });
  });

  it('refuses loopback and private addresses without the allow list (SSRF)', async () => {
    const literal = await refused(
      trpPost(`${base}/trp/v3/inquiries/${TOKEN}`, inquiryBody(), { ...opts(), allow: [] }),
    );
    expect(literal.retryable).toBe(false);
    const named = await refused(
      trpPost(`http://localhost:${trp.port}/trp/v3/inquiries/${TOKEN}`, inquiryBody(), {
        ...opts(),
        allow: [],
      }),
    );
    expect(named.retryable).toBe(false);
    expect(named.message).toMatch(/may not be sent to/);
    expect(
      await refused(trpPost('http://169.254.169.254/latest/meta-data', {}, opts())),
    ).toMatchObject({ retryable: false });
    expect(await refused(trpPost('file:///etc/passwd', {}, opts()))).toMatchObject({
      retryable: false,
    });
  });

  it('trusts a self-signed peer only when its certificate is given as ca', async () => {
    const pems = await selfSignedLoopback('peer.test');
    const app = new Hono();
    app.route('/', trpRoutes(handlers, DtiTable.load()));
    const tlsServer = await startServer(app, {
      host: '127.0.0.1',
      port: 0,
      tls: { cert: pems.cert, key: pems.key, selfSigned: true },
    });
    try {
      const url = `https://127.0.0.1:${tlsServer.port}/trp/v3/confirmations/${TOKEN}`;
      const untrusted = await refused(trpPost(url, { txid: '0x1' }, opts()));
      expect(untrusted.message).toMatch(/SELF_SIGNED|self.signed|certificate/i);
      expect(await trpPost(url, { txid: '0x1' }, { ...opts(), ca: pems.cert })).toEqual({
        status: 204,
        body: null,
      });
    } finally {
      await tlsServer.close();
    }
  });
});
