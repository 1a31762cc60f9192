/**
 * An orderly stop of the worker while its work is held up.
 *
 * While the node has stopped answering a job's call: the NFT
 * metadata job gives up the call when graphile-worker aborts the job's signal (5 s into the
 * stop) instead of waiting out the client's 15 s timeout and its two retries (up to 45 s for each
 * read; a process supervisor kills sooner: Docker after 10 s). A stop is not the job's outcome:
 * nothing is recorded, the job stays queued, and the next start fetches the metadata.
 */
import type { Hex } from 'viem';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { enqueueJob } from '../src/db/jobs.js';
import { createApiKey } from '../src/keys/keys.js';
import { WORKER_STOP_MS } from '../src/jobs/worker.js';
import { startTestAppliance } from './helpers/appliance.js';
import { fundedWallet, randomAddress } from './helpers/chain.js';
import { call } from './helpers/http.js';
import { runCli } from './helpers/cli.js';
import { Receiver } from './helpers/receiver.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { holdExposureLock } from './helpers/exposure-lock.js';
import { startHangingProxy } from './helpers/hanging-proxy.js';

let db: TestDatabase;
let proxy: Awaited<ReturnType<typeof startHangingProxy>>;
let token: Hex;

beforeAll(async () => {
  db = await freshDatabase();
  proxy = await startHangingProxy(inject('rpcUrl'));
  const chain = await fundedWallet();
  const { TestERC721 } = inject('contracts');
  token = await chain.deploy(TestERC721 as { abi: unknown[]; bytecode: Hex });
  await chain.write(token, TestERC721.abi, 'mint', [chain.address, 7n]);
  await chain.write(token, TestERC721.abi, 'setTokenURI', [
    7n,
    'data:application/json,{"name":"Seven"}',
  ]);
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await db?.drop();
});

const workerOnly = { api: false, worker: true, indexer: false, devChain: false } as const;

it('gives up a job node call nobody answers when it stops, records nothing, and the job runs again at the next start', async () => {
  const env = { TOLLGATE_RPC_ETH: proxy.url };
  const app = await startTestAppliance(db.url, env, workerOnly);
  proxy.hang(true);
  await enqueueJob(db.sql, 'fetch_nft_metadata', {
    network: 'eth',
    token: token.toLowerCase(),
    token_id: '7',
    standard: 'ERC721',
  });
  // The job reads the contract's name, symbol and decimals: the node holds those calls.
  await eventually(
    async () => proxy.held.size,
    (n) => n > 0,
    15_000,
  );
  const asked = proxy.requests();
  await app.stop();
  // Given up, not waited for: without that, the stop lasts until the client's timeout, and then
  // its retries reach the node (which holds them again).
  expect(proxy.requests()).toBe(asked);
  expect(proxy.held.size).toBe(0);
  expect(proxy.abandoned.length).toBeGreaterThan(0);
  // Nothing recorded of a stop: no "failed" metadata, the job still queued and unlocked.
  expect(await db.sql`select status from nft_metadata`).toEqual([]);
  const jobs = await db.sql<{ locked_by: string | null }[]>`
    select locked_by from graphile_worker.jobs where task_identifier = 'fetch_nft_metadata'`;
  expect(jobs).toEqual([{ locked_by: null }]);

  // The node answers again: the next start fetches the metadata.
  proxy.hang(false);
  const again = await startTestAppliance(db.url, env, workerOnly);
  try {
    const [row] = await eventually(
      () =>
        db.sql<{ status: string; name: string | null }[]>`
          select status, metadata->>'name' as name from nft_metadata`,
      (rows) => rows.length > 0,
      30_000,
    );
    expect(row).toEqual({ status: 'ok', name: 'Seven' });
  } finally {
    await again.stop();
  }
}, 90_000);

/**
 * A job that does not listen to graphile-worker's abort (here: the exposure job waiting for its
 * network's lock, which another session holds) would hold the stop for as long as that lasts; a
 * supervisor then kills the process. The worker's stop goes on without it once its time is up
 * (WORKER_STOP_MS, jobs 10 s of it): the job stays locked by the pool that left, as after a kill,
 * and once that worker is gone the next one frees it (stale-lock sweeper) and runs it.
 */
