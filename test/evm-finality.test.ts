import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { hardhat } from 'viem/chains';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { eventually } from './helpers/eventually.js';
import { startOwnChain, type OwnChain } from './helpers/own-chain.js';
import { randomAddress } from './helpers/chain.js';
import { runCli } from './helpers/cli.js';

// Finality is a wall: a reorg that would replace a block at or below the node's `finalized`
// block, or a node that reports nonsense, halts the network's indexer until an operator resumes
// it. Hardhat answers `finalized` with its head, so with the default finality ("node") any
// reorg of an indexed block is one past finality here. A node of this file's own: it is reverted.
let chain: OwnChain;
let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
const env = () => ({
  TOLLGATE_RPC_ETH: chain.url,
  TOLLGATE_CONFIRMATIONS_ETH: '2',
  TOLLGATE_POLL_INTERVAL_MS_ETH: '50',
});

beforeAll(async () => {
  chain = await startOwnChain();
  db = await freshDatabase();
  app = await startTestAppliance(db.url, env());
});
afterAll(async () => {
  await app?.stop();
  await db?.drop();
  await chain?.stop();
});

async function send(): Promise<Hex> {
  const hash = await chain.wallet.sendTransaction({
    account: chain.wallet.account!,
    chain: hardhat,
    to: randomAddress(),
    value: 1n,
  });
  await chain.pub.waitForTransactionReceipt({ hash });
  return hash;
}

const cursorRow = async () =>
  (
    await db.sql<
      {
        block_number: string;
        block_hash: string;
        halted_reason: string | null;
        halted_at: Date | null;
        halt_needs_resume: boolean;
        reorg_count: string;
      }[]
    >`select block_number, block_hash, halted_reason, halted_at, halt_needs_resume, reorg_count
      from indexer_cursors where network = 'eth'`
  )[0]!;

const haltedWith = (pattern: RegExp) =>
  eventually(cursorRow, (r) => r.halted_reason !== null && pattern.test(r.halted_reason), 30_000);

async function resume(...flags: string[]) {
  const run = runCli(db.url, ['indexer', 'resume', '--network', 'eth', ...flags]);
  expect(await run.exited).toBe(0);
  return run.out();
}

describe('finality', () => {
  it('halts on a reorg below the node’s finalized block; a restart keeps the halt; only the operator’s resume goes past it', async () => {
    await chain.mine(2);
    await chain.indexedHead(db.sql);
    const snapshot = await chain.test.snapshot();
    const orphan = await send();
    await chain.indexedHead(db.sql);
    const before = await cursorRow();
    await chain.test.revert({ id: snapshot });
    await chain.mine(3); // a longer branch without the transaction

    const halted = await haltedWith(/finalized block/);
    expect(halted.halt_needs_resume).toBe(true);
    // History is not rewritten: the block the node called final is still ours.
    expect(await db.sql`select 1 from evm_transactions where hash = ${orphan}`).toHaveLength(1);
    expect(halted.block_hash).toBe(before.block_hash);
    const ready = await call(app.baseUrl, 'GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.json.networks.eth.reason).toMatch(/halted.*finalized/);
    const metrics = await call(app.baseUrl, 'GET', '/metrics');
    expect(metrics.text).toMatch(/tollgate_indexer_halted\{network="eth"\} 1/);

    // A restart does not lift it.
    await app.stop();
    app = await startTestAppliance(db.url, env());
    await new Promise((r) => setTimeout(r, 1000));
    const still = await cursorRow();
    expect(still.halted_reason).toBe(halted.halted_reason);
    expect(still.block_hash).toBe(before.block_hash);

    // A plain resume: the same reorg meets the same wall.
    expect(await resume()).toMatch(/Resumed eth \(it was halted: .*finalized/);
    const again = await haltedWith(/finalized block/);
    expect(again.halted_at!.getTime()).toBeGreaterThan(halted.halted_at!.getTime());
    expect(await db.sql`select 1 from evm_transactions where hash = ${orphan}`).toHaveLength(1);

    // Allowed once by the operator: the indexer follows the node's chain.
    expect(await resume('--allow-deep-reorg')).toMatch(/pass the depth limit/);
    await chain.indexedHead(db.sql);
    const after = await cursorRow();
    expect(after.halted_reason).toBeNull();
    expect(Number(after.reorg_count)).toBe(Number(before.reorg_count) + 1);
    expect(await db.sql`select 1 from evm_transactions where hash = ${orphan}`).toHaveLength(0);
    expect((await call(app.baseUrl, 'GET', '/readyz')).status).toBe(200);
    const audit = await db.sql<{ actor: string; details: { allow_deep_reorg: boolean } }[]>`
      select actor, details from audit_log where action = 'indexer_resume' and target = 'eth' order by id`;
    expect(audit.map((a) => a.details.allow_deep_reorg)).toEqual([false, true]);
    expect(audit[0]!.actor).toMatch(/^cli:/);
  });

  it('halts, without looping, on a node reporting a block with a zero parent hash', async () => {
    await chain.indexedHead(db.sql);
    const before = await cursorRow();
    // hardhat_mine with a large count makes reserved blocks whose parentHash is zero (the first
    // one or two are mined properly).
    await chain.test.request({ method: 'hardhat_mine', params: ['0x1388'] } as never);
    const halted = await haltedWith(/zero parent hash/);
    expect(BigInt(halted.block_number)).toBeLessThan(BigInt(before.block_number) + 5n);
    const next = await chain.pub.getBlock({ blockNumber: BigInt(halted.block_number) + 1n });
    expect(next.parentHash).toMatch(/^0x0+$/);
    await new Promise((r) => setTimeout(r, 1500)); // 30 poll intervals
    const later = await cursorRow();
    expect(later.halted_at!.getTime()).toBe(halted.halted_at!.getTime());
    expect(later.reorg_count).toBe(before.reorg_count);
    expect(later.block_hash).toBe(halted.block_hash);
  });

  it('tells the operator what it did: resume of an unknown network fails, of a running one says so', async () => {
    const unknown = runCli(db.url, ['indexer', 'resume', '--network', 'polygon']);
    expect(await unknown.exited).toBe(1);
    expect(unknown.err()).toMatch(/no indexer has run for polygon/);
    const missing = runCli(db.url, ['indexer', 'resume']);
    expect(await missing.exited).toBe(2);
    expect(missing.err()).toMatch(/needs --network/);
  });
});
