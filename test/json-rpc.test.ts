/**
 * The indexer's JSON-RPC reader (src/chains/evm/json-rpc.ts) against an HTTP server of its own,
 * answering as the JSON-RPC 2.0 specification says a server does: a batch is an array answered by
 * an array in any order, matched by id; an error object with a code and message; a request that
 * cannot be read at all answered with one error whose id is null. Checked: calls made together go
 * as one batch (one call alone as an object), in batches half as large after a node refused one
 * (down to call by call for a node without batches; larger again later), call by call when a
 * batch's answer is too large; each call gets its own answer or error; errors a
 * retry can help with are retried, the others not; a hang ends at the timeout; a stop gives every
 * waiting call up at once; URL credentials go as Basic authorization and in no message; an answer
 * that is not JSON-RPC, or too large, fails the call.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answeredWithRpcError, methodUnsupported } from '../src/chains/evm/client.js';
import {
  JsonRpcHttp,
  NodeAnswerTooLarge,
  NodeHttpError,
  NodeRpcError,
  NodeTimeoutError,
} from '../src/chains/evm/json-rpc.js';
import { MAX_BODY_BYTES } from '../src/chains/evm/node-fetch.js';

interface Req {
  jsonrpc: string;
  id: number | string;
  method: string;
  params: unknown[];
}

let server: Server;
let url: string;
let bodies: unknown[];
let answer: (body: Req | Req[], res: ServerResponse, req: IncomingMessage) => void;
beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const body = JSON.parse(text) as Req | Req[];
      bodies.push(body);
      answer(body, res, req);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const json = (res: ServerResponse, value: unknown) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(value));
};

/** Answers each call with `f(call)` (a result or an error object), a batch in reverse order. */
const each =
  (f: (c: Req) => { result: unknown } | { error: { code: number; message: string } }) =>
  (body: Req | Req[], res: ServerResponse) =>
    json(
      res,
      Array.isArray(body)
        ? body.map((c) => ({ jsonrpc: '2.0', id: c.id, ...f(c) })).reverse()
        : { jsonrpc: '2.0', id: body.id, ...f(body) },
    );

const fast = (opts: ConstructorParameters<typeof JsonRpcHttp>[1] = {}) =>
  new JsonRpcHttp(url, { retryDelayMs: 1, timeoutMs: 2_000, ...opts });