it(
  'goes on without a job that does not give itself up, and that job runs again after',
  async () => {
    const lock = await holdExposureLock(db.sql);
    try {
      await db.sql`
      insert into exposure_pending (network, address, category, sign)
      values ('eth', ${'0x' + '5'.repeat(40)}, 'mixer', 1)`;
      const app = await startTestAppliance(db.url, {}, workerOnly);
      await enqueueJob(db.sql, 'exposure_apply', {});
      await lock.waitedOn(15_000);
      // Without a bound this waits as long as the lock is held: the test's own timeout.
      await app.stop();
      const [job] = await db.sql<{ locked_by: string | null }[]>`
      select locked_by from graphile_worker.jobs where task_identifier = 'exposure_apply'`;
      expect(job?.locked_by, 'left locked by the pool that stopped, as after a kill').toBeTruthy();
      expect(await db.sql`select 1 from exposure_pending`).toHaveLength(1);
    } finally {
      await lock.release();
    }

    const again = await startTestAppliance(db.url, {}, workerOnly);
    try {
      await eventually(
        async () => ({
          pending: (await db.sql`select 1 from exposure_pending`).length,
          jobs: (
            await db.sql`select 1 from graphile_worker.jobs where task_identifier = 'exposure_apply'`
          ).length,
        }),
        (n) => n.pending === 0 && n.jobs === 0,
        30_000,
      );
    } finally {
      await again.stop();
    }
  },
  WORKER_STOP_MS + 60_000,
);

/**
 * A stream webhook whose body is being built when the worker stops, waiting on the node for a
 * token's name and symbol (read once per token, at its first transfer): the read is given up with
 * the deliveries cut off at the stop, and the event goes back to the outbox unattempted (no
 * attempt recorded, not left leased), due again soon: the next start delivers it with the name.
 */
it(
  'hands a stream event back unattempted when its token read is given up by a stop',
  async () => {
    const receiver = await new Receiver().start();
    const indexer = await startTestAppliance(
      db.url,
      {},
      { api: true, worker: false, indexer: ['eth'], devChain: false },
    );
    try {
      const key = await createApiKey(db.sql, 'stop');
      const watched = randomAddress();
      const created = await call(indexer.baseUrl, 'POST', '/v2/stream/create', {
        headers: { apikey: key.apikey },
        body: { address: watched, webhook: receiver.url },
      });
      expect(created.json).toMatchObject({ code: 0 });
      const chain = await fundedWallet();
      const { TestERC20 } = inject('contracts');
      const erc20 = await chain.deploy(TestERC20 as { abi: unknown[]; bytecode: Hex });
      await chain.write(erc20, TestERC20.abi, 'mint', [chain.address, 1_000n]);

      const env = { TOLLGATE_RPC_ETH: proxy.url };
      const worker = await startTestAppliance(db.url, env, workerOnly);
      proxy.hang(true);
      await chain.write(erc20, TestERC20.abi, 'transfer', [watched, 5n]);
      // The token's name, symbol and decimals are asked of the node, which holds the calls.
      await eventually(
        async () => proxy.held.size,
        (n) => n > 0,
        30_000,
      );
      const asked = proxy.requests();
      await worker.stop();
      expect(proxy.requests(), 'no call after the stop').toBe(asked);
      expect(proxy.held.size).toBe(0);
      const events = await db.sql<{ status: string; attempts: number; lease_until: Date | null }[]>`
      select status, attempts, lease_until from webhook_events`;
      expect(events.length).toBeGreaterThan(0);
      for (const ev of events)
        expect(ev).toEqual({ status: 'pending', attempts: 0, lease_until: null });
      expect(await db.sql`select 1 from webhook_deliveries`).toEqual([]);
      expect(receiver.received).toEqual([]);

      proxy.hang(false);
      const again = await startTestAppliance(db.url, env, workerOnly);
      try {
        await receiver.waitFor((all) => all.length > 0);
        const transfer = receiver.received[0]!.json.tx.transfers?.[0] ?? receiver.received[0]!.json;
        expect(JSON.stringify(transfer)).toContain('"symbol":"');
      } finally {
        await again.stop();
      }
    } finally {
      await indexer.stop();
      await receiver.stop();
    }
  },
  WORKER_STOP_MS + 90_000,
);

/**
 * A SIGTERM while the process is still starting (here its bundled label import waits for the
 * exposure lock another session holds) is kept: the stop follows once the start is done, and the
 * process exits 0, rather than the signal ending it half-started.
 */
it('stops in order, exit 0, after a SIGTERM that came while it was starting', async () => {
  const fresh = await freshDatabase();
  const lock = await holdExposureLock(fresh.sql);
  const run = runCli(fresh.url, ['worker'], {}, 'info');
  try {
    await lock.waitedOn(60_000);
    run.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    await lock.release();
    expect(await run.exited).toBe(0);
    const out = run.err() + run.out();
    expect(out).toMatch(/signal received while starting/);
    expect(out).toMatch(/"msg":"stopped"/);
  } finally {
    run.child.kill('SIGKILL');
    await lock.release();
    await fresh.drop();
  }
}, 120_000);
