/**
 * The indexer against answers other EVM node software gives, which the dev nodes do not: the
 * test's own chain (Hardhat, or anvil in the anvil suite) behind a proxy that rewrites its
 * answers (test/helpers/rewriting-proxy.ts), written from the JSON-RPC specification and what
 * other clients send. Found by an outside probe with its own proxy in front of anvil.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { call } from './helpers/http.js';
import { captureLog } from './helpers/log-capture.js';
import { Receiver } from './helpers/receiver.js';
import { randomAddress } from './helpers/chain.js';
import { startOwnChain, type OwnChain } from './helpers/own-chain.js';
import { type RpcAnswer, rewritingProxy, upperCaseHashes } from './helpers/rewriting-proxy.js';

let chain: OwnChain;
let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>> | undefined;
let proxy: Awaited<ReturnType<typeof rewritingProxy>>;
let receiver: Receiver;
let apikey: string;
let log: ReturnType<typeof captureLog>;

beforeAll(async () => {
  chain = await startOwnChain();
  // A node with eth_getBlockReceipts (anvil's own; Hardhat's given by the proxy).
  proxy = await rewritingProxy(chain.url, { blockReceipts: true });
  db = await freshDatabase();
  receiver = await new Receiver().start();
  log = captureLog();
  app = await startTestAppliance(db.url, {
    TOLLGATE_RPC_ETH: proxy.url,
    TOLLGATE_START_BLOCK_ETH: 'head',
    TOLLGATE_POLL_INTERVAL_MS_ETH: '50',
    TOLLGATE_FINALITY_ETH: 'depth',
    TOLLGATE_LOG_LEVEL: 'warn',
  });
  apikey = (await createApiKey(db.sql, 'node-answers')).apikey;
  await chain.indexedHead(db.sql);
}, 120_000);

afterAll(async () => {
  log?.restore();
  await app?.stop();
  await proxy?.close();
  await receiver?.stop();
  await db?.drop();
  await chain?.stop();
});

beforeEach(() => proxy.set(undefined));

/** The stored row of a transaction. */
const stored = async (hash: string) =>
  (
    await db.sql<{ status: number | null; gas_price: string | null; block_hash: string }[]>`
      select status, gas_price::text, block_hash from evm_transactions where network = 'eth' and hash = ${hash.toLowerCase()}`
  )[0];

const reorgs = async () =>
  Number(
    (
      await db.sql<
        { n: string }[]
      >`select reorg_count::text as n from indexer_cursors where network = 'eth'`
    )[0]!.n,
  );

