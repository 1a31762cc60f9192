import { type Hex, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmBlockSource, type TraceOptions } from '../src/chains/evm/client.js';
import { RetryableError } from '../src/errors.js';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { Mixer, Refuser } from './helpers/mixer.js';
import { fundedWallet } from './helpers/chain.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { startOwnChain, type OwnChain } from './helpers/own-chain.js';
import { Receiver } from './helpers/receiver.js';
import { edgeCount, graphOf, trackLiveAml } from './helpers/aml-graph.js';
import { type RpcAnswer, rewritingProxy } from './helpers/rewriting-proxy.js';

/**
 * Internal transfers: coin a contract pays out inside a transaction (a mixer's withdrawal to its
 * recipient, sent by a relayer's call), which neither the transaction nor its receipt shows, read
 * from the node's call traces (`debug_traceBlockByNumber` with geth's `callTracer`). On anvil,
 * which has them, whatever the suite's node (Hardhat has none): a real appliance and Postgres.
 * The payout reaches the recipient's stream, its live AML alert, its wallet history and its AML
 * exposure; a payout that failed moves nothing; a reorg takes it all back. Then the block reader
 * against a node that answers traces as other nodes may: none, without the state, or wrong.
 */

let chain: OwnChain;
let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let aml: Receiver;
let streams: Receiver;
let apikey: string;
let mixer: Hex;
let owner: Awaited<ReturnType<typeof account>>;
/** The blocks of the first test's payout and of the second's failed one, for the reader's tests. */
let payoutBlock: bigint;
let failedPayBlock: bigint;

const account = () => fundedWallet('10', chain.url);
const fresh = () => privateKeyToAccount(generatePrivateKey()).address.toLowerCase() as Hex;

const edge = (a: string, b: string) => edgeCount(db.sql, a, b);

const internalRows = (hash: string) => db.sql<
  { kind: string; from_address: string; to_address: string; value: string; trace_index: number }[]
>`select kind, from_address, to_address, value::text, trace_index from evm_internal_transfers
  where network = 'eth' and tx_hash = ${hash} order by trace_index`;

/** Tracks `address` for live AML, with a stream so that its transactions are seen indexed. */
const track = (address: string) => trackLiveAml(app.baseUrl, apikey, address, aml.url, streams.url);

/** The stream event of `hash` for `address`, once delivered. */
async function streamed(address: string, hash: string) {
  const match = (r: (typeof streams.received)[number]) =>
    r.json?.tx?.hash === hash && r.json.tx.address === address && r.json.confirmed === false;
  return (await streams.waitFor((all) => all.some(match))).find(match)!.json;
}

const graph = () => graphOf(db.sql);

beforeAll(async () => {
  chain = await startOwnChain({ node: 'anvil' });
  db = await freshDatabase();
  aml = await new Receiver().start();
  streams = await new Receiver().start();
  app = await startTestAppliance(db.url, {
    TOLLGATE_RPC_ETH: chain.url,
    TOLLGATE_FINALITY_ETH: 'depth',
    TOLLGATE_CONFIRMATIONS_ETH: '8',
    TOLLGATE_POLL_INTERVAL_MS_ETH: '50',
  });
  apikey = (await createApiKey(db.sql, 'internal-transfers')).apikey;
  owner = await account();
  mixer = (await owner.deploy(Mixer!)).toLowerCase() as Hex;
  // Deposited by a clean account (its deployer is labelled too, as the creator of a mixer).
  await (await account()).send(mixer, parseEther('5'));
  await db.sql`insert into labels (network, address, category, source) values ('evm', ${mixer}, 'mixer', 'test')`;
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await aml?.stop();
  await streams?.stop();
  await db?.drop();
  await chain?.stop();
});

