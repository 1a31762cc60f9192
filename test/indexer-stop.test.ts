/**
 * An orderly stop while the node has stopped answering: the indexer gives up the call it is
 * waiting on instead of waiting out the client's 15 s timeout and its retries (a process
 * supervisor kills a process that takes longer than its grace period: Docker's is 10 s), and the
 * next start indexes on from where it was.
 */
import { createPublicClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { INDEXERS_STOP_MS } from '../src/appliance.js';
import { startTestAppliance } from './helpers/appliance.js';
import { fundedWallet, randomAddress } from './helpers/chain.js';
import { runCli } from './helpers/cli.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { holdExposureLock } from './helpers/exposure-lock.js';
import { startHangingProxy } from './helpers/hanging-proxy.js';
import {
  SKIP_MESSAGE,
  skipWithoutLitecoind,
  startLitecoind,
  type Litecoind,
} from './helpers/litecoind.js';

let db: TestDatabase;
let proxy: Awaited<ReturnType<typeof startHangingProxy>>;

beforeAll(async () => {
  db = await freshDatabase();
  proxy = await startHangingProxy(inject('rpcUrl'));
});
afterAll(async () => {
  await proxy?.close();
  await db?.drop();
});

const indexerOnly = { api: false, worker: false, indexer: ['eth'], devChain: false } as const;

it('stops without waiting for a node call that gets no answer, and goes on from there at the next start', async () => {
  const env = { TOLLGATE_RPC_ETH: proxy.url };
  const app = await startTestAppliance(db.url, env, indexerOnly);
  const cursor = async () =>
    (
      await db.sql<{ block_number: string }[]>`
        select block_number from indexer_cursors where network = 'eth'`
    )[0]!.block_number;
  const before = await cursor();

  // The node stops answering: the indexer's next poll waits on it.
  proxy.hang(true);
  await eventually(
    async () => proxy.held.size,
    (n) => n > 0,
    10_000,
  );
  // The call is given up, not waited for: without that the stop lasts until the client's 15 s
  // timeout, and then its retry of the call reaches the node (which holds it again).
  const asked = proxy.requests();
  await app.stop();
  expect(proxy.requests()).toBe(asked);
  expect(proxy.held.size).toBe(0);
  expect(proxy.abandoned.length).toBeGreaterThan(0);
  // Nothing half-done: the cursor is a stored block at or above where it was.
  expect(BigInt(await cursor())).toBeGreaterThanOrEqual(BigInt(before));

  // The node answers again: the next start indexes on to the node's head.
  proxy.hang(false);
  const again = await startTestAppliance(db.url, env, indexerOnly);
  try {
    const head = await createPublicClient({ transport: http(inject('rpcUrl')) }).getBlockNumber();
    await eventually(cursor, (b) => BigInt(b) >= head - 3n, 30_000); // 3 confirmations
  } finally {
    await again.stop();
  }
}, 60_000);

/**
 * An orderly stop while the block in hand is held up in the database (here another session holds
 * the network's exposure lock that the block's new edges need; a network cut to the database
 * holds it the same way): the process does not wait for it past INDEXERS_STOP_MS, it exits 0
 * with a warning naming the step; the block's transaction never commits (as after a kill), and
 * the next start stores that block.
 */
it(
  'exits without the block the database holds up, and the next start stores it',
  async () => {
    let lock: Awaited<ReturnType<typeof holdExposureLock>> | undefined;
    const chain = await fundedWallet();
    let hash: string | undefined;
    const run = runCli(
      db.url,
      ['indexer'],
      {
        TOLLGATE_RPC_ETH: inject('rpcUrl'),
        TOLLGATE_START_BLOCK_ETH: 'head',
        TOLLGATE_CONFIRMATIONS_ETH: '3',
        TOLLGATE_POLL_INTERVAL_MS_ETH: '100',
      },
      'info',
    );
    try {
      await eventually(
        async () => run.err() + run.out(),
        (out) => out.includes('indexer active'),
        60_000,
      );
      lock = await holdExposureLock(db.sql);
      // A payment between new addresses: its block adds counterparty edges, which wait for the lock.
      hash = (await chain.send(randomAddress(), 1n)).transactionHash;
      await lock.waitedOn(15_000);
      run.child.kill('SIGTERM');
      // Without the bound it waits for as long as the lock is held: the test's own timeout.
      expect(await run.exited).toBe(0);
      expect(run.err() + run.out()).toMatch(/gave up waiting for a step/);
      expect(await db.sql`select 1 from evm_transactions where hash = ${hash}`).toEqual([]);
    } finally {
      run.child.kill('SIGKILL');
      await lock?.release();
    }

    const again = await startTestAppliance(db.url, {}, indexerOnly);
    try {
      await eventually(
        () => db.sql`select 1 from evm_transactions where hash = ${hash!}`,
        (rows) => rows.length > 0,
        30_000,
      );
    } finally {
      await again.stop();
    }
  },
  INDEXERS_STOP_MS + 120_000,
);

describe.skipIf(skipWithoutLitecoind)(
  `a Bitcoin-family node that stops answering${skipWithoutLitecoind ? ` (${SKIP_MESSAGE})` : ''}`,
  () => {
    let node: Litecoind;
    let ltcDb: TestDatabase;
    let ltcProxy: Awaited<ReturnType<typeof startHangingProxy>>;
    beforeAll(async () => {
      node = await startLitecoind();
      await node.mine(5);
      ltcDb = await freshDatabase();
      ltcProxy = await startHangingProxy(node.rpcUrl);
    }, 60_000);
    afterAll(async () => {
      await ltcProxy?.close();
      await ltcDb?.drop();
      await node?.stop();
    });

    it('stops without waiting for the call (its client times out only after 30 s)', async () => {
      const app = await startTestAppliance(
        ltcDb.url,
        {
          TOLLGATE_RPC_LITECOIN: ltcProxy.url,
          TOLLGATE_START_BLOCK_LITECOIN: 'head',
          TOLLGATE_POLL_INTERVAL_MS_LITECOIN: '100',
        },
        { api: false, worker: false, indexer: ['litecoin'], devChain: false },
      );
      ltcProxy.hang(true);
      await eventually(
        async () => ltcProxy.held.size,
        (n) => n > 0,
        10_000,
      );
      const asked = ltcProxy.requests();
      await app.stop();
      // Stopped while the node still holds the call: the stop did not wait for the client to give
      // it up (without that, the request ends at the client's timeout, before the stop does).
      expect(ltcProxy.held.size).toBeGreaterThan(0);
      expect(ltcProxy.abandoned).toEqual([]);
      expect(ltcProxy.requests()).toBe(asked);
    }, 60_000);
  },
);
