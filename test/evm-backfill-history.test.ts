/**
 * A backfill from a node that does not serve history that far back fails with the reason instead
 * of waiting for it for good, and the live follower goes on meanwhile: a node that keeps receipts,
 * or the transaction index that finds them (geth's --history.transactions), only for recent
 * blocks; and a node that no longer has the blocks (history expiry). The node is the test's own
 * chain (Hardhat, or anvil in the anvil suite) behind a proxy that answers as such a node does for
 * blocks at or below a height (test/helpers/history-proxy.ts): null for the receipts (by block or
 * by transaction hash), or geth's error 4444 for the block and its receipts.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getBackfill, requestBackfill } from '../src/indexer/backfill.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { startOwnChain, type OwnChain } from './helpers/own-chain.js';
import { randomAddress } from './helpers/chain.js';
import { historyProxy } from './helpers/history-proxy.js';

let chain: OwnChain;
let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>> | undefined;
let proxy: Awaited<ReturnType<typeof historyProxy>>;
/** The history the node behind the proxy does not serve (the proxy's limits). */
let forgotten: typeof proxy.forgotten;
let firstTxBlock: bigint;

beforeAll(async () => {
  chain = await startOwnChain();
  firstTxBlock = (await chain.pub.getBlockNumber()) + 1n;
  for (let i = 0; i < 12; i++) await chain.send(randomAddress());
  await chain.mine(20);
  proxy = await historyProxy(chain.url);
  forgotten = proxy.forgotten;
  db = await freshDatabase();
  app = await startTestAppliance(
    db.url,
    {
      TOLLGATE_RPC_ETH: proxy.url,
      TOLLGATE_START_BLOCK_ETH: 'head',
      TOLLGATE_POLL_INTERVAL_MS_ETH: '50',
      TOLLGATE_FINALITY_ETH: 'depth',
    },
    { api: false, worker: false, indexer: 'all', devChain: false },
  );
  await chain.indexedHead(db.sql);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await proxy?.close();
  await db?.drop();
  await chain?.stop();
});

/** Requests a backfill from `from` and waits until it is no longer running. */
const backfillUntilOver = async (from: bigint) => {
  const { backfill } = await requestBackfill(db.sql, { network: 'eth', from, requestedBy: 'test' });
  return (await eventually(
    () => getBackfill(db.sql, backfill.id),
    (b) => b?.status !== 'running',
    60_000,
  ))!;
};

it('fails a backfill whose receipts the node no longer serves, naming the block and what to change; the live follower goes on', async () => {
  forgotten.receiptsUpTo = firstTxBlock + 3n;
  const failed = await backfillUntilOver(firstTxBlock);
  expect(failed.status).toBe('failed');
  expect(failed.error).toMatch(
    /^the node has block (\d+) but no receipt for its transaction 0x[0-9a-f]{64}: the eth node does not serve history this far back \(it keeps receipts, or the transaction index that finds them, for recent blocks only; geth: --history\.transactions=0 indexes every block\)$/,
  );
  expect(BigInt(/block (\d+)/.exec(failed.error!)![1]!)).toBeLessThanOrEqual(
    forgotten.receiptsUpTo,
  );
  // What it stored before is kept: the batch of blocks above is stored or not as a whole.
  expect(BigInt(failed.next_block)).toBeGreaterThanOrEqual(forgotten.receiptsUpTo);
  // Meanwhile, and after, the head is followed.
  const seen = proxy.stats.requests;
  await chain.send(randomAddress());
  await chain.indexedHead(db.sql);
  expect(proxy.stats.requests).toBeGreaterThan(seen);
}, 90_000);

it('fails a backfill of history the node pruned, with its answer', async () => {
  forgotten.receiptsUpTo = -1n;
  forgotten.prunedUpTo = firstTxBlock + 2n;
  const failed = await backfillUntilOver(firstTxBlock);
  expect(failed.status).toBe('failed');
  expect(failed.error).toMatch(
    /^the node does not serve block (\d+) \(it answered: pruned history unavailable\): the eth node does not serve history this far back \(pruned or expired there: backfill from a later block, or use a node that keeps full history\)$/,
  );
  expect(BigInt(/block (\d+)/.exec(failed.error!)![1]!)).toBeLessThanOrEqual(forgotten.prunedUpTo);
  await chain.send(randomAddress());
  await chain.indexedHead(db.sql);
}, 90_000);

it('completes the backfill once the node serves that history', async () => {
  forgotten.prunedUpTo = -1n;
  const done = await backfillUntilOver(firstTxBlock);
  expect(done.status).toBe('done');
  const [row] = await db.sql<{ n: number }[]>`
    select count(*)::int as n from evm_transactions where block_number between ${firstTxBlock.toString()} and ${(firstTxBlock + 11n).toString()}`;
  expect(row!.n).toBe(12);
}, 90_000);

it('records a node that keeps failing block reads for /readyz, and clears it once they pass', async () => {
  // Every receipt from now on missing: the live follower cannot store the next block.
  forgotten.receiptsUpTo = 1n << 62n;
  await chain.send(randomAddress());
  const [failing] = await eventually(
    () =>
      db.sql<
        { node: string; error: string }[]
      >`select node, error from indexer_node_errors where network = 'eth'`,
    (rows) => rows.length > 0,
    30_000,
  );
  expect(failing!.error).toMatch(/^RetryableError: |^HistoryUnavailableError: /);
  expect(failing!.error).toMatch(
    /the node has block \d+ but no receipt for its transaction 0x[0-9a-f]{64}/,
  );
  expect(failing!.node).toBe(proxy.url);
  forgotten.receiptsUpTo = -1n;
  await chain.indexedHead(db.sql);
  await eventually(
    () => db.sql`select 1 from indexer_node_errors where network = 'eth'`,
    (rows) => rows.length === 0,
    30_000,
  );
}, 90_000);
