import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One JSON-RPC call as a client sends it. */
export interface RpcCall {
  id: number | string;
  method: string;
  params?: unknown[];
}

/** One JSON-RPC answer: `result` or `error`. */
export interface RpcAnswer {
  jsonrpc: '2.0';
  id: number | string;
  result?: unknown;
  error?: { code: number; message: string };
}

/**
 * How the proxy answers a call: `answer` is the node's own, `ask` asks the node anything else
 * (to build an answer the node does not give). Returns the answer to send.
 */
export type Rewrite = (
  call: RpcCall,
  answer: RpcAnswer,
  ask: (method: string, params: unknown[]) => Promise<unknown>,
) => RpcAnswer | Promise<RpcAnswer>;

/**
 * A JSON-RPC proxy in front of the EVM node at `target` that answers as other node software
 * does, by the rule set in `rewrite` (changed while it runs; none: the node's own answers). Each
 * call of a batch is asked of the node on its own and rewritten, and the batch answered in order.
 * Written from the Ethereum JSON-RPC specification (execution-apis), not from Tollgate's reader.
 */
export async function rewritingProxy(
  target: string,
  opts: {
    /**
     * Answers eth_getBlockReceipts where the node has no such method (Hardhat), from its
     * eth_getTransactionReceipt of each transaction of the block, before any rewrite.
     */
    blockReceipts?: boolean;
  } = {},
) {
  const state: { rewrite: Rewrite | undefined } = { rewrite: undefined };
  let nextId = 1;
  const ask = async (method: string, params: unknown[]): Promise<RpcAnswer> => {
    const res = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    });
    return (await res.json()) as RpcAnswer;
  };
  const result = async (method: string, params: unknown[]) => {
    const a = await ask(method, params);
    if (a.error) throw new Error(`${method}: ${a.error.message}`);
    return a.result;
  };
  const answer = async (c: RpcCall): Promise<RpcAnswer> => {
    let own = { ...(await ask(c.method, c.params ?? [])), id: c.id };
    if (opts.blockReceipts && c.method === 'eth_getBlockReceipts' && own.error) {
      const block = (await result('eth_getBlockByNumber', [c.params?.[0], false])) as {
        transactions: string[];
      } | null;
      own = {
        jsonrpc: '2.0',
        id: c.id,
        result: block
          ? await Promise.all(
              block.transactions.map((h) => result('eth_getTransactionReceipt', [h])),
            )
          : null,
      };
    }
    const rewrite = state.rewrite;
    return rewrite ? rewrite(c, own, result) : own;
  };
  const { server, url } = await serveJsonRpc(answer);
  return {
    url,
    /** Answers by `rewrite` from now on; undefined: as the node does. */
    set(rewrite: Rewrite | undefined) {
      state.rewrite = rewrite;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Every 32-byte hash (0x and 64 hex digits) in `value`, at any depth, in upper case. */
export function upperCaseHashes(value: unknown): unknown {
  if (typeof value === 'string')
    return /^0x[0-9a-fA-F]{64}$/.test(value) ? `0x${value.slice(2).toUpperCase()}` : value;
  if (Array.isArray(value)) return value.map(upperCaseHashes);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, upperCaseHashes(v)]));
  return value;
}

/**
 * A JSON-RPC server on loopback answering each call (a batch's each, in order) with `answer`;
 * `onRequest` is told of each HTTP request.
 */
export async function serveJsonRpc(
  answer: (call: RpcCall) => Promise<unknown>,
  onRequest: () => void = () => {},
) {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', async () => {
      onRequest();
      const parsed = JSON.parse(body) as RpcCall | RpcCall[];
      const answers = await Promise.all((Array.isArray(parsed) ? parsed : [parsed]).map(answer));
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
