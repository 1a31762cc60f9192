import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import {
  createWebhookAgents,
  postWebhook,
  RESPONSE_EXCERPT_BYTES,
  RESPONSE_READ_LIMIT_BYTES,
} from '../src/webhooks/post.js';
import { parseAllowList } from '../src/net/ssrf.js';
import { freePort } from '../support/ports.js';
import { selfSignedLoopback } from './helpers/certs.js';
import { RawReceivers } from './helpers/receiver.js';

/**
 * Whether a failed POST may have reached its receiver decides whether a reorg retracts the event
 * (webhook_events.in_doubt): real receivers on loopback that take the body and never answer,
 * hang up after reading it, answer 500, or are not there at all.
 */

const allow = parseAllowList(['127.0.0.0/8']);
const receivers = new RawReceivers();
afterAll(() => {
  receivers.close();
});

it('is in doubt when the body went out and no answer came: a timeout, a hang-up after reading it', async () => {
  const silent = await receivers.listen((req) => req.resume());
  const timedOut = await postWebhook(silent, {}, '{"a":1}', { timeoutMs: 300, allow });
  expect(timedOut).toMatchObject({ status_code: null, retryable: true, in_doubt: true });

  let hangUps = 0;
  const hangUp = await receivers.listen((req) => {
    hangUps++;
    req.resume();
    req.on('end', () => req.socket.destroy());
  });
  const reset = await postWebhook(hangUp, {}, '{"a":1}', { timeoutMs: 2000, allow });
  expect(reset).toMatchObject({ status_code: null, in_doubt: true });
  // Not sent again at once within the attempt: the receiver may have it (it got it three times
  // per attempt before, all on fresh connections; found by an outside probe).
  expect(hangUps).toBe(1);
});

it('takes the status line as the answer: a body cut short after it, or one that never ends, is read no further', async () => {
  // 200, then the connection cut in the middle of the body.
  const cut = await receivers.listen((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"ok":');
      setTimeout(() => res.socket?.destroy(), 50);
    });
  });
  expect(await postWebhook(cut, {}, '{}', { timeoutMs: 2000, allow })).toMatchObject({
    status_code: 200,
    error: null,
    response: '{"ok":',
  });
  // 200, then bytes forever: read to the limit, then the connection closed.
  let written = 0;
  const endless = await receivers.listen((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const more = () => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    });
  });
  // 200 and one byte, the rest of the body later than the timeout (it counted as no answer,
  // ETIMEDOUT, and the event taken was sent again; found by an outside probe).
  const slow = await receivers.listen((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-length': '2' });
      res.write('{');
      setTimeout(() => res.end('}'), 3000).unref();
    });
  });
  expect(await postWebhook(slow, {}, '{}', { timeoutMs: 300, allow })).toMatchObject({
    status_code: 200,
    error: null,
    response: '{',
  });
  // 200, then a chunk size that is no number: the status line was read, and is the answer.
  const garbled = createNetServer((socket) => {
    socket.once('data', () =>
      socket.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\nxyz\r\n'),
    );
  });
  await new Promise<void>((r) => garbled.listen(0, '127.0.0.1', r));
  try {
    const port = (garbled.address() as AddressInfo).port;
    expect(
      await postWebhook(`http://127.0.0.1:${port}/hook`, {}, '{}', { timeoutMs: 2000, allow }),
    ).toMatchObject({ status_code: 200, error: null });
  } finally {
    garbled.close();
  }
  const endlessResult = await postWebhook(endless, {}, '{}', { timeoutMs: 5000, allow });
  expect(endlessResult).toMatchObject({ status_code: 200, error: null });
  expect(endlessResult.response).toBe('x'.repeat(RESPONSE_EXCERPT_BYTES));
  // Not read until the timeout: a little past the limit (socket buffers), not gigabytes.
  await new Promise((r) => setTimeout(r, 200));
  expect(written).toBeLessThan(RESPONSE_READ_LIMIT_BYTES * 64);
});

it('does not send again at once a POST cut after it went out whole on a kept-alive connection', async () => {
  // The receiver answers, keeps the connection, then reads the next POST whole and hangs up: it
  // may have it. It got it three times within one attempt, on the pool's kept connections (found
  // by an outside fault harness).
  const agents = createWebhookAgents(4);
  let posts = 0;
  const closing = await receivers.listen((req, res) => {
    posts++;
    req.resume();
    req.on('end', () => {
      if (posts >= 5) return void req.socket.destroy();
      res.writeHead(200).end('ok');
    });
  });
  try {
    // Four kept connections in the pool.
    const first = await Promise.all(
      Array.from({ length: 4 }, () =>
        postWebhook(closing, {}, '{}', { timeoutMs: 2000, allow, agents }),
      ),
    );
    for (const r of first) expect(r).toMatchObject({ status_code: 200 });
    expect(await postWebhook(closing, {}, '{}', { timeoutMs: 2000, allow, agents })).toMatchObject({
      status_code: null,
      retryable: true,
      in_doubt: true,
    });
    expect(posts).toBe(5);
  } finally {
    agents.http.destroy();
    agents.https.destroy();
  }
});

it('does not send on a kept-alive connection the receiver closed while it was idle', async () => {
  // A receiver whose idle connections close after 100 ms (its FIN, and its Keep-Alive hint, tell
  // the agent): the next POST, later, goes out on a new connection and is taken at once.
  const agents = createWebhookAgents(1);
  let posts = 0;
  const receiver = createServer((req, res) => {
    posts++;
    req.resume();
    req.on('end', () => res.writeHead(200).end('ok'));
  });
  receiver.keepAliveTimeout = 100;
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  try {
    for (let i = 0; i < 3; i++) {
      expect(await postWebhook(url, {}, '{}', { timeoutMs: 2000, allow, agents })).toMatchObject({
        status_code: 200,
      });
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(posts).toBe(3);
  } finally {
    agents.http.destroy();
    agents.https.destroy();
    receiver.close();
  }
});

it('is not in doubt when the receiver answered, or was never reached', async () => {
  const failing = await receivers.listen((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(500).end());
  });
  expect(await postWebhook(failing, {}, '{}', { timeoutMs: 2000, allow })).toMatchObject({
    status_code: 500,
    in_doubt: false,
  });
  const nobody = `http://127.0.0.1:${await freePort()}/hook`;
  expect(await postWebhook(nobody, {}, '{}', { timeoutMs: 2000, allow })).toMatchObject({
    status_code: null,
    in_doubt: false,
  });
});

it('fails the attempt, saying why, at an https receiver whose certificate Node does not trust', async () => {
  const tls = await selfSignedLoopback('receiver.test');
  let posts = 0;
  const server = createHttpsServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    posts++;
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    expect(await postWebhook(url, {}, '{}', { timeoutMs: 2000, allow })).toMatchObject({
      status_code: null,
      retryable: true,
      in_doubt: false,
      error: expect.stringMatching(/self-signed certificate/),
    });
    expect(posts).toBe(0);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
