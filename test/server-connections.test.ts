import { connect, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDSHAKE_TIMEOUT_MS, type RunningServer, startServer } from '../src/api/server.js';
import { selfSignedLoopback } from './helpers/certs.js';
import { call } from './helpers/http.js';

/**
 * Connections that send nothing, against the API's real server: each whose TLS handshake timed
 * out (after Node's 120 s) was answered over a handshake that never came and stayed in
 * CLOSE-WAIT once the client left, a file descriptor lost for good; 20,000 took the process to
 * its file limit, and a stop waited for them (found by an outside probe).
 */

let server: RunningServer;
let port: number;

beforeAll(async () => {
  const app = new Hono();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  const tls = await selfSignedLoopback('localhost');
  server = await startServer(app, {
    host: '127.0.0.1',
    port: 0,
    tls: { cert: tls.cert, key: tls.key, selfSigned: true },
  });
  port = server.port;
});
afterAll(async () => {
  await server?.close();
});

/** When the server ends the connection (ms after it was opened), or null when it did not within `waitMs`. */
function closedBy(socket: Socket, waitMs: number): Promise<number | null> {
  const opened = Date.now();
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), waitMs);
    const ended = () => {
      clearTimeout(timer);
      resolve(Date.now() - opened);
    };
    socket.on('end', ended);
    socket.on('close', ended);
    socket.on('error', () => {});
    // Reading, as a client does: a socket not read from never sees the server's FIN.
    socket.resume();
  });
}

describe('connections that send nothing', () => {
  it('are closed by the server: before a TLS handshake, and after one without a request', {
    timeout: 60_000,
  }, async () => {
    // Raw TCP, no ClientHello.
    const raw = Array.from({ length: 20 }, () => connect(port, '127.0.0.1'));
    // A finished handshake, then nothing.
    const quiet = await Promise.all(
      Array.from(
        { length: 20 },
        () =>
          new Promise<Socket>((resolve) => {
            const s = connectTls({ port, host: '127.0.0.1', rejectUnauthorized: false }, () =>
              resolve(s),
            );
          }),
      ),
    );
    // Node's headersTimeout (the API's 15 s) runs from a connection's handshake for its first request.
    const waitMs = 25_000;
    const closing = [...raw, ...quiet].map((s) => closedBy(s, waitMs));
    // Served meanwhile.
    const ok = await call(`https://127.0.0.1:${port}`, 'GET', '/healthz');
    expect(ok.json).toEqual({ status: 'ok' });
    const times = await Promise.all(closing);
    for (const t of times.slice(0, raw.length)) {
      expect(t).not.toBeNull();
      expect(t!).toBeGreaterThanOrEqual(HANDSHAKE_TIMEOUT_MS - 1_000);
    }
    for (const t of times.slice(raw.length)) {
      expect(t).not.toBeNull();
      expect(t!).toBeGreaterThanOrEqual(14_000);
    }
    for (const s of [...raw, ...quiet]) s.destroy();
  });

  it('do not hold up a stop', { timeout: 30_000 }, async () => {
    const app = new Hono();
    const tls = await selfSignedLoopback('localhost');
    const other = await startServer(app, {
      host: '127.0.0.1',
      port: 0,
      tls: { cert: tls.cert, key: tls.key, selfSigned: true },
    });
    const sockets = Array.from({ length: 5 }, () => connect(other.port, '127.0.0.1'));
    for (const s of sockets) s.on('error', () => {});
    await new Promise((r) => setTimeout(r, 200));
    const closed = await Promise.race([
      other.close().then(() => 'closed'),
      new Promise((r) => setTimeout(() => r('still open'), HANDSHAKE_TIMEOUT_MS - 2_000)),
    ]);
    expect(closed).toBe('closed');
    for (const s of sockets) s.destroy();
  });
});
