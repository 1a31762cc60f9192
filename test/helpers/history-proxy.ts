import { type RpcCall, serveJsonRpc } from './rewriting-proxy.js';

type Call = { id: number; method: string; params?: unknown[] };

/**
 * A JSON-RPC proxy in front of the EVM node at `target` that answers for old blocks as a node
 * without that history does: for blocks at or below `forgotten.prunedUpTo`, geth's answer for
 * history it expired (EIP-4444: error 4444, "pruned history unavailable") to the block and its
 * receipts; for blocks at or below `forgotten.receiptsUpTo`, null for their receipts (by block or
 * by transaction hash), as a node keeping receipts, or the index that finds them, for recent
 * blocks only. Everything else is the node's own answer. The limits may change while it runs.
 */
export async function historyProxy(target: string) {
  const forgotten = { receiptsUpTo: -1n, prunedUpTo: -1n };
  const stats = { requests: 0 };
  const answer = async (c: Call): Promise<unknown> => {
    const res = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: c.id, method: c.method, params: c.params }),
    });
    const got = (await res.json()) as { result?: unknown };
    if (got.result == null) return got; // an error (Hardhat has no eth_getBlockReceipts), or none
    const block = c.params?.[0];
    const at =
      c.method === 'eth_getTransactionReceipt'
        ? BigInt((got.result as { blockNumber: string }).blockNumber)
        : (c.method === 'eth_getBlockByNumber' || c.method === 'eth_getBlockReceipts') &&
            typeof block === 'string' &&
            block.startsWith('0x')
          ? BigInt(block)
          : undefined;
    if (at !== undefined && at <= forgotten.prunedUpTo)
      return {
        jsonrpc: '2.0',
        id: c.id,
        error: { code: 4444, message: 'pruned history unavailable' },
      };
    if (at !== undefined && c.method !== 'eth_getBlockByNumber' && at <= forgotten.receiptsUpTo)
      return { jsonrpc: '2.0', id: c.id, result: null };
    return got;
  };
  const { server, url } = await serveJsonRpc(answer as (c: RpcCall) => Promise<unknown>, () => {
    stats.requests++;
  });
  return {
    url,
    forgotten,
    /** HTTP requests received so far. */
    stats,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
