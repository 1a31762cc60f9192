import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { call } from './helpers/http.js';
import {
  SKIP_MESSAGE,
  skipWithoutLitecoind,
  startLitecoind,
  type Litecoind,
} from './helpers/litecoind.js';

/**
 * A node configured for the wrong network: TOLLGATE_RPC_POLYGON naming an Ethereum node (the
 * URLs of two networks swapped), a Bitcoin node as litecoin's. Its blocks would be served as the
 * network's, its addresses never matching a stream. The nodes here are real (the shared dev
 * chain, a litecoind -regtest) behind a JSON-RPC proxy that answers as the other network's
 * mainnet would: eth_chainId 1, or Bitcoin's block 0 for getblockhash 0. A real appliance
 * (API and indexer) and a real Postgres.
 */

type Call = { id: unknown; method: string; params?: unknown[] };

/** A proxy to `target` that answers the calls `answer` picks itself. */
async function rewritingProxy(
  target: string,
  answer: (c: Call) => unknown | undefined,
): Promise<{ url: string; server: Server }> {
  const direct = new URL(target);
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const parsed = JSON.parse(body) as Call | Call[];
    const forwarded = (await fetch(`${direct.protocol}//${direct.host}${direct.pathname}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
      },
      body,
    }).then((r) => r.json())) as { id: unknown } | { id: unknown }[];
    const one = (c: Call, a: unknown) => {
      const own = answer(c);
      return own === undefined ? a : { jsonrpc: '2.0', id: c.id, result: own, error: null };
    };
    const out = Array.isArray(parsed)
      ? (forwarded as unknown[]).map((a, i) => one(parsed[i]!, a))
      : one(parsed, forwarded);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = new URL(target);
  url.port = String((server.address() as AddressInfo).port);
  return { url: url.toString(), server };
}

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

/** An appliance indexing `network` from `rpc`, from block 0; its /readyz. */
async function indexing(db: TestDatabase, network: string, rpc: string) {
  const app = await startTestAppliance(
    db.url,
    {
      [`TOLLGATE_RPC_${network.toUpperCase()}`]: rpc,
      [`TOLLGATE_START_BLOCK_${network.toUpperCase()}`]: '0',
    },
    { api: true, worker: false, indexer: [network], devChain: false },
    // It never gets a cursor: it halts first.
    { waitForCursors: false },
  );
  cleanups.push(() => app.stop());
  return { readyz: async () => (await call(app.baseUrl, 'GET', '/readyz')).json };
}

describe('a node of another network', () => {
  it('is refused before a block is indexed, naming the network the node follows', async () => {
    const db = await freshDatabase();
    cleanups.push(() => db.drop());
    const proxy = await rewritingProxy(inject('rpcUrl'), (c) =>
      c.method === 'eth_chainId' ? '0x1' : undefined,
    );
    cleanups.push(() => new Promise((r) => proxy.server.close(r)));
    const app = await indexing(db, 'polygon', proxy.url);
    const ready = await eventually(
      app.readyz,
      (r) => /mainnet/.test(r.networks?.polygon?.reason ?? ''),
      30_000,
    );
    expect(ready.ready).toBe(false);
    expect(ready.networks.polygon.reason).toMatch(
      /^not indexed yet: node http:\/\/127\.0\.0\.1:\d+ failing since \S+: NodeAnswerError: the node for polygon follows Ethereum's mainnet \(eth; chain id 1\), not Polygon: set TOLLGATE_RPC_POLYGON to a node of polygon$/,
    );
    // Nothing of that chain was taken for polygon's.
    expect((await db.sql`select 1 from evm_blocks where network = 'polygon' limit 1`).length).toBe(
      0,
    );
  });

  it.skipIf(skipWithoutLitecoind)(
    "is refused on a Bitcoin-family network when the node's block 0 is another network's",
    async () => {
      const node: Litecoind = await startLitecoind();
      cleanups.push(() => node.stop());
      await node.mine(3);
      const BITCOIN_GENESIS = '000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f';
      const proxy = await rewritingProxy(node.rpcUrl, (c) =>
        c.method === 'getblockhash' && c.params?.[0] === 0 ? BITCOIN_GENESIS : undefined,
      );
      cleanups.push(() => new Promise((r) => proxy.server.close(r)));
      const db = await freshDatabase();
      cleanups.push(() => db.drop());
      const app = await indexing(db, 'litecoin', proxy.url);
      const ready = await eventually(
        app.readyz,
        (r) => /mainnet/.test(r.networks?.litecoin?.reason ?? ''),
        30_000,
      );
      expect(ready.networks.litecoin.reason).toContain(
        `: the node for litecoin follows Bitcoin's mainnet (bitcoin; block 0 ${BITCOIN_GENESIS}), not Litecoin: set TOLLGATE_RPC_LITECOIN to a node of litecoin`,
      );
    },
  );
});

if (skipWithoutLitecoind) console.warn(SKIP_MESSAGE);
