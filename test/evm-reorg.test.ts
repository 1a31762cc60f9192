import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { Receiver } from './helpers/receiver.js';
import { expectWebhookContract } from './helpers/webhook-contract.js';
import { eventually } from './helpers/eventually.js';
import { startOwnChain, type OwnChain } from './helpers/own-chain.js';
import { compareChainTables } from './helpers/compare.js';

// A node of this file's own: evm_revert would rewind every other test file's chain.
let chain: OwnChain;
let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let receiver: Receiver;
const streamed = privateKeyToAccount(generatePrivateKey()).address;
const env = () => ({
  TOLLGATE_RPC_ETH: chain.url,
  // Hardhat calls every block final, and these blocks are reverted: the depth limit alone.
  TOLLGATE_FINALITY_ETH: 'depth',
  TOLLGATE_CONFIRMATIONS_ETH: '8',
  TOLLGATE_MAX_REORG_DEPTH_ETH: '6',
  TOLLGATE_POLL_INTERVAL_MS_ETH: '50',
});

beforeAll(async () => {
  chain = await startOwnChain();
  db = await freshDatabase();
  receiver = await new Receiver().start();
  app = await startTestAppliance(db.url, env());
  const key = await createApiKey(db.sql, 'reorg');
  await call(app.baseUrl, 'POST', '/v2/stream/create', {
    headers: { apikey: key.apikey },
    body: { address: streamed, webhook: receiver.url },
  });
});
afterAll(async () => {
  await app?.stop();
  await receiver?.stop();
  await db?.drop();
  await chain?.stop();
});

const send = (): Promise<Hex> => chain.send(streamed);

const indexedHead = () => chain.indexedHead(db.sql);
const mine = (blocks: number) => chain.mine(blocks);

const forTx = (hash: string) => receiver.received.filter((r) => r.json?.tx?.hash === hash);

