import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startDevChain, type DevChain } from '../src/devchain/devchain.js';
import { freePort } from '../support/ports.js';
import { runCli } from './helpers/cli.js';
import { historyProxy } from './helpers/history-proxy.js';
import {
  prunedProxy,
  skipWithoutLitecoind,
  startLitecoind,
  type Litecoind,
} from './helpers/litecoind.js';

// `tollgate doctor` against real nodes: Hardhat (no eth_getBlockReceipts), anvil (has it), a
// node that lacks a required method (a proxy answering "method not found"), one that is down,
// and litecoind -regtest with -txindex.
let anvil: DevChain;
let proxy: Server;
let proxyUrl: string;
let ltc: Litecoind | undefined;

beforeAll(async () => {
  anvil = await startDevChain(await freePort(), 'anvil');
  const target = inject('rpcUrl');
  proxy = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const calls = JSON.parse(body) as
      | { id: number; method: string }
      | { id: number; method: string }[];
    const refuse = (c: { id: number; method: string }) =>
      c.method === 'eth_getTransactionReceipt'
        ? {
            jsonrpc: '2.0',
            id: c.id,
            error: { code: -32601, message: 'the method does not exist' },
          }
        : undefined;
    const forwarded = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    }).then((r) => r.json());
    const answer = Array.isArray(calls)
      ? (forwarded as unknown[]).map((a, i) => refuse(calls[i]!) ?? a)
      : (refuse(calls) ?? forwarded);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  if (!skipWithoutLitecoind) ltc = await startLitecoind();
}, 120_000);

afterAll(async () => {
  await anvil?.stop();
  proxy?.close();
  await ltc?.stop();
});

/**
 * A node as a hosted provider serves it: at `/<key>/` only, behind its own Basic login (it
 * answers 404 elsewhere and 401 without the login), passed on to `target` with the target's own
 * credentials. Its URL: `http://client:pw@127.0.0.1:<port>/<key>/`.
 */
async function providerProxy(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const KEY = 'k3y0123456789';
  const login = `Basic ${Buffer.from('client:pw').toString('base64')}`;
  const to = new URL(target);
  const toAuth = to.username
    ? `Basic ${Buffer.from(`${decodeURIComponent(to.username)}:${decodeURIComponent(to.password)}`).toString('base64')}`
    : undefined;
  to.username = '';
  to.password = '';
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    if (req.url !== `/${KEY}/`) return void res.writeHead(404).end('no such endpoint');
    if (req.headers.authorization !== login) return void res.writeHead(401).end('login required');
    const answer = await fetch(to, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(toAuth ? { authorization: toAuth } : {}) },
      body,
    });
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://client:pw@127.0.0.1:${(server.address() as AddressInfo).port}/${KEY}/`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

async function doctor(env: Record<string, string>, ...args: string[]) {
  const run = runCli('postgres://unused@127.0.0.1:1/none', ['doctor', '--json', ...args], env);
  const code = await run.exited;
  const reports = code !== 2 ? JSON.parse(run.out().trim().split('\n').pop() || '[]') : [];
  const check = (network: string, name: RegExp) =>
    (
      reports as {
        network: string;
        checks: { name: string; ok: boolean; required: boolean; detail: string }[];
      }[]
    )
      .find((r) => r.network === network)
      ?.checks.find((c) => name.test(c.name));
  return { code, reports, check, err: run.err() };
}

/**
 * A proxy in front of `target` whose `answer` may replace the node's answer to a call (undefined:
 * the node's own).
 */
async function rewritingProxy(
  target: string,
  answer: (c: { id: number; method: string; params: unknown[] }) => unknown,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const calls = JSON.parse(body);
    const one = async (c: { id: number; method: string; params: unknown[] }) => {
      const mine = answer(c);
      if (mine !== undefined) return { jsonrpc: '2.0', id: c.id, result: mine };
      return fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(c),
      }).then((r) => r.json());
    };
    const out = Array.isArray(calls) ? await Promise.all(calls.map(one)) : await one(calls);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

