/**
 * The EVM client's fetch (src/chains/evm/node-fetch.ts), against an HTTP server of its own: a
 * JSON-RPC answer reaches viem whole (status, headers, body; batched calls too; URL credentials as
 * Basic authorization); a node's "no such method" is recognised as such; an error status fails the
 * call; a bodiless status; an answer above the size limit is
 * refused while it is read; a request that outlives the client's timeout is given up.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPublicClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methodUnsupported } from '../src/chains/evm/client.js';
import { MAX_BODY_BYTES, nodeFetch } from '../src/chains/evm/node-fetch.js';

let server: Server;
let url: string;
let answer: (req: IncomingMessage, body: string, res: ServerResponse) => void;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => answer(req, body, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const client = (timeout = 5_000) =>
  createPublicClient({
    transport: http(url, { fetchFn: nodeFetch, retryCount: 0, timeout, batch: { wait: 0 } }),
  });

describe('nodeFetch', () => {
  it('hands the answer to viem whole, single and batched', async () => {
    let seen: { method?: string; type?: string; auth?: string } = {};
    answer = (req, body, res) => {
      seen = {
        method: req.method,
        type: req.headers['content-type'],
        auth: req.headers.authorization,
      };
      const calls = JSON.parse(body) as { id: number; params: string[] }[] | { id: number };
      const one = (c: { id: number }) => ({
        jsonrpc: '2.0',
        id: c.id,
        result: `0x${c.id.toString(16)}`,
      });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(Array.isArray(calls) ? calls.map(one) : one(calls)));
    };
    const c = client();
    const [a, b] = await Promise.all([
      c.request({ method: 'eth_blockNumber' }),
      c.request({ method: 'eth_chainId' }),
    ]);
    expect(a).toMatch(/^0x[0-9a-f]+$/);
    expect(b).toMatch(/^0x[0-9a-f]+$/);
    expect(a).not.toBe(b);
    expect(seen).toEqual({ method: 'POST', type: 'application/json', auth: undefined });

    // Credentials in the URL go as Basic authorization (viem moves them to a header).
    const withAuth = createPublicClient({
      transport: http(url.replace('http://', 'http://user:p%40ss@'), { fetchFn: nodeFetch }),
    });
    await withAuth.request({ method: 'eth_blockNumber' });
    expect(seen.auth).toBe(`Basic ${Buffer.from('user:p@ss').toString('base64')}`);
  });

  it("passes a node's error and an error status on", async () => {
    answer = (_req, body, res) => {
      const calls = JSON.parse(body) as { id: number }[] | { id: number };
      const one = (c: { id: number }) => ({
        jsonrpc: '2.0',
        id: c.id,
        error: { code: -32601, message: 'the method eth_getBlockReceipts does not exist' },
      });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(Array.isArray(calls) ? calls.map(one) : one(calls)));
    };
    // Recognised as the node saying it has no such method (what the indexer falls back on).
    const refused = await client()
      .request({ method: 'eth_getBlockReceipts' as never, params: ['0x1'] as never })
      .catch((e: unknown) => e);
    expect(methodUnsupported(refused)).toBe(true);

    answer = (_req, _body, res) => {
      res.statusCode = 503;
      res.end('overloaded');
    };
    await expect(client().request({ method: 'eth_blockNumber' })).rejects.toThrow(/503|overloaded/);

    answer = (_req, _body, res) => {
      res.statusCode = 204;
      res.end();
    };
    const bodiless = await nodeFetch(url, { method: 'POST', body: '{}' });
    expect(bodiless.status).toBe(204);
    expect(await bodiless.text()).toBe('');
  });

  it('refuses an answer above the size limit while reading it', async () => {
    answer = (_req, _body, res) => {
      res.setHeader('content-type', 'application/json');
      // No content-length: the size is known only by reading.
      const chunk = Buffer.alloc(1 << 20, 0x20);
      for (let i = 0; i <= MAX_BODY_BYTES / chunk.length; i++) res.write(chunk);
      res.end('{}');
    };
    await expect(nodeFetch(url, { method: 'POST', body: '{}' })).rejects.toThrow(
      `the node's answer is larger than ${MAX_BODY_BYTES} bytes`,
    );
  });

  it('gives up a request that outlives the timeout', async () => {
    answer = () => {
      /* never answers */
    };
    await expect(client(300).request({ method: 'eth_blockNumber' })).rejects.toThrow(
      /took too long/,
    );
  });
});