describe('EVM node answers of other node software', () => {
  it('takes hashes in upper-case hex as the same hashes: no reorg, nothing re-indexed', async () => {
    // The indexer compared the node's hash with its own lower-case one as text: every block
    // looked replaced, and a short chain was deleted and indexed again, over and over.
    const before = await reorgs();
    proxy.set((_c, answer) => ({ ...answer, result: upperCaseHashes(answer.result) }) as RpcAnswer);
    const hashes = [];
    for (let i = 0; i < 3; i++) hashes.push(await chain.send(randomAddress()));
    await chain.mine(2);
    await chain.indexedHead(db.sql);
    for (const h of hashes) expect(await stored(h)).toBeDefined();
    // A few more polls of the same head, then: no reorg was taken.
    await new Promise((r) => setTimeout(r, 500));
    expect(await reorgs()).toBe(before);
    const [row] = await db.sql<{ hash: string; parent_hash: string }[]>`
      select hash, parent_hash from evm_blocks where network = 'eth' order by number desc limit 1`;
    expect(row!.hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(row!.parent_hash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('reads receipts one transaction at a time when the node stops having eth_getBlockReceipts', async () => {
    // A node that has eth_getBlockReceipts …
    let refuse = false;
    proxy.set((c, answer) =>
      refuse && c.method === 'eth_getBlockReceipts'
        ? {
            jsonrpc: '2.0',
            id: c.id,
            error: {
              code: -32601,
              message: 'the method eth_getBlockReceipts does not exist/is not available',
            },
          }
        : answer,
    );
    const first = await chain.send(randomAddress());
    await chain.indexedHead(db.sql);
    expect(await stored(first)).toBeDefined();
    // … then says it has none (a balancer over other clients, a restart with other flags): the
    // indexer asked again for good.
    refuse = true;
    const second = await chain.send(randomAddress());
    await chain.indexedHead(db.sql);
    expect(await stored(second)).toBeDefined();
    expect(log.text()).toContain('the node no longer has eth_getBlockReceipts');
  });

  it('works out the gas price paid from the fee caps when neither the receipt nor the transaction gives it', async () => {
    // Receipts without effectiveGasPrice (nodes before London), EIP-1559 transactions without
    // gasPrice: the price was stored as unknown and served as 0.
    proxy.set((c, answer) => {
      const strip = (r: Record<string, unknown> | null) => {
        if (r) delete r.effectiveGasPrice;
        return r;
      };
      if (c.method === 'eth_getTransactionReceipt')
        return { ...answer, result: strip(answer.result as Record<string, unknown>) };
      if (c.method === 'eth_getBlockReceipts' && Array.isArray(answer.result))
        return { ...answer, result: (answer.result as Record<string, unknown>[]).map(strip) };
      if (c.method === 'eth_getBlockByNumber' && answer.result) {
        const block = answer.result as { transactions: (Record<string, unknown> | string)[] };
        for (const tx of block.transactions)
          if (typeof tx === 'object' && tx.type === '0x2') delete tx.gasPrice;
      }
      return answer;
    });
    const hash = await chain.send(randomAddress());
    const receipt = await chain.pub.getTransactionReceipt({ hash });
    await chain.indexedHead(db.sql);
    expect((await stored(hash))!.gas_price).toBe(receipt.effectiveGasPrice.toString());
  });

  it('says a transaction without its sender is the node’s malformed answer, naming the node, and goes on once it answers well', async () => {
    // It was a TypeError inside the indexer, and /readyz named no node and no cause.
    proxy.set((c, answer) => {
      if (c.method === 'eth_getBlockByNumber' && answer.result && c.params?.[1] === true)
        for (const tx of (answer.result as { transactions: Record<string, unknown>[] })
          .transactions)
          delete tx.from;
      return answer;
    });
    const hash = await chain.send(randomAddress());
    const failing = await eventually(
      () =>
        db.sql<
          { node: string; error: string }[]
        >`select node, error from indexer_node_errors where network = 'eth'`,
      (r) => r.length > 0,
      30_000,
    );
    expect(failing[0]!.node).toBe(proxy.url);
    expect(failing[0]!.error).toMatch(
      /the node answered transaction 0x[0-9a-f]{64} of block \d+ with a malformed hex string as its from: none/,
    );
    expect(await stored(hash)).toBeUndefined();
    proxy.set(undefined);
    await chain.indexedHead(db.sql);
    expect(await stored(hash)).toBeDefined();
    await eventually(
      () => db.sql`select 1 from indexer_node_errors where network = 'eth'`,
      (r) => r.length === 0,
    );
  });

  it('announces a receipt without a status (before Byzantium: a state root) as unknown, not as a success', async () => {
    const address = randomAddress();
    const created = await call(app!.baseUrl, 'POST', '/v2/stream/create', {
      headers: { apikey },
      body: { address, webhook: receiver.url },
    });
    expect(created.status).toBe(200);
    const preByzantium = (r: Record<string, unknown> | null) => {
      if (!r) return r;
      delete r.status;
      r.root = `0x${'ab'.repeat(32)}`;
      return r;
    };
    proxy.set((c, answer) => {
      if (c.method === 'eth_getTransactionReceipt')
        return { ...answer, result: preByzantium(answer.result as Record<string, unknown>) };
      if (c.method === 'eth_getBlockReceipts' && Array.isArray(answer.result))
        return {
          ...answer,
          result: (answer.result as Record<string, unknown>[]).map(preByzantium),
        };
      return answer;
    });
    const hash = await chain.send(address as `0x${string}`);
    await chain.indexedHead(db.sql);
    expect((await stored(hash))!.status).toBeNull();
    const [hook] = await receiver.waitFor((all) => all.some((r) => r.json?.tx?.hash === hash));
    const body = receiver.received.find((r) => r.json?.tx?.hash === hash)!.json;
    expect(hook).toBeDefined();
    expect(body.tx.status).toBeNull();
  });
});
