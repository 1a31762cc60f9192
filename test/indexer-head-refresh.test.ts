import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli, type CliRun } from './helpers/cli.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { startOwnChain, type OwnChain } from './helpers/own-chain.js';

/**
 * The live follower reads its node's head again while it catches up (every 5 s): the head it
 * records moves on with the chain, and an indexer at work is not taken for one that cannot reach
 * its node. Before, it read the head once and not again until it had caught up with it: a long
 * catch-up showed a frozen head, and after 60 s "not followed" on the operations page and /readyz.
 * A slow node (each block read answered after 1.5 s) makes a catch-up of 60 blocks take well over
 * 5 s.
 */

let db: TestDatabase;
let chain: OwnChain;
let proxy: Server;
let run: CliRun | undefined;

beforeAll(async () => {
  db = await freshDatabase();
  chain = await startOwnChain();
  proxy = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', async () => {
      const calls = [JSON.parse(body)].flat() as { method: string }[];
      if (calls.some((c) => c.method !== 'eth_blockNumber' && c.method !== 'eth_chainId'))
        await new Promise((r) => setTimeout(r, 1500));
      const answer = await fetch(chain.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(await answer.text());
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  run?.child.kill('SIGKILL');
  await new Promise((r) => proxy?.close(r));
  await chain?.stop();
  await db?.drop();
});

it('records a head that moves on while it catches up with a slow node', async () => {
  await chain.mine(60);
  run = runCli(
    db.url,
    ['indexer'],
    {
      TOLLGATE_RPC_ETH: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      TOLLGATE_START_BLOCK_ETH: '1',
      TOLLGATE_POLL_INTERVAL_MS_ETH: '50',
    },
    'info',
  );
  // The head first read, with the cursor below it.
  type Row = { block_number: string; head_number: string | null };
  const sample = async () =>
    (
      await db.sql<
        Row[]
      >`select block_number, head_number from indexer_cursors where network = 'eth'`
    )[0];
  let first: Row | undefined;
  for (let i = 0; i < 600 && !first?.head_number; i++) {
    first = await sample();
    if (!first?.head_number) await new Promise((r) => setTimeout(r, 100));
  }
  const firstHead = BigInt(first!.head_number!);
  // The chain goes on while the indexer works through the blocks below that head.
  await chain.mine(5);
  const seen: Row[] = [];
  for (;;) {
    const row = (await sample())!;
    seen.push(row);
    if (BigInt(row.block_number) >= firstHead) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  // Before the cursor reached the first head, the recorded head was the chain's newer one.
  const behindWithNewerHead = seen.filter(
    (r) => BigInt(r.block_number) < firstHead && BigInt(r.head_number!) > firstHead,
  );
  expect(seen.length).toBeGreaterThan(10);
  expect(behindWithNewerHead.length).toBeGreaterThan(0);
  await chain.indexedHead(db.sql);
}, 180_000);
