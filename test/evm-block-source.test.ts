/**
 * The indexer's block reader (EvmBlockSource.fetchBlock) reads a node's JSON itself, not through
 * viem's formatters: on a real node (Hardhat, or anvil in the anvil suite) every block it reads is
 * what viem's documented getBlock and getTransactionReceipt report for it (legacy and EIP-1559
 * transfers, a contract creation whose constructor emits a log); a block above the head is null;
 * a node answering with a malformed number is refused, naming the block and transaction; a node
 * that refuses batches over a limit is read in batches under it; receipts that come from another
 * block (the chain changed between the block and its receipts), and a block answered for another
 * number, are refused and the block read again; a block, or its receipts, over the answer size
 * limit are read in parts (a transaction or receipt at a time, by the reader of an http(s) node). Both
 * readers: the JSON-RPC reader of its own an http(s) node gets (json-rpc.ts), and viem's client
 * (what a ws(s) node is read through).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Hex } from 'viem';
import { hardhat } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEvmBlockSource,
  createEvmClient,
  type EvmBlock,
  EvmBlockSource,
} from '../src/chains/evm/client.js';
import { RetryableError } from '../src/errors.js';
import { startOwnChain, type OwnChain } from './helpers/own-chain.js';

let chain: OwnChain;
beforeAll(async () => {
  chain = await startOwnChain();
});
afterAll(async () => {
  await chain?.stop();
});

/** What the documented viem calls say about block n, in the shape the indexer stores. */
async function reference(n: bigint): Promise<EvmBlock> {
  const block = await chain.pub.getBlock({ blockNumber: n, includeTransactions: true });
  const transactions = await Promise.all(
    block.transactions.map(async (tx) => {
      const r = await chain.pub.getTransactionReceipt({ hash: tx.hash });
      return {
        hash: tx.hash.toLowerCase(),
        index: tx.transactionIndex ?? 0,
        from: tx.from.toLowerCase(),
        to: tx.to ? tx.to.toLowerCase() : null,
        contractAddress: r.contractAddress ? r.contractAddress.toLowerCase() : null,
        value: tx.value,
        gas: tx.gas,
        gasPrice: r.effectiveGasPrice,
        gasUsed: r.gasUsed,
        nonce: BigInt(tx.nonce),
        input: tx.input,
        status: r.status === 'success' ? 1 : 0,
        logs: r.logs.map((l) => ({
          address: l.address.toLowerCase(),
          topics: l.topics.map((t) => t.toLowerCase()),
          data: l.data,
          logIndex: l.logIndex,
        })),
        // These transactions move no coin inside them.
        internal: [],
      };
    }),
  );
  return {
    number: block.number,
    hash: block.hash.toLowerCase(),
    parentHash: block.parentHash.toLowerCase(),
    timestamp: block.timestamp,
    transactions,
    // anvil has call traces, Hardhat has none; a block without transactions has nothing to miss.
    traced: transactions.length === 0 || process.env.TOLLGATE_DEV_CHAIN_NODE === 'anvil',
  };
}

/**
 * A JSON-RPC proxy in front of the chain's node. `hook` sees each request's calls first (a batch
 * or one call), may change them before they go on, and answers in the node's stead when it
 * returns an answer.
 */
type RpcCall = { id: number; method: string; params?: unknown[] };

async function nodeProxy(
  hook: (calls: RpcCall[], batch: boolean) => Promise<unknown>,
): Promise<{ url: string; close(): Promise<void> }> {
  const proxy: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      const parsed = JSON.parse(body) as RpcCall[] | RpcCall;
      res.setHeader('content-type', 'application/json');
      const own = await hook(Array.isArray(parsed) ? parsed : [parsed], Array.isArray(parsed));
      if (own !== undefined) {
        res.end(JSON.stringify(own));
        return;
      }
      const answer = await fetch(chain.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(parsed),
      });
      res.end(await answer.text());
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    async close() {
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
    },
  };
}