describe('JsonRpcHttp', () => {
  it('sends calls made together as one batch and gives each its own answer', async () => {
    bodies = [];
    answer = each((c) => ({ result: `${c.method}:${JSON.stringify(c.params)}` }));
    const rpc = fast();
    const got = await Promise.all([
      rpc.request('eth_getBlockByNumber', ['0x1', true]),
      rpc.request('eth_getBlockReceipts', ['0x1']),
      rpc.request('eth_getBlockByNumber', ['0x2', true]),
    ]);
    expect(got).toEqual([
      'eth_getBlockByNumber:["0x1",true]',
      'eth_getBlockReceipts:["0x1"]',
      'eth_getBlockByNumber:["0x2",true]',
    ]);
    expect(bodies).toHaveLength(1);
    const batch = bodies[0] as Req[];
    expect(batch).toHaveLength(3);
    expect(new Set(batch.map((c) => c.id)).size).toBe(3);
    for (const c of batch) expect(c.jsonrpc).toBe('2.0');

    // One call alone goes as an object, not a batch of one.
    bodies = [];
    expect(await rpc.request('eth_chainId', [])).toBe('eth_chainId:[]');
    expect(Array.isArray(bodies[0])).toBe(false);

    // No more than batchSize calls in one request.
    bodies = [];
    const small = fast({ batchSize: 2 });
    await Promise.all(Array.from({ length: 5 }, (_, i) => small.request('m', [i])));
    expect(bodies.map((b) => (Array.isArray(b) ? b.length : 1)).sort()).toEqual([1, 2, 2]);
  });

  it("a node's error fails its own call only, and says whether the method exists", async () => {
    bodies = [];
    answer = each((c) =>
      c.method === 'eth_getBlockReceipts'
        ? { error: { code: -32601, message: 'the method eth_getBlockReceipts does not exist' } }
        : { result: '0x1' },
    );
    const rpc = fast();
    const [receipts, block] = await Promise.allSettled([
      rpc.request('eth_getBlockReceipts', ['0x1']),
      rpc.request('eth_getBlockByNumber', ['0x1', true]),
    ]);
    expect(block).toEqual({ status: 'fulfilled', value: '0x1' });
    const err = (receipts as PromiseRejectedResult).reason;
    expect(err).toBeInstanceOf(NodeRpcError);
    expect(err.code).toBe(-32601);
    expect(methodUnsupported(err)).toBe(true);
    expect(answeredWithRpcError(err)).toBe(true);
    expect(bodies).toHaveLength(1); // "no such method" is not retried
  });

  it('sends call by call to a node that does not take batches', async () => {
    // A node without batches answers an array as JSON-RPC 2.0 says a server answers a request it
    // cannot read: one error object, id null. Each call is then sent alone, and so are later ones.
    bodies = [];
    /** A node without batches: `single` answers a call sent alone. */
    const noBatches = (single: (c: Req) => unknown) => (body: Req | Req[], res: ServerResponse) =>
      Array.isArray(body)
        ? json(res, {
            jsonrpc: '2.0',
            id: null,
            error: { code: -32600, message: 'Invalid Request' },
          })
        : json(res, single(body));
    answer = noBatches((c) => ({ jsonrpc: '2.0', id: c.id, result: c.method }));
    const rpc = fast();
    expect(await Promise.all([rpc.request('a', []), rpc.request('b', [])])).toEqual(['a', 'b']);
    expect(bodies.map(Array.isArray)).toEqual([true, false, false]);
    bodies = [];
    expect(await Promise.all([rpc.request('c', []), rpc.request('d', [])])).toEqual(['c', 'd']);
    expect(bodies.map(Array.isArray)).toEqual([false, false]);

    // The same after an HTTP 413 for a batch.
    bodies = [];
    answer = (body, res) => {
      if (!Array.isArray(body)) return json(res, { jsonrpc: '2.0', id: body.id, result: 1 });
      res.statusCode = 413;
      res.end('too many calls');
    };
    const limited = fast({ retryCount: 0 });
    expect(await Promise.all([limited.request('a', []), limited.request('b', [])])).toEqual([1, 1]);
    await Promise.all([limited.request('c', []), limited.request('d', [])]);
    expect(bodies.map(Array.isArray)).toEqual([true, false, false, false, false]);

    // A batch whose answer is over its limit (maxAnswerBytes a call, for at most 8 calls): each
    // call again, alone, a batch again afterwards (the node takes batches; that answer was large).
    bodies = [];
    const big = 'f'.repeat(900_000);
    answer = (body, res) =>
      Array.isArray(body)
        ? json(
            res,
            body.map((c) => ({ jsonrpc: '2.0', id: c.id, result: c.method === 'big' ? big : 1 })),
          )
        : json(res, { jsonrpc: '2.0', id: body.id, result: body.method === 'big' ? big : 1 });
    const heavy = fast({ retryCount: 0, maxAnswerBytes: 1_000_000 });
    const got = await Promise.all(
      Array.from({ length: 10 }, () => heavy.request<string>('big', [])),
    );
    expect(got.every((r) => r === big)).toBe(true);
    expect(bodies.map((b) => (Array.isArray(b) ? b.length : 1))).toEqual([10, ...got.map(() => 1)]);
    bodies = [];
    await Promise.all([heavy.request('small', []), heavy.request('small', [])]);
    expect(bodies.map(Array.isArray)).toEqual([true]);
    // Both calls' errors when the node fails them alone too.
    answer = noBatches(() => ({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32601, message: 'no' },
    }));
    const both = await Promise.allSettled([fast().request('a', []), fast().request('b', [])]);
    for (const r of both) {
      expect(r.status).toBe('rejected');
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(NodeRpcError);
    }
  });

  it('sends smaller batches to a node with a limit on a batch, and larger ones again later', async () => {
    // As geth answers a batch over its --rpc.batch-request-limit: one error object with the
    // first call's id, not an array. This node takes at most 10 calls in a batch.
    const LIMIT = 10;
    answer = (body, res) => {
      if (Array.isArray(body) && body.length > LIMIT)
        return json(res, {
          jsonrpc: '2.0',
          id: body[0]!.id,
          error: { code: -32600, message: 'batch too large' },
        });
      each((c) => ({ result: c.params[0] }))(body, res);
    };
    const limits: number[] = [];
    const reasons: string[] = [];
    const rpc = fast({
      regrowMs: 200,
      onBatchLimit: (size, reason) => {
        limits.push(size);
        reasons.push(reason);
      },
    });
    const ask = (n: number) =>
      Promise.all(Array.from({ length: n }, (_, i) => rpc.request<number>('m', [i])));
    const sizes = () => bodies.map((b) => (Array.isArray(b) ? b.length : 1));

    bodies = [];
    expect(await ask(100)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    // Halved on each refusal (100, 50, 25, 12) until the node took them: batches of 6.
    expect(limits).toEqual([50, 25, 12, 6]);
    expect(reasons[0]).toContain('batch too large');
    expect(sizes().filter((n) => n > LIMIT).length).toBe(1 + 2 + 4 + 8);
    // Every call was answered once, in a batch the node took.
    expect(
      sizes()
        .filter((n) => n <= LIMIT)
        .reduce((a, n) => a + n, 0),
    ).toBe(100);

    // Later calls go in batches of 6 from the start: nothing refused.
    bodies = [];
    expect(await ask(30)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(sizes()).toEqual([6, 6, 6, 6, 6]);

    // After regrowMs without a refusal: twice as large (12: refused, 6 again, which it was told
    // of already), then, on a node whose limit went up meanwhile, twice as large each regrowMs up
    // to batchSize.
    await new Promise((r) => setTimeout(r, 250));
    bodies = [];
    await ask(12);
    expect(sizes()).toEqual([12, 6, 6]);
    expect(limits).toEqual([50, 25, 12, 6]);
    answer = each((c) => ({ result: c.params[0] }));
    for (const size of [12, 24, 48, 96, 100, 100]) {
      await new Promise((r) => setTimeout(r, 250));
      bodies = [];
      await ask(100);
      expect(sizes()[0]).toBe(size);
    }
  });

  it('retries what a retry can help with, up to retryCount, and nothing else', async () => {
    // Internal error (-32603) twice, then the answer.
    let calls = 0;
    answer = each(() =>
      ++calls <= 2
        ? { error: { code: -32603, message: 'Internal error' } }
        : { result: 'third time' },
    );
    expect(await fast({ retryCount: 2 }).request('m', [])).toBe('third time');
    expect(calls).toBe(3);

    /** Answers every request with this HTTP status and body, counting them. */
    const status = (code: number, text: string) => (_body: unknown, res: ServerResponse) => {
      calls++;
      res.statusCode = code;
      res.end(text);
    };

    // A server error status, every time: three attempts, then its status in the error.
    calls = 0;
    answer = status(503, 'overloaded');
    const unavailable = await fast({ retryCount: 2 })
      .request<string>('m', [])
      .catch((e: NodeHttpError) => e);
    expect(unavailable).toBeInstanceOf(NodeHttpError);
    expect((unavailable as NodeHttpError).status).toBe(503);
    expect((unavailable as NodeHttpError).message).toMatch(/HTTP 503: overloaded/);
    expect(calls).toBe(3);

    // Refusals a retry cannot change: an application error (-32000), a 400, once each.
    calls = 0;
    answer = each(() => {
      calls++;
      return { error: { code: -32000, message: 'header not found' } };
    });
    await expect(fast().request('m', [])).rejects.toBeInstanceOf(NodeRpcError);
    expect(calls).toBe(1);
    calls = 0;
    answer = status(400, 'bad request');
    await expect(fast().request('m', [])).rejects.toMatchObject({ status: 400 });
    expect(calls).toBe(1);
  });

  it('gives a hang up at the timeout, and every waiting call at a stop', async () => {
    let calls = 0;
    answer = () => {
      calls++; // never answers
    };
    const slow = await fast({ timeoutMs: 200, retryCount: 1 })
      .request<string>('eth_getBlockByNumber', ['0x1', true])
      .catch((e: Error) => e);
    expect(slow).toBeInstanceOf(NodeTimeoutError);
    expect((slow as Error).message).toBe(
      'the node did not answer eth_getBlockByNumber within 200 ms',
    );
    expect(calls).toBe(2);

    calls = 0;
    const stop = new AbortController();
    const rpc = fast({ timeoutMs: 60_000, signal: stop.signal });
    const waiting = Promise.allSettled([rpc.request('a', []), rpc.request('b', [])]);
    while (calls === 0) await new Promise((r) => setTimeout(r, 10));
    const reason = new Error('stopping');
    stop.abort(reason);
    for (const r of await waiting) expect(r).toEqual({ status: 'rejected', reason });
    expect(calls).toBe(1); // not retried
    await expect(rpc.request('c', [])).rejects.toBe(reason); // nor asked after the stop
    expect(calls).toBe(1);
  });

  it('sends URL credentials as Basic authorization, and never in a message', async () => {
    let auth: string | undefined;
    answer = (_body, res, req) => {
      auth = req.headers.authorization;
      res.statusCode = 500;
      res.end('no');
    };
    const secret = url.replace('http://', 'http://user:s3cr%40t@');
    const err = await new JsonRpcHttp(secret, { retryCount: 0 })
      .request<string>('m', [])
      .catch((e: Error) => e);
    expect(auth).toBe(`Basic ${Buffer.from('user:s3cr@t').toString('base64')}`);
    expect(String((err as Error).message)).not.toMatch(/s3cr|user/);

    await fast()
      .request('m', [])
      .catch(() => {});
    expect(auth).toBeUndefined();
  });

  it('fails a call whose answer is not JSON-RPC, or too large', async () => {
    const rpc = fast({ retryCount: 0 });
    answer = (_body, res) => res.end('<html>gateway</html>');
    await expect(rpc.request('m', [])).rejects.toThrow(/not JSON: <html>gateway/);

    // An answer for another id, and one with neither result nor error.
    answer = (_body, res) => json(res, { jsonrpc: '2.0', id: 'someone else', result: 1 });
    await expect(rpc.request('m', [])).rejects.toThrow(/no result for m/);
    answer = (body, res) => json(res, { jsonrpc: '2.0', id: (body as Req).id });
    await expect(rpc.request('m', [])).rejects.toBeInstanceOf(NodeHttpError);

    answer = (_body, res) => {
      res.setHeader('content-type', 'application/json');
      const chunk = Buffer.alloc(1 << 20, 0x20);
      for (let i = 0; i <= MAX_BODY_BYTES / chunk.length; i++) res.write(chunk);
      res.end('{}');
    };
    await expect(rpc.request('m', [])).rejects.toThrow(
      `the node's answer is larger than ${MAX_BODY_BYTES} bytes`,
    );

    // Not asked again: the node would give the same answer. The limit is the reader's own.
    bodies = [];
    answer = (_body, res) => json(res, { jsonrpc: '2.0', id: 1, result: 'x'.repeat(2_000) });
    const err = await fast({ retryCount: 2, maxAnswerBytes: 1_000 })
      .request('m', [])
      .catch((e) => e);
    expect(err).toBeInstanceOf(NodeAnswerTooLarge);
    expect((err as Error).message).toBe("the node's answer is larger than 1000 bytes");
    expect(bodies).toHaveLength(1);
  });
});
