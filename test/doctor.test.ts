import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startDevChain, type DevChain } from '../src/devchain/devchain.js';
import { freePort } from '../support/ports.js';
import { runCli } from './helpers/cli.js';
import { skipWithoutLitecoind, startLitecoind, type Litecoind } from './helpers/litecoind.js';

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

describe('tollgate doctor', () => {
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
  });

  it('passes anvil, which has eth_getBlockReceipts and finality tags', async () => {
    const r = await doctor({ TOLLGATE_RPC_ETH: anvil.url });
    expect(r.code).toBe(0);
    expect(r.check('eth', /eth_getBlockReceipts/)).toMatchObject({ ok: true });
    expect(r.check('eth', /JSON-RPC batches/)).toMatchObject({ ok: true });
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
    const none = await doctor({});
    expect(none.code).toBe(1);
    expect(none.err).toMatch(/no network configured/);
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
    },
  );
});
