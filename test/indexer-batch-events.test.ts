import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { hardhat } from 'viem/chains';
import { createApiKey } from '../src/keys/keys.js';
import { API_ONLY, startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { randomAddress } from './helpers/chain.js';
import { eventually } from './helpers/eventually.js';
import { startOwnChain, type OwnChain } from './helpers/own-chain.js';

/**
 * Blocks the indexer stores together (a catch-up batch) get their stream events and live AML
 * checks written together, in one statement each: the events still follow the chain's order (by
 * block, then by the block's order of its transactions) and each names its own block.
 */

let db: TestDatabase;
let chain: OwnChain;
let api: Awaited<ReturnType<typeof startTestAppliance>>;
let indexer: Awaited<ReturnType<typeof startTestAppliance>> | undefined;
let key: { apikey: string };

beforeAll(async () => {
  db = await freshDatabase();
  chain = await startOwnChain();
  api = await startTestAppliance(db.url, { TOLLGATE_RPC_ETH: chain.url }, API_ONLY);
  key = await createApiKey(db.sql, 'batch');
});
afterAll(async () => {
  await indexer?.stop();
  await api?.stop();
  await chain?.stop();
  await db?.drop();
});

describe('events of blocks stored in one batch', () => {
  it('are numbered in block order, then transaction order, each with its own block', async () => {
    const watched = randomAddress();
    const other = randomAddress();
    for (const path of ['/v2/stream/create', '/v2/liveaml/create']) {
      const res = await call(api.baseUrl, 'POST', path, {
        headers: { apikey: key.apikey },
        body: { address: watched, webhook: 'http://127.0.0.1:9/hook' },
      });
      expect(res.json).toEqual({ code: 0, message: 'OK', data: null });
    }

    // Four blocks of three transactions (two to the watched address, one elsewhere), mined with
    // nothing indexing them: the indexer then finds all four above its start block at once.
    await chain.test.setAutomine(false);
    const account = chain.wallet.account;
    let nonce = await chain.pub.getTransactionCount({ address: account.address });
    const first = (await chain.pub.getBlockNumber()) + 1n;
    const sent: { hash: Hex; block: bigint }[] = [];
    for (let b = 0; b < 4; b++) {
      for (const to of [watched, other, watched]) {
        const hash = await chain.wallet.sendTransaction({
          account,
          chain: hardhat,
          to: to as Hex,
          value: 1n,
          nonce: nonce++,
          gas: 21_000n,
        });
        if (to === watched) sent.push({ hash, block: first + BigInt(b) });
      }
      await chain.mine(1);
    }
    await chain.test.setAutomine(true);
    const blocks = await Promise.all(
      [0n, 1n, 2n, 3n].map((i) => chain.pub.getBlock({ blockNumber: first + i })),
    );
    // The chain's order of the watched address's transactions: by block, then by position.
    const chainOrder = blocks.flatMap((b) =>
      b.transactions.filter((h) => sent.some((s) => s.hash === h)),
    );
    expect(chainOrder).toHaveLength(8);

    indexer = await startTestAppliance(
      db.url,
      { TOLLGATE_RPC_ETH: chain.url, TOLLGATE_START_BLOCK_ETH: first.toString() },
      { api: false, worker: false, indexer: 'all', devChain: false },
    );
    await chain.indexedHead(db.sql);
    // All four found at once: stored as one batch (up to 50 blocks while catching up).
    const [cursor] = await db.sql`select blocks_indexed from indexer_cursors where network = 'eth'`;
    expect(Number(cursor!.blocks_indexed)).toBe(4);

    const events = await db.sql<{ tx_hash: string; block_number: string; block_hash: string }[]>`
      select tx_hash, block_number, block_hash from webhook_events
      where kind = 'stream' and address = ${watched.toLowerCase()} and not confirmed
      order by sequence`;
    expect(events.map((e) => e.tx_hash)).toEqual(chainOrder);
    for (const e of events) {
      const block = blocks.find((b) => b.transactions.includes(e.tx_hash as Hex))!;
      expect([BigInt(e.block_number), e.block_hash]).toEqual([block.number, block.hash]);
    }

    // The job key names the check's transaction and block (aml:<tracked>:<tx>:<block hash>).
    const checks = await eventually(
      () => db.sql<{ key: string }[]>`
        select key from graphile_worker.jobs where task_identifier = 'liveaml_check'`,
      (rows) => rows.length === 8,
    );
    expect(checks.map((c) => c.key.split(':').slice(2).join(':')).sort()).toEqual(
      blocks
        .flatMap((b) =>
          chainOrder.filter((h) => b.transactions.includes(h)).map((h) => `${h}:${b.hash}`),
        )
        .sort(),
    );
  });
});