describe('internal transfers, from the call traces of a node that has them (anvil)', () => {
  it("sees a mixer's payout to a tracked address: its stream event, live AML alert, wallet history and exposure", async () => {
    const recipient = fresh();
    await track(recipient);
    const relayer = await account();
    const withdrawal = await relayer.write(mixer, Mixer!.abi, 'withdraw', [
      recipient,
      parseEther('1'),
    ]);
    payoutBlock = withdrawal.blockNumber;
    const hash = withdrawal.transactionHash;
    // The relayer called the mixer with no value: only the trace shows who was paid.
    expect((await chain.pub.getTransaction({ hash })).value).toBe(0n);

    const event = await streamed(recipient, hash);
    expect(event.tx.from).toBe(relayer.address.toLowerCase());
    expect(event.tx.to).toBe(mixer);
    expect(event.internalTransfers).toEqual([
      { from: mixer, to: recipient, type: 'call', index: 1, value: 1e18, formattedValue: 1 },
    ]);

    const alert = (
      await aml.waitFor((all) =>
        all.some((r) => r.json?.hash === hash && r.json.address === recipient),
      )
    ).find((r) => r.json?.hash === hash)!.json;
    expect(alert.hash_tags).toEqual({ direct_mixer: true });
    expect(alert.triggered_by).toEqual([
      expect.objectContaining({ tag: 'direct_mixer', counterparty: mixer, labelled: mixer }),
    ]);

    const history = await call(
      app.baseUrl,
      'GET',
      `/v2/wallet/transactions?address=${recipient}&page=1&limit=10`,
      { headers: { apikey } },
    );
    expect(history.json.data.map((t: { hash: string }) => t.hash)).toEqual([hash]);

    const analysis = await call(
      app.baseUrl,
      'GET',
      `/v2/analyze/aml?address=${recipient}&network=eth&detail=true`,
      { headers: { apikey } },
    );
    expect(analysis.json.data.tags.direct_mixer).toBe(true);
    expect(JSON.stringify(analysis.json.data)).toContain(mixer);
    expect(await edge(recipient, mixer)).toBe('1');
    // The relayer moved nothing: not the mixer's counterparty.
    expect(await edge(relayer.address, mixer)).toBeUndefined();
    // tx_detail lists the payout as a transfer of the coin, and its AML data counts the mixer.
    const detail = await call(
      app.baseUrl,
      'GET',
      `/v2/analyze/tx_detail?hash=${hash}&network=eth`,
      { headers: { apikey } },
    );
    expect(detail.json.data.transfers).toEqual([
      { from: mixer, to: recipient, value: 1, token_name: 'Ethereum', token_symbol: 'ETH' },
    ]);
    expect(detail.json.data.aml_data.tags.mixer).toBe(true);
    expect(await internalRows(hash)).toEqual([
      {
        kind: 'call',
        from_address: mixer,
        to_address: recipient,
        value: '1000000000000000000',
        trace_index: 1,
      },
    ]);
  });

  it('records nothing for a payout that failed inside a transaction that succeeded', async () => {
    const refuser = (await owner.deploy(Refuser!)).toLowerCase() as Hex;
    const caller = await account();
    const tracked = caller.address.toLowerCase();
    await track(tracked);
    const sent = await caller.write(mixer, Mixer!.abi, 'tryPay', [refuser, parseEther('1')]);
    expect(sent.status).toBe('success');
    failedPayBlock = sent.blockNumber;
    const event = await streamed(tracked, sent.transactionHash);
    // Traced, and nothing moved: an empty list, not an absent one.
    expect(event.internalTransfers).toEqual([]);
    expect(await internalRows(sent.transactionHash)).toEqual([]);
    expect(await edge(mixer, refuser)).toBeUndefined();
    expect(
      (
        await db.sql`select 1 from evm_tx_addresses where network = 'eth' and tx_hash = ${sent.transactionHash} and address = ${refuser}`
      ).length,
    ).toBe(0);
  });

  it("records a contract created with a value and a self-destruct's payout, each by its kind", async () => {
    // A mixer of its own: its self-destruct pays out all it holds.
    const own = (await owner.deploy(Mixer!)).toLowerCase() as Hex;
    await owner.send(own, parseEther('1'));
    const caller = await account();
    const created = await caller.write(own, Mixer!.abi, 'spawn', [7n]);
    const heir = fresh();
    const gone = await caller.write(own, Mixer!.abi, 'bye', [heir]);
    await chain.indexedHead(db.sql);
    const [child] = await internalRows(created.transactionHash);
    expect(child).toMatchObject({
      kind: 'create',
      from_address: own,
      value: '7',
      trace_index: 1,
    });
    expect(child!.to_address).toMatch(/^0x[0-9a-f]{40}$/);
    const balanceLeft = await chain.pub.getBalance({ address: heir });
    expect(balanceLeft).toBeGreaterThan(0n);
    expect(await internalRows(gone.transactionHash)).toEqual([
      {
        kind: 'selfdestruct',
        from_address: own,
        to_address: heir,
        value: balanceLeft.toString(),
        trace_index: 1,
      },
    ]);
    expect(await edge(heir, own)).toBe('1');
  });

  it('takes back in a reorg exactly what a payout added', async () => {
    await chain.indexedHead(db.sql);
    const before = await graph();
    const snapshot = await chain.test.snapshot();
    const relayer = await account();
    const recipient = fresh();
    const withdrawal = await relayer.write(mixer, Mixer!.abi, 'withdraw', [recipient, 5n]);
    await chain.indexedHead(db.sql);
    expect(await internalRows(withdrawal.transactionHash)).toHaveLength(1);
    expect(await edge(recipient, mixer)).toBe('1');

    await chain.test.revert({ id: snapshot });
    await chain.mine(6);
    await chain.indexedHead(db.sql);
    expect(await internalRows(withdrawal.transactionHash)).toEqual([]);
    expect(await graph()).toEqual(before);
  });

  it('stores each block as traced, and /metrics says the newest was', async () => {
    const [row] = await db.sql<{ traced: boolean | null }[]>`
      select traced from evm_blocks where network = 'eth' and number = ${payoutBlock.toString()}`;
    expect(row!.traced).toBe(true);
    const metrics = await call(app.baseUrl, 'GET', '/metrics');
    expect(metrics.text).toMatch(/^tollgate_indexer_call_traces\{network="eth"\} 1$/m);
  });
});

