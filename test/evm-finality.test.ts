import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
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

const send = (): Promise<Hex> => chain.send(randomAddress());

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
    // Stopped meanwhile, so that it first sees the whole new branch: a longer one without the
    // transaction, whose finalized block is past it (Hardhat calls its head final; anvil the
    // block 64 below its head).
    await app.stop();
    await chain.test.revert({ id: snapshot });
    await chain.mine(70);
    app = await startTestAppliance(db.url, env());

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
    // The node as Hardhat answers after hardhat_mine with a large count (reserved blocks), here
    // made by a proxy so that any node can stand behind it: blocks above `from` have a zero parent.
    let from = Number.MAX_SAFE_INTEGER;
    const proxy = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      const answer = await fetch(chain.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }).then((r) => r.json());
      const zeroParent = (reply: { result?: { number?: string; parentHash?: string } }) => {
        if (reply.result?.parentHash && Number(reply.result.number) > from)
          reply.result.parentHash = `0x${'0'.repeat(64)}`;
        return reply;
      };
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(Array.isArray(answer) ? answer.map(zeroParent) : zeroParent(answer)));
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const other = await freshDatabase();
    const behind = await startTestAppliance(
      other.url,
      { ...env(), TOLLGATE_RPC_ETH: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` },
      { api: false, worker: false, indexer: 'all', devChain: false },
    );
    try {
      await chain.indexedHead(other.sql);
      const [before] = await other.sql<{ block_number: string; reorg_count: string }[]>`
        select block_number, reorg_count from indexer_cursors where network = 'eth'`;
      from = Number(before!.block_number);
      await chain.mine(3);
      const [halted] = await eventually(
        () => other.sql<
          {
            block_number: string;
            block_hash: string;
            halted_reason: string | null;
            halted_at: Date | null;
          }[]
        >`
          select block_number, block_hash, halted_reason, halted_at from indexer_cursors where network = 'eth'`,
        (r) => r[0]?.halted_reason != null,
        30_000,
      );
      expect(halted!.halted_reason).toMatch(/reports block \d+ with a zero parent hash/);
      expect(halted!.block_number).toBe(before!.block_number);
      await new Promise((r) => setTimeout(r, 1500)); // 30 poll intervals
      const [later] = await other.sql<
        { halted_at: Date; reorg_count: string; block_hash: string }[]
      >`
        select halted_at, reorg_count, block_hash from indexer_cursors where network = 'eth'`;
      expect(later!.halted_at.getTime()).toBe(halted!.halted_at!.getTime());
      expect(later!.reorg_count).toBe(before!.reorg_count);
      expect(later!.block_hash).toBe(halted!.block_hash);
    } finally {
      await behind.stop();
      await other.drop();
      proxy.close();
    }
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
