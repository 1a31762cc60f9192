import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FetchError, guardedGet, MAX_REDIRECTS } from '../../src/net/fetch-url.js';
import { parseAllowList } from '../../src/net/ssrf.js';

// The guarded GET of NFT metadata against a real HTTP server on loopback.

const none = parseAllowList([]);
const loopback = parseAllowList(['127.0.0.0/8']);
const hits: string[] = [];
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url!);
    const url = req.url!;
    if (url === '/ok')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"ok"}');
    if (url === '/hop') return void res.writeHead(302, { location: '/ok' }).end();
    if (url === '/loop') return void res.writeHead(307, { location: '/loop' }).end();
    if (url === '/to-metadata')
      return void res
        .writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' })
        .end();
    if (url === '/to-private')
      return void res.writeHead(302, { location: 'http://[::ffff:10.0.0.1]/x' }).end();
    if (url === '/to-data')
      return void res.writeHead(302, { location: 'data:application/json,{}' }).end();
    if (url === '/big')
      return void res.writeHead(200, { 'content-length': '5000' }).end('x'.repeat(5000));
    if (url === '/big-chunked') {
      res.writeHead(200);
      for (let i = 0; i < 10; i++) res.write('y'.repeat(1000));
      return void res.end();
    }
    if (url === '/missing') return void res.writeHead(404).end();
    if (url === '/silent') return; // never answers
    res.writeHead(500).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const get = (
  path: string,
  allow = loopback,
  extra: { timeoutMs?: number; maxBytes?: number } = {},
) =>
  guardedGet(/^[a-z]+:/.test(path) ? path : base + path, {
    allow,
    timeoutMs: extra.timeoutMs ?? 2000,
    maxBytes: extra.maxBytes ?? 1024,
  });

describe('guardedGet', () => {
  it('fetches from an allowed address and follows a redirect there', async () => {
    expect((await get('/ok')).toString()).toBe('{"name":"ok"}');
    expect((await get('/hop')).toString()).toBe('{"name":"ok"}');
  });

  it('never connects to a forbidden address: IP literals, names, mapped IPv6, numeric hosts', async () => {
    const before = hits.length;
    const port = new URL(base).port;
    await expect(get('/ok', none)).rejects.toThrow('URL points at a forbidden address');
    await expect(get(`http://localhost:${port}/ok`, none)).rejects.toThrow(
      'host resolves to a forbidden address',
    );
    await expect(get(`http://[::ffff:7f00:1]:${port}/ok`, none)).rejects.toThrow(FetchError);
    await expect(get(`http://0x7f000001:${port}/ok`, none)).rejects.toThrow('forbidden address');
    await expect(get('http://169.254.169.254/latest/meta-data/', loopback)).rejects.toThrow(
      'forbidden address',
    );
    await expect(get('http://10.1.2.3/x', loopback)).rejects.toThrow('forbidden address');
    expect(hits.length).toBe(before);
  });

  it('checks every redirect target again, and follows at most a few', async () => {
    await expect(get('/to-metadata')).rejects.toThrow('URL points at a forbidden address');
    await expect(get('/to-private')).rejects.toThrow('forbidden address');
    await expect(get('/to-data')).rejects.toThrow('URL must be http or https');
    const before = hits.filter((h) => h === '/loop').length;
    await expect(get('/loop')).rejects.toThrow(`more than ${MAX_REDIRECTS} redirects`);
    expect(hits.filter((h) => h === '/loop').length - before).toBe(MAX_REDIRECTS + 1);
  });

  it('refuses URLs that are not plain http(s)', async () => {
    await expect(get('ftp://example.test/x')).rejects.toThrow('URL must be http or https');
    await expect(get(`http://user:pw@127.0.0.1:${new URL(base).port}/ok`)).rejects.toThrow(
      'must not carry credentials',
    );
  });

  it('bounds the size, declared or streamed, and the time', async () => {
    await expect(get('/big')).rejects.toThrow('larger than 1024 bytes');
    await expect(get('/big-chunked')).rejects.toThrow('larger than 1024 bytes');
    expect((await get('/big-chunked', loopback, { maxBytes: 20_000 })).length).toBe(10_000);
    const started = Date.now();
    await expect(get('/silent', loopback, { timeoutMs: 300 })).rejects.toThrow(
      'no answer within 300 ms',
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('gives up a fetch still waiting when its signal aborts (its worker is stopping), and starts none after', async () => {
    const stop = new AbortController();
    const fetching = guardedGet(`${base}/silent`, {
      allow: loopback,
      timeoutMs: 60_000,
      maxBytes: 1024,
      signal: stop.signal,
    });
    await new Promise((r) => setTimeout(r, 100));
    const before = hits.length;
    stop.abort();
    // Without the signal this waits out its 60 s timeout (and the test's own 5 s first).
    await expect(fetching).rejects.toThrow('given up: the worker is stopping');
    await expect(
      guardedGet(`${base}/ok`, {
        allow: loopback,
        timeoutMs: 2000,
        maxBytes: 1024,
        signal: stop.signal,
      }),
    ).rejects.toThrow('given up: the worker is stopping');
    expect(hits.length).toBe(before);
  });

  it('reports non-2xx answers and connection failures', async () => {
    await expect(get('/missing')).rejects.toThrow('metadata server answered 404');
    await expect(get('/anything-else')).rejects.toThrow('metadata server answered 500');
    await expect(get('http://127.0.0.1:1/x')).rejects.toThrow(/ECONNREFUSED/);
  });
});