describe('EvmBlockSource.fetchBlock', () => {
  it('reads every block as viem reports it, on a real node', async () => {
    const first = (await chain.pub.getBlockNumber()) + 1n;
    const to = `0x${'5a'.repeat(20)}` as Hex;
    await chain.send(to, 123_456_789n);
    const legacy = await chain.wallet.sendTransaction({
      account: chain.wallet.account!,
      chain: hardhat,
      to,
      value: 7n,
      type: 'legacy',
      gasPrice: 3_000_000_000n,
    });
    await chain.pub.waitForTransactionReceipt({ hash: legacy });
    // A creation whose constructor logs 32 bytes (0xff) under topic 7 and deploys no code.
    const created = await chain.wallet.sendTransaction({
      account: chain.wallet.account!,
      chain: hardhat,
      data: '0x60ff600052600760206000a100',
    });
    const receipt = await chain.pub.waitForTransactionReceipt({ hash: created });
    expect(receipt.logs).toHaveLength(1);
    await chain.mine(1); // an empty block too
    const head = await chain.pub.getBlockNumber();

    for (const source of [
      createEvmBlockSource(chain.url),
      new EvmBlockSource(createEvmClient(chain.url)),
    ]) {
      let seen = 0;
      // Concurrently, as the indexer reads them (the reader's calls go as batches).
      const numbers = Array.from(
        { length: Number(head - first + 1n) },
        (_, i) => first + BigInt(i),
      );
      const got = await Promise.all(numbers.map((n) => source.fetchBlock(n)));
      for (const [i, n] of numbers.entries()) {
        expect(got[i], `block ${n}`).toEqual(await reference(n));
        seen += got[i]!.transactions.length;
      }
      expect(seen).toBe(3);
      expect(await source.fetchBlock(head + 1_000n)).toBeNull();
    }
  });

  it('reads blocks from a node with a limit on a batch, in batches it takes', async () => {
    // In front of the real node, what a node with a batch limit answers (geth over its
    // --rpc.batch-request-limit): one error object with the first call's id, not an array.
    const LIMIT = 2;
    const sizes: number[] = [];
    const proxy = await nodeProxy(async (calls, batch) => {
      sizes.push(calls.length);
      if (batch && calls.length > LIMIT)
        return {
          jsonrpc: '2.0',
          id: calls[0]!.id,
          error: { code: -32600, message: 'batch too large' },
        };
      return undefined;
    });
    try {
      const first = (await chain.pub.getBlockNumber()) + 1n;
      for (let i = 0; i < 3; i++) await chain.send(`0x${'6b'.repeat(20)}`, BigInt(i + 1));
      const head = await chain.pub.getBlockNumber();
      const limits: number[] = [];
      const source = createEvmBlockSource(proxy.url, {
        onBatchLimit: (size) => limits.push(size),
      });
      const numbers = Array.from(
        { length: Number(head - first + 1n) },
        (_, i) => first + BigInt(i),
      );
      const got = await Promise.all(numbers.map((n) => source.fetchBlock(n)));
      for (const [i, n] of numbers.entries())
        expect(got[i], `block ${n}`).toEqual(await reference(n));
      expect(limits.length).toBeGreaterThan(0);
      expect(limits.at(-1)).toBeLessThanOrEqual(LIMIT);
      // Once it knew, no more batches the node refuses.
      sizes.length = 0;
      await Promise.all(numbers.map((n) => source.fetchBlock(n)));
      expect(Math.max(...sizes)).toBeLessThanOrEqual(LIMIT);
    } finally {
      await proxy.close();
    }
  });

  it('reads a block again when its receipts come from another block (the chain changed in between)', async () => {
    // Between the block and its receipts the node reorganises onto block B at the same height
    // with the same transaction (another time and base fee: another hash and gas price). The
    // receipts asked for by number or by transaction hash are then B's.
    const { account } = chain.wallet;
    const to = `0x${'7c'.repeat(20)}` as Hex;
    for (const viaViem of [false, true]) {
      const parent = await chain.pub.getBlock();
      const raw = await chain.wallet.signTransaction({
        account: account!,
        chain: hardhat,
        to,
        value: 5n,
        nonce: await chain.pub.getTransactionCount({ address: account!.address }),
        gas: 21_000n,
        maxFeePerGas: 5_000_000_000n,
        maxPriorityFeePerGas: 1n,
      });
      const mineWith = async (timestamp: bigint, baseFeePerGas: bigint) => {
        await chain.test.setNextBlockTimestamp({ timestamp });
        await chain.test.setNextBlockBaseFeePerGas({ baseFeePerGas });
        const hash = await chain.wallet.sendRawTransaction({ serializedTransaction: raw });
        return (await chain.pub.waitForTransactionReceipt({ hash })).blockHash.toLowerCase();
      };
      const beforeA = await chain.test.snapshot();
      const a = await mineWith(parent.timestamp + 100n, 1_000_000_000n);
      let b: string | undefined;
      const proxy = await nodeProxy(async (calls) => {
        if (b === undefined && calls.some((c) => /Receipt/.test(c.method))) {
          b = '';
          await chain.test.revert({ id: beforeA });
          b = await mineWith(parent.timestamp + 200n, 2_000_000_000n);
        }
        return undefined;
      });
      try {
        const source = viaViem
          ? new EvmBlockSource(createEvmClient(proxy.url))
          : createEvmBlockSource(proxy.url);
        const failed = source.fetchBlock(parent.number + 1n);
        await expect(failed).rejects.toThrow(RetryableError);
        // Read beside the receipts, a node's traces (anvil's trace_block names its block) may
        // tell first: either way the block is read again.
        const n = parent.number + 1n;
        await expect(failed).rejects.toThrow(
          new RegExp(
            `^(the receipts read for block ${n} \\(${a}\\) belong to block ${b}|the node's traces of block ${n} \\(${a}\\) are of block ${b}: the chain changed while reading; reading again)`,
          ),
        );
        const again = await source.fetchBlock(parent.number + 1n);
        expect(again!.hash).toBe(b);
        expect(again).toEqual(await reference(parent.number + 1n));
        expect(again!.transactions[0]!.gasPrice).toBe(2_000_000_001n);
      } finally {
        await proxy.close();
      }
    }
  });

  it('refuses another block than the one asked for, and reads the block asked for again', async () => {
    // A cache or balancer before the node that answers the first read of block n with block n - 1.
    await chain.mine(2);
    const n = await chain.pub.getBlockNumber();
    const asked = `0x${n.toString(16)}`;
    for (const viaViem of [false, true]) {
      let swapped = false;
      const proxy = await nodeProxy(async (calls) => {
        for (const c of calls)
          if (!swapped && c.method === 'eth_getBlockByNumber' && c.params?.[0] === asked) {
            swapped = true;
            c.params[0] = `0x${(n - 1n).toString(16)}`;
          }
        return undefined;
      });
      try {
        const source = viaViem
          ? new EvmBlockSource(createEvmClient(proxy.url))
          : createEvmBlockSource(proxy.url);
        const below = (await chain.pub.getBlock({ blockNumber: n - 1n })).hash.toLowerCase();
        const err = await source.fetchBlock(n).catch((e) => e);
        expect(err).toBeInstanceOf(RetryableError);
        expect((err as Error).message).toBe(
          `the node answered block ${n} with block ${n - 1n} (${below}); reading again`,
        );
        expect(await source.fetchBlock(n)).toEqual(await reference(n));
      } finally {
        await proxy.close();
      }
    }
  });

  it('reads a block, and its receipts, in parts when an answer is over the size limit', async () => {
    // Four creations in one block, each 3,008 bytes of code whose constructor logs the code
    // whole (CODESIZE, CODECOPY, LOG0): the block with its transactions and the block's receipts
    // are each over the limit, one transaction or receipt is under it. On a chain with a high gas
    // limit this is a full block against the 10 MiB default. The limit is our reader's (an http(s)
    // node's); viem's webSocket transport, a ws(s) node's, has none.
    const LIMIT = 10_000;
    const { account } = chain.wallet;
    const nonce = await chain.pub.getTransactionCount({ address: account!.address });
    await chain.test.setAutomine(false);
    const hashes: Hex[] = [];
    try {
      for (let i = 0; i < 4; i++)
        hashes.push(
          await chain.wallet.sendTransaction({
            account: account!,
            chain: hardhat,
            data: `0x386000600039386000a000${(i + 1).toString(16).padStart(2, '0').repeat(3_000)}`,
            nonce: nonce + i,
            gas: 400_000n,
          }),
        );
      await chain.mine(1);
    } finally {
      await chain.test.setAutomine(true);
    }
    const receipts = await Promise.all(
      hashes.map((hash) => chain.pub.waitForTransactionReceipt({ hash })),
    );
    const n = receipts[0]!.blockNumber;
    expect(receipts.map((r) => [r.blockNumber, r.status, r.logs.length])).toEqual(
      hashes.map(() => [n, 'success', 1]),
    );
    const small = n - 1n; // a block of the tests above, under the limit

    {
      const methods: string[] = [];
      let dropOne = false;
      const proxy = await nodeProxy(async (calls) => {
        methods.push(...calls.map((c) => c.method));
        const drop = calls.find((c) => c.method === 'eth_getTransactionByHash');
        if (!dropOne || !drop) return undefined;
        // A node whose chain moved on meanwhile: the transaction is back in its pool (no block).
        dropOne = false;
        const answer = (await (
          await fetch(chain.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(calls),
          })
        ).json()) as { id: number; result: Record<string, unknown> }[];
        for (const a of answers(answer))
          if (a.id === drop.id) Object.assign(a.result, { blockHash: null, blockNumber: null });
        return answer;
      });
      const answers = <T>(a: T | T[]) => (Array.isArray(a) ? a : [a]);
      try {
        const source = createEvmBlockSource(proxy.url, { maxAnswerBytes: LIMIT });
        expect(await source.fetchBlock(small)).toEqual(await reference(small));
        const smallReads = [...methods];

        methods.length = 0;
        expect(await source.fetchBlock(n)).toEqual(await reference(n));
        // Asked whole first (refused while read, not asked again), then in parts.
        expect(methods.filter((m) => m === 'eth_getTransactionByHash')).toHaveLength(4);
        expect(methods.filter((m) => m === 'eth_getTransactionReceipt')).toHaveLength(4);
        expect(methods.filter((m) => m === 'eth_getBlockByNumber')).toHaveLength(2);

        // A block under the limit is read as before: the node's receipts call is not given up.
        methods.length = 0;
        expect(await source.fetchBlock(small)).toEqual(await reference(small));
        expect(methods).toEqual(smallReads);

        // One of the transactions out of the block by the time it is read: read again.
        dropOne = true;
        const err = await source.fetchBlock(n).catch((e) => e);
        expect(err).toBeInstanceOf(RetryableError);
        expect((err as Error).message).toMatch(
          new RegExp(
            `^transaction 0x[0-9a-f]{64} of block ${n} \\(${receipts[0]!.blockHash}\\) is not in a block now: the chain changed while reading; reading again$`,
          ),
        );
        expect(await source.fetchBlock(n)).toEqual(await reference(n));
      } finally {
        await proxy.close();
      }
    }
  });

  it('refuses a block with a malformed number, naming where', async () => {
    // A JSON-RPC 2.0 node of its own (single and batched requests): a block whose one
    // transaction's value is not a quantity ("12" instead of "0xc").
    const hash = `0x${'ab'.repeat(32)}`;
    const answers: Record<string, unknown> = {
      eth_getBlockByNumber: {
        number: '0x10',
        hash: `0x${'01'.repeat(32)}`,
        parentHash: `0x${'02'.repeat(32)}`,
        timestamp: '0x6553f100',
        transactions: [
          {
            hash,
            transactionIndex: '0x0',
            from: `0x${'03'.repeat(20)}`,
            to: `0x${'04'.repeat(20)}`,
            value: '12',
            gas: '0x5208',
            gasPrice: '0x1',
            nonce: '0x0',
            input: '0x',
          },
        ],
      },
      eth_getBlockReceipts: [
        {
          transactionHash: hash,
          contractAddress: null,
          gasUsed: '0x5208',
          effectiveGasPrice: '0x1',
          status: '0x1',
          logs: [],
        },
      ],
    };
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const parsed = JSON.parse(body) as
          | { id: number; method: string }[]
          | { id: number; method: string };
        const one = (r: { id: number; method: string }) =>
          r.method in answers
            ? { jsonrpc: '2.0', id: r.id, result: answers[r.method] }
            : { jsonrpc: '2.0', id: r.id, error: { code: -32601, message: 'Method not found' } };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(one) : one(parsed)));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const source of [createEvmBlockSource(url), new EvmBlockSource(createEvmClient(url))]) {
        const err = await source.fetchBlock(16n).catch((e) => e);
        expect(err).toBeInstanceOf(RetryableError);
        expect((err as Error).message).toBe(
          `the node answered transaction ${hash} of block 16 with a malformed number as its value: "12"`,
        );
      }
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