describe('tollgate doctor', () => {
  it('says when the node is behind the network: still syncing, or its newest block older than the limit', async () => {
    const syncing = await rewritingProxy(inject('rpcUrl'), (c) =>
      c.method === 'eth_syncing' ? { currentBlock: '0x10', highestBlock: '0x20' } : undefined,
    );
    // Stuck at its genesis block, made when the tests began.
    const stuck = await rewritingProxy(inject('rpcUrl'), (c) =>
      c.method === 'eth_blockNumber' ? '0x0' : undefined,
    );
    try {
      const a = await doctor({ TOLLGATE_RPC_ETH: syncing.url });
      expect(a.code).toBe(0); // not a required check: the indexer can start; /readyz says it
      expect(a.check('eth', /following the network/)).toMatchObject({
        ok: false,
        required: false,
        detail: 'still syncing (block 16 of 32): the indexer would follow it behind the network',
      });
      // On a dev chain (chain id 31337) no limit applies unless set.
      const b = await doctor({ TOLLGATE_RPC_ETH: stuck.url });
      expect(b.check('eth', /following the network/)).toMatchObject({
        ok: true,
        detail: expect.stringMatching(/^newest block 0 is \d+ s old \(no limit on this chain\)$/),
      });
      const c = await doctor({ TOLLGATE_RPC_ETH: stuck.url, TOLLGATE_NODE_BEHIND_S_ETH: '1' });
      expect(c.check('eth', /following the network/)).toMatchObject({
        ok: false,
        detail: expect.stringMatching(
          /^newest block 0 is \d+ s old, more than the 1 s of TOLLGATE_NODE_BEHIND_S_ETH: the node is behind the network/,
        ),
      });
    } finally {
      await syncing.close();
      await stuck.close();
    }
  });

  it('passes Hardhat, saying it lacks eth_getBlockReceipts (receipts one by one)', async () => {
    await fetch(inject('rpcUrl'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'evm_mine', params: [] }),
    });
    const r = await doctor({ TOLLGATE_RPC_ETH: inject('rpcUrl') });
    expect(r.code).toBe(0);
    expect(r.check('eth', /eth_chainId/)).toMatchObject({ ok: true, detail: 'chain id 31337' });
    expect(r.check('eth', /eth_getBlockReceipts/)).toMatchObject({
      ok: false,
      required: false,
      detail: expect.stringMatching(/one transaction at a time/),
    });
    expect(r.check('eth', /finalized/)?.ok).toBe(true);
    expect(r.check('eth', /eth_call/)?.ok).toBe(true);
    // Hardhat 2 has no callTracer for a block: internal transfers are not seen, and it says so.
    expect(r.check('eth', /call traces/)).toMatchObject({
      ok: false,
      required: false,
      detail: expect.stringMatching(
        /not supported \(neither trace_block nor debug_traceBlockByNumber\): .*internal transfers.* is not seen/,
      ),
    });
    const off = await doctor({
      TOLLGATE_RPC_ETH: inject('rpcUrl'),
      TOLLGATE_INTERNAL_TRANSFERS_ETH: 'off',
    });
    expect(off.check('eth', /call traces/)).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^off \(TOLLGATE_INTERNAL_TRANSFERS_ETH=off\)/),
    });
  });

  it("asks a provider's node at its URL's path, with its URL's login: batches included", async () => {
    const provider = await providerProxy(inject('rpcUrl'));
    try {
      const r = await doctor({ TOLLGATE_RPC_ETH: provider.url });
      expect(r.code).toBe(0);
      expect(r.check('eth', /eth_chainId/)).toMatchObject({ ok: true, detail: 'chain id 31337' });
      expect(r.check('eth', /JSON-RPC batches/)).toMatchObject({ ok: true, detail: 'accepted' });
    } finally {
      await provider.close();
    }
  });

  it('passes anvil, which has eth_getBlockReceipts and finality tags', async () => {
    const r = await doctor({ TOLLGATE_RPC_ETH: anvil.url });
    expect(r.code).toBe(0);
    expect(r.check('eth', /eth_getBlockReceipts/)).toMatchObject({ ok: true });
    expect(r.check('eth', /JSON-RPC batches/)).toMatchObject({ ok: true });
    expect(r.check('eth', /call traces/)).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^used: trace_block \(block \d+\)$/),
    });
    expect(r.check('eth', /newHeads/)).toBeUndefined(); // polled: nothing to check
  });

  it('checks the newHeads subscription of TOLLGATE_HEADS_<NETWORK>, or of a ws:// RPC URL', async () => {
    const ws = anvil.url.replace(/^http/, 'ws');
    const split = await doctor({ TOLLGATE_RPC_ETH: anvil.url, TOLLGATE_HEADS_ETH: ws });
    expect(split.code).toBe(0);
    expect(split.check('eth', /newHeads/)).toMatchObject({ ok: true, detail: 'subscribed' });
    const one = await doctor({ TOLLGATE_RPC_ETH: ws });
    expect(one.check('eth', /newHeads/)).toMatchObject({ ok: true, detail: 'subscribed' });
    // Nothing listens there: reported, not required (the head is polled meanwhile).
    const down = await doctor({
      TOLLGATE_RPC_ETH: anvil.url,
      TOLLGATE_HEADS_ETH: 'ws://127.0.0.1:1',
    });
    expect(down.code).toBe(0);
    expect(down.check('eth', /newHeads/)).toMatchObject({
      ok: false,
      required: false,
      detail: expect.stringMatching(/ECONNREFUSED/),
    });
  });

  it('fails a node without a required method, naming it, and one that is down', async () => {
    // A transaction, so that the receipt check has one to ask for.
    await fetch(inject('rpcUrl'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_sendTransaction',
        params: [
          {
            from: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
            to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
            value: '0x1',
          },
        ],
      }),
    });
    const lacking = await doctor({ TOLLGATE_RPC_ETH: proxyUrl });
    expect(lacking.code).toBe(1);
    expect(lacking.check('eth', /eth_getTransactionReceipt/)).toMatchObject({
      ok: false,
      required: true,
      detail: expect.stringMatching(/does not exist/),
    });
    const down = await doctor({ TOLLGATE_RPC_ETH: 'http://127.0.0.1:1' });
    expect(down.code).toBe(1);
    expect(down.check('eth', /eth_chainId/)).toMatchObject({ ok: false, required: true });
    // A node down whose URL carries a login and a provider's key: neither is printed.
    const withLogin = await doctor({ TOLLGATE_RPC_ETH: 'http://u:S3cr%25t@127.0.0.1:1/K3Y123/' });
    expect(withLogin.code).toBe(1);
    expect(JSON.stringify(withLogin.reports) + withLogin.err).not.toMatch(/S3cr|K3Y123/);
    // A % that starts no escape in the password is refused naming the variable, never the URL
    // (the client sent the URL as it was, and its error repeated it whole; found by an outside probe).
    const malformed = await doctor({ TOLLGATE_RPC_ETH: 'http://u:SEC%RET@127.0.0.1:1/K3Y123' });
    expect(malformed.code).toBe(2);
    expect(malformed.err).toContain(
      'TOLLGATE_RPC_ETH: its user or password holds a % that starts no escape: write it as %25',
    );
    expect(malformed.err).not.toMatch(/SEC%RET|K3Y123/);
    // Nothing configured: start would index its dev chain as eth, which is not running here.
    const idle = await freePort();
    const none = await doctor({ TOLLGATE_DEV_CHAIN_PORT: String(idle) });
    expect(none.code).toBe(1);
    expect(none.err).toContain(
      `no network configured (set TOLLGATE_RPC_<NETWORK>), and no SMTP relay (TOLLGATE_SMTP_URL); start indexes a local dev chain as eth on http://127.0.0.1:${idle} (TOLLGATE_DEV_CHAIN_PORT), which does not answer now: run doctor while the appliance runs`,
    );
    // Without the dev chain, only the first half is said.
    const off = await doctor({ TOLLGATE_DEV_CHAIN: 'false' });
    expect(off.err).toMatch(
      /no network configured \(set TOLLGATE_RPC_<NETWORK>\), and no SMTP relay \(TOLLGATE_SMTP_URL\)$/m,
    );
  });

  it('checks the dev chain as eth when no node is configured and it answers (what start indexes)', async () => {
    // It said "no network configured" of an appliance indexing its dev chain.
    const dev = await doctor({ TOLLGATE_DEV_CHAIN_PORT: new URL(anvil.url).port });
    expect(dev.code).toBe(0);
    expect(dev.reports.map((r: { network: string }) => r.network)).toEqual(['eth']);
    expect(dev.check('eth', /^eth_chainId/)).toMatchObject({ ok: true });
    expect(dev.check('eth', /as the indexer reads them/)).toMatchObject({ ok: true });
  });

  it('reads the history at the start block as the indexer does: the block and its receipts', async () => {
    // A transaction on anvil, in the block the backfill would start from.
    const send = (method: string, params: unknown[]) =>
      fetch(anvil.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      }).then((r) => r.json() as Promise<{ result: unknown }>);
    const transfer = [
      {
        from: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        value: '0x1',
      },
    ];
    const hash = (await send('eth_sendTransaction', transfer)).result as string;
    let receipt: { blockNumber: string } | null = null;
    for (let i = 0; i < 100 && !receipt; i++) {
      receipt = (await send('eth_getTransactionReceipt', [hash])).result as typeof receipt;
      if (!receipt) await new Promise((r) => setTimeout(r, 50));
    }
    const start = BigInt(receipt!.blockNumber);
    // A later transaction too: the newest blocks, which the required checks read, are whole.
    await send('eth_sendTransaction', transfer);
    await send('evm_mine', []);
    const env = { TOLLGATE_START_BLOCK_ETH: start.toString() };

    const whole = await doctor({ ...env, TOLLGATE_RPC_ETH: anvil.url });
    expect(whole.check('eth', /history at block/)).toMatchObject({
      ok: true,
      detail: `block ${start} available, with its receipts`,
    });
    // In front of anvil: a node that keeps receipts for recent blocks only (null for block
    // `start` and below), and one that pruned that history (geth's answer, EIP-4444).
    const history = await historyProxy(anvil.url);
    try {
      history.forgotten.receiptsUpTo = start;
      const noReceipts = await doctor({ ...env, TOLLGATE_RPC_ETH: history.url });
      expect(noReceipts.code).toBe(0); // optional: only a backfill that far back needs it
      expect(noReceipts.check('eth', /history at block/)).toMatchObject({
        ok: false,
        required: false,
        detail: `the node has block ${start} but no receipt for its transaction ${hash}: it keeps receipts, or the transaction index that finds them, for recent blocks only; geth: --history.transactions=0 indexes every block`,
      });
      history.forgotten.receiptsUpTo = -1n;
      history.forgotten.prunedUpTo = start;
      const pruned = await doctor({ ...env, TOLLGATE_RPC_ETH: history.url });
      expect(pruned.check('eth', /history at block/)).toMatchObject({
        ok: false,
        required: false,
        detail: `the node does not serve block ${start} (it answered: pruned history unavailable): pruned or expired there: backfill from a later block, or use a node that keeps full history`,
      });
    } finally {
      await history.close();
    }
  });

  it.skipIf(skipWithoutLitecoind)(
    'checks a Bitcoin-family node: getblock, its verbosity 3, and -txindex',
    async () => {
      // A spending transaction in the head block: the check of getblock verbosity 3 has one to read.
      await ltc!.mine(101); // a mature coinbase to spend
      await ltc!.rpc('sendtoaddress', await ltc!.rpc('getnewaddress'), 1);
      await ltc!.mine(1);
      const r = await doctor({ TOLLGATE_RPC_LITECOIN: ltc!.rpcUrl });
      expect(r.code).toBe(0);
      expect(r.check('litecoin', /getblock with transactions/)?.ok).toBe(true);
      expect(r.check('litecoin', /block 0/)).toMatchObject({
        ok: true,
        detail: expect.stringMatching(/^not a mainnet \(block 0 [0-9a-f]{64}\)$/),
      });
      expect(r.check('litecoin', /following the network/)).toMatchObject({
        ok: true,
        detail: expect.stringMatching(
          /^chain regtest; newest block \d+ is -?\d+ s old \(no limit on this chain\)$/,
        ),
      });
      // litecoind answers verbosity 3 as 2: no prevouts, so the transaction index is required.
      expect(r.check('litecoin', /verbosity 3/)).toMatchObject({
        ok: false,
        required: false,
        detail: expect.stringMatching(/-txindex=1/),
      });
      expect(r.check('litecoin', /-txindex/)).toMatchObject({
        ok: true,
        required: true,
        detail: 'on',
      });
      expect(r.check('litecoin', /history at block 1 /)).toMatchObject({
        ok: true,
        detail: 'block 1 available',
      });
      // A node that pruned blocks 1-5 (-prune): optional (only a start block or backfill that
      // far back needs them), named with the node's answer.
      // The same node as a provider serves it (its key in the URL's path, a login of its own).
      const provider = await providerProxy(ltc!.rpcUrl);
      try {
        const viaProvider = await doctor({ TOLLGATE_RPC_LITECOIN: provider.url });
        expect(viaProvider.code).toBe(0);
        expect(viaProvider.check('litecoin', /getblockcount/)?.ok).toBe(true);
        expect(viaProvider.check('litecoin', /getblock with transactions/)?.ok).toBe(true);
      } finally {
        await provider.close();
      }
      const pruned = new Set<string>();
      for (let h = 1; h <= 5; h++) pruned.add(await ltc!.rpc<string>('getblockhash', h));
      const pruning = await prunedProxy(ltc!, pruned);
      try {
        const p = await doctor({
          TOLLGATE_RPC_LITECOIN: pruning.rpcUrl,
          TOLLGATE_START_BLOCK_LITECOIN: '3',
        });
        expect(p.code).toBe(0);
        expect(p.check('litecoin', /history at block 3 /)).toMatchObject({
          ok: false,
          required: false,
          detail: `the node does not serve block ${[...pruned][2]} (it answered: Block not available (pruned data)): pruned there (-prune): backfill from a later block, or use a node without -prune`,
        });
        const later = await doctor({
          TOLLGATE_RPC_LITECOIN: pruning.rpcUrl,
          TOLLGATE_START_BLOCK_LITECOIN: '6',
        });
        expect(later.check('litecoin', /history at block 6 /)?.ok).toBe(true);
      } finally {
        await pruning.close();
      }
    },
  );
});