describe("the block reader against a node's other answers to a trace", () => {
  type Rewrites = Partial<Record<string, (own: RpcAnswer) => RpcAnswer>>;
  /** The reader through a proxy of this chain that answers the methods in `rewrites` by them. */
  async function readThrough(
    rewrites: Rewrites,
    opts: TraceOptions & { maxAnswerBytes?: number } = {},
  ) {
    const proxy = await rewritingProxy(chain.url);
    const asked: string[] = [];
    proxy.set((c, own) => {
      asked.push(c.method);
      return rewrites[c.method]?.(own) ?? own;
    });
    const told: [boolean, string][] = [];
    const untraced: [bigint, string][] = [];
    const source = createEvmBlockSource(proxy.url, {
      onTracing: (on, why) => told.push([on, why]),
      onUntraced: (block, why) => untraced.push([block, why]),
      ...opts,
    });
    return { proxy, asked, told, untraced, source };
  }
  const error = (own: RpcAnswer, code: number, message: string): RpcAnswer => ({
    jsonrpc: '2.0',
    id: own.id,
    error: { code, message },
  });
  /** As geth answers a method it does not have (trace_block, on geth). */
  const unknown = (own: RpcAnswer) =>
    error(own, -32601, 'the method trace_block does not exist/is not available');
  /** A node like geth: no trace_block, the call tracer. */
  const GETH: Rewrites = { trace_block: unknown };

  it("reads the payout with trace_block, the same with geth's call tracer where there is none, and nothing with traces off", async () => {
    const flat = await readThrough({});
    const geth = await readThrough(GETH);
    const off = await readThrough({}, { internalTransfers: 'off' });
    try {
      const block = await flat.source.fetchBlock(payoutBlock);
      expect(block!.traced).toBe(true);
      expect(block!.transactions.flatMap((t) => t.internal)).toEqual([
        { index: 1, kind: 'call', from: mixer, to: expect.any(String), value: 10n ** 18n },
      ]);
      expect(flat.told).toEqual([[true, 'trace_block answered']]);
      expect(flat.asked).not.toContain('debug_traceBlockByNumber');
      expect(await geth.source.fetchBlock(payoutBlock)).toEqual(block);
      expect(geth.told).toEqual([[true, 'debug_traceBlockByNumber answered']]);
      const plain = await off.source.fetchBlock(payoutBlock);
      expect(plain!.traced).toBe(false);
      expect(plain!.transactions.flatMap((t) => t.internal)).toEqual([]);
      expect(off.asked.filter((m) => /trace/.test(m))).toEqual([]);
    } finally {
      for (const r of [flat, geth, off]) await r.proxy.close();
    }
  });

  it('stores blocks untraced where the node has no traces, says so once, and asks no more', async () => {
    const r = await readThrough({
      trace_block: unknown,
      debug_traceBlockByNumber: (own) =>
        error(own, -32601, 'the method debug_traceBlockByNumber does not exist/is not available'),
    });
    try {
      for (const n of [payoutBlock, failedPayBlock]) {
        const block = await r.source.fetchBlock(n);
        expect(block!.traced).toBe(false);
      }
      expect(r.told).toEqual([
        [false, expect.stringMatching(/^debug_traceBlockByNumber: .*does not exist/)],
      ]);
      expect(r.asked.filter((m) => /trace/.test(m))).toEqual([
        'trace_block',
        'debug_traceBlockByNumber',
      ]);
    } finally {
      await r.proxy.close();
    }
  });

  it.each([
    ['trace_block', {}],
    ['debug_traceBlockByNumber', GETH],
  ] as const)(
    'stores a block untraced where the node lacks its state (%s), and tells which',
    async (method, node) => {
      const r = await readThrough({
        ...node,
        [method]: (own: RpcAnswer) =>
          error(own, -32000, 'required historical state unavailable (reexec=128)'),
      });
      try {
        const block = await r.source.fetchBlock(payoutBlock);
        expect(block!.traced).toBe(false);
        expect(r.untraced).toEqual([[payoutBlock, expect.stringMatching(/historical state/)]]);
      } finally {
        await r.proxy.close();
      }
    },
  );

  it.each([
    ['trace_block', 'trace_transaction', {}],
    ['debug_traceBlockByNumber', 'debug_traceTransaction', GETH],
  ] as const)(
    "reads a block's traces over the answer limit one transaction at a time (%s, then %s); one over it leaves the block untraced",
    async (block, perTx, node) => {
      // Each answer padded past a limit of 64 KiB (a full block's traces carry every call's input).
      const padded = (own: RpcAnswer): RpcAnswer => ({
        ...own,
        result: Array.isArray(own.result)
          ? own.result.map((t) => ({ ...t, padding: 'x'.repeat(600_000) }))
          : { ...(own.result as object), padding: 'x'.repeat(600_000) },
      });
      const limit = { maxAnswerBytes: 64 * 1024 };
      const parts = await readThrough({ ...node, [block]: padded }, limit);
      const none = await readThrough({ ...node, [block]: padded, [perTx]: padded }, limit);
      try {
        const read = await parts.source.fetchBlock(payoutBlock);
        expect(read!.traced).toBe(true);
        expect(read!.transactions.flatMap((t) => t.internal)).toEqual([
          expect.objectContaining({ kind: 'call', from: mixer, value: 10n ** 18n }),
        ]);
        expect(parts.asked).toContain(perTx);
        const untraced = await none.source.fetchBlock(payoutBlock);
        expect(untraced!.traced).toBe(false);
        expect(none.untraced).toEqual([
          [payoutBlock, expect.stringMatching(/over the answer limit/)],
        ]);
      } finally {
        await parts.proxy.close();
        await none.proxy.close();
      }
    },
  );

  it('reads again a block whose traces are of another block or other transactions, or failed otherwise', async () => {
    const cases: [Rewrites, RegExp][] = [
      [
        {
          trace_block: (own) => ({
            ...own,
            result: (own.result as object[]).map((t) => ({
              ...t,
              blockHash: `0x${'cd'.repeat(32)}`,
            })),
          }),
        },
        /traces of block \d+ \(0x[0-9a-f]{64}\) are of block 0xcdcd.*the chain changed while reading/,
      ],
      [
        {
          trace_block: (own) => ({
            ...own,
            result: (own.result as object[]).map((t) => ({
              ...t,
              transactionHash: `0x${'ab'.repeat(32)}`,
            })),
          }),
        },
        /name transaction 0xabab.*which the block does not hold/,
      ],
      [{ trace_block: (own) => ({ ...own, result: [] }) }, /has no trace of its transaction 0x/],
      [
        {
          ...GETH,
          debug_traceBlockByNumber: (own) => ({
            ...own,
            result: (own.result as object[]).map((t) => ({ ...t, txHash: `0x${'ab'.repeat(32)}` })),
          }),
        },
        /is of transaction 0xabab.*the chain changed while reading/,
      ],
      [
        { ...GETH, debug_traceBlockByNumber: (own) => ({ ...own, result: [] }) },
        /0 traces for 1 transactions/,
      ],
      [
        { trace_block: (own) => error(own, -32000, 'execution timeout') },
        /trace_block failed for block \d+: .*execution timeout/,
      ],
      [
        { ...GETH, debug_traceBlockByNumber: (own) => error(own, -32000, 'execution timeout') },
        /debug_traceBlockByNumber failed for block \d+: .*execution timeout/,
      ],
    ];
    for (const [rewrites, message] of cases) {
      const r = await readThrough(rewrites);
      try {
        const failed = await r.source.fetchBlock(payoutBlock).catch((e: unknown) => e);
        expect(failed, String(message)).toBeInstanceOf(RetryableError);
        expect((failed as Error).message).toMatch(message);
        // Not taken for a node without traces: asked again for the next block.
        expect(r.told).toEqual([]);
      } finally {
        await r.proxy.close();
      }
    }
  });

  it('refuses a trace whose frames are not frames, naming the transaction', async () => {
    const badFrame = { type: 'CALL', from: mixer, to: 'nobody', value: '0x1' };
    const flat = await readThrough({
      trace_block: (own) => ({
        ...own,
        result: (own.result as { action: object }[]).map((t) => ({
          ...t,
          action: { ...t.action, callType: 'call', value: 'lots' },
          traceAddress: [0],
        })),
      }),
    });
    const geth = await readThrough({
      ...GETH,
      debug_traceBlockByNumber: (own) => ({
        ...own,
        result: (own.result as { result: object }[]).map((t) => ({
          ...t,
          result: { ...t.result, calls: [badFrame] },
        })),
      }),
    });
    try {
      await expect(flat.source.fetchBlock(payoutBlock)).rejects.toThrow(
        new RegExp(
          `call trace of transaction 0x[0-9a-f]{64} of block ${payoutBlock} has a malformed trace value: "lots"`,
        ),
      );
      await expect(geth.source.fetchBlock(payoutBlock)).rejects.toThrow(
        new RegExp(
          `call trace of transaction 0x[0-9a-f]{64} of block ${payoutBlock} has a malformed call recipient: "nobody"`,
        ),
      );
    } finally {
      await flat.proxy.close();
      await geth.proxy.close();
    }
  });
});