describe('EVM reorgs', () => {
  const orphaned: string[] = [];

  it.each([1, 2, 3, 4, 5])(
    'reverts a reorg of depth %i and retracts what was delivered',
    async (depth) => {
      await indexedHead();
      const snapshot = await chain.test.snapshot();
      const txs: string[] = [];
      for (let i = 0; i < depth; i++) txs.push(await send());
      // Every unconfirmed delivery arrived before the reorg.
      await eventually(
        () =>
          db.sql`select count(*)::int as n from webhook_events where tx_hash = any(${txs}) and status = 'delivered'`,
        (r) => r[0]!.n === depth,
      );
      await chain.test.revert({ id: snapshot });
      await mine(depth + 1);
      await indexedHead();

      for (const hash of txs) {
        await receiver.waitFor(() => forTx(hash).some((r) => r.json.removed === true));
        const got = forTx(hash);
        expect(got.filter((r) => r.json.removed === true)).toHaveLength(1);
        const retraction = got.find((r) => r.json.removed === true)!;
        const original = got.find((r) => r.json.removed === undefined)!;
        expect(retraction.json.confirmed).toBe(false);
        expect(retraction.headers['webhook-id']).not.toBe(original.headers['webhook-id']);
        // The same body under a sequence of its own, after the original's.
        expect(retraction.json.sequence).toBeGreaterThan(original.json.sequence);
        expect({ ...retraction.json, removed: undefined, sequence: undefined }).toEqual({
          ...original.json,
          removed: undefined,
          sequence: undefined,
        });
        expectWebhookContract('streamEvm', [original.json]);
        expectWebhookContract('retraction', [retraction.json]);
      }
      const left = await db.sql`select hash from evm_transactions where hash = any(${txs})`;
      expect(left).toHaveLength(0);
      const [cursor] =
        await db.sql`select last_reorg_depth from indexer_cursors where network = 'eth'`;
      expect(cursor!.last_reorg_depth).toBe(depth);
      orphaned.push(...txs);
    },
  );

  it('notices a reorg onto a branch of the same length while idle at the head', async () => {
    await indexedHead();
    const snapshot = await chain.test.snapshot();
    const tx = await send();
    await eventually(
      () => db.sql`select status from webhook_events where tx_hash = ${tx}`,
      (r) => r[0]?.status === 'delivered',
    );
    await chain.test.revert({ id: snapshot });
    await mine(1); // same height as the orphaned tip, nothing above it
    await receiver.waitFor(() => forTx(tx).some((r) => r.json.removed === true));
    await indexedHead();
    expect(await db.sql`select 1 from evm_transactions where hash = ${tx}`).toHaveLength(0);
    orphaned.push(tx);
  });

  it('notices a reorg onto a shorter branch while ahead of the node, before that branch grows past it', async () => {
    // A node reverted or restored from an earlier state: its chain is on another branch and
    // shorter than what was indexed. The orphaned blocks were served, and their events not
    // retracted, until the node had mined past them (found by an outside probe).
    await indexedHead();
    const snapshot = await chain.test.snapshot();
    const txs = [await send(), await send(), await send()];
    await eventually(
      () =>
        db.sql`select count(*)::int as n from webhook_events where tx_hash = any(${txs}) and status = 'delivered'`,
      (r) => r[0]!.n === txs.length,
    );
    await chain.test.revert({ id: snapshot });
    await mine(1); // one block where three were indexed
    for (const tx of txs)
      await receiver.waitFor(() => forTx(tx).some((r) => r.json.removed === true));
    await indexedHead();
    const [cursor] =
      await db.sql`select last_reorg_depth from indexer_cursors where network = 'eth'`;
    expect(cursor!.last_reorg_depth).toBe(3);
    orphaned.push(...txs);
  });

  it('delivers a block that comes back after a reorg again: a new event after the retraction, confirmed once', async () => {
    await indexedHead();
    const blockA = await chain.returningBlock(streamed, 7n);
    const a = await blockA.mine();
    await receiver.waitFor(() => forTx(a.tx).length === 1);
    // Onto B (same height, no transaction): A's event is retracted.
    await blockA.branch();
    await receiver.waitFor(() => forTx(a.tx).some((r) => r.json.removed === true));
    await indexedHead();
    // Back onto A: the very block, its transaction stored again and its event written again.
    expect(await blockA.back()).toEqual(a);
    await receiver.waitFor(() => forTx(a.tx).length === 3);
    await mine(8);
    await indexedHead();
    await receiver.waitFor(() => forTx(a.tx).some((r) => r.json.confirmed === true));
    await new Promise((r) => setTimeout(r, 500)); // nothing more comes for it

    const got = forTx(a.tx);
    expect(got.map((r) => [r.json.removed === true, r.json.confirmed])).toEqual([
      [false, false],
      [true, false],
      [false, false],
      [false, true],
    ]);
    const ids = got.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(4);
    const [first, retraction, returned, confirmed] = got.map((r) => r.json);
    expect(retraction!.sequence).toBeGreaterThan(first!.sequence);
    expect(returned!.sequence).toBeGreaterThan(retraction!.sequence);
    expect(confirmed!.sequence).toBeGreaterThan(returned!.sequence);
    // The event that came back says what the first one said (only its sequence is its own).
    expect({ ...returned, sequence: undefined }).toEqual({ ...first, sequence: undefined });
    expect(confirmed!.tx).toEqual(first!.tx);
    expect(await db.sql`select block_hash from evm_transactions where hash = ${a.tx}`).toEqual([
      { block_hash: a.block },
    ]);
    // The retraction is about the orphaned block too; the unconfirmed event that came back is the
    // second of its identity (incarnation 1), the confirmed one the first (none was orphaned).
    const events = await db.sql<
      { incarnation: number; confirmed: boolean; removed: boolean; orphaned: boolean }[]
    >`select incarnation, confirmed, removed, orphaned from webhook_events where tx_hash = ${a.tx} order by sequence`;
    expect(events.map((e) => [e.incarnation, e.confirmed, e.removed, e.orphaned])).toEqual([
      [0, false, false, true],
      [0, false, true, true],
      [1, false, false, false],
      [0, true, false, false],
    ]);
  });

  it('never confirms an orphaned transaction, keeps delivering, and equals a clean index of the chain', async () => {
    const fresh = await send();
    await mine(10);
    await indexedHead();
    await receiver.waitFor(() => forTx(fresh).some((r) => r.json.confirmed === true));
    for (const hash of orphaned)
      expect(forTx(hash).some((r) => r.json.confirmed === true)).toBe(false);

    // A second database indexed from the same first block, with no reorg in its history.
    const [first] =
      await db.sql`select min(number)::text as n from evm_blocks where network = 'eth'`;
    const clean = await freshDatabase();
    const other = await startTestAppliance(
      clean.url,
      { ...env(), TOLLGATE_START_BLOCK_ETH: first!.n },
      { api: false, worker: false, indexer: 'all', devChain: false },
    );
    try {
      const head = await chain.pub.getBlock();
      await eventually(
        () => clean.sql`select block_hash from indexer_cursors where network = 'eth'`,
        (r) => r[0]?.block_hash === head.hash,
        30_000,
      );
      await compareChainTables(db.sql, clean.sql);
    } finally {
      await other.stop();
      await clean.drop();
    }
  });

  it('stops loudly on a reorg deeper than the maximum, and /readyz fails', async () => {
    await indexedHead();
    const snapshot = await chain.test.snapshot();
    for (let i = 0; i < 7; i++) await send();
    await indexedHead();
    await chain.test.revert({ id: snapshot });
    await mine(9);
    const [row] = await eventually(
      () => db.sql`select halted_reason from indexer_cursors where network = 'eth'`,
      (r) => r[0]?.halted_reason !== null,
      30_000,
    );
    expect(row!.halted_reason).toMatch(/deeper than 6 blocks/);
    const ready = await call(app.baseUrl, 'GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.json.networks.eth.reason).toMatch(/halted/);
  });

  it('sent only bodies that keep the documented streamEvm and retraction contracts', () => {
    const bodies = receiver.received.map((r) => r.json);
    expectWebhookContract(
      'retraction',
      bodies.filter((b) => 'removed' in b),
    );
    expectWebhookContract(
      'streamEvm',
      bodies.filter((b) => !('removed' in b)),
    );
  });
});
