import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Abi, Hex } from 'viem';
import { hardhat } from 'viem/chains';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiKey } from '../src/keys/keys.js';
import { loadConfig } from '../src/config/index.js';
import { startAppliance } from '../src/appliance.js';
import { getBackfill } from '../src/indexer/backfill.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call, type Reply } from './helpers/http.js';
import { eventually } from './helpers/eventually.js';
import { startOwnChain, type OwnChain } from './helpers/own-chain.js';
import { randomAddress } from './helpers/chain.js';
import { runCli, type CliRun } from './helpers/cli.js';
import { Receiver } from './helpers/receiver.js';
import { expectWebhookContract } from './helpers/webhook-contract.js';
import { compareChainTables } from './helpers/compare.js';
import { startFaultyRpcProxy, type FaultyRpcProxy } from './faults/rpc-proxy.js';
import { createRng } from './faults/seed.js';

// History on day one: a wallet active before the first start is empty until a backfill, which
// runs beside the live follower, feeds wallet data, NFTs and the counterparty graph, fires no
// stream webhook, and survives a kill -9 and a node cutting requests. A node of this file's own.
let chain: OwnChain;
let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>> | undefined;
let receiver: Receiver;
let apikey: string;
const wallet = randomAddress().toLowerCase() as Hex;
let historyTx: Hex;
let nft: Hex;
const children: CliRun[] = [];

const env = () => ({
  TOLLGATE_RPC_ETH: chain.url,
  TOLLGATE_START_BLOCK_ETH: 'head',
  TOLLGATE_CONFIRMATIONS_ETH: '2',
  TOLLGATE_POLL_INTERVAL_MS_ETH: '50',
  TOLLGATE_FINALITY_ETH: 'depth',
});

const send = (to: Hex, value = 1n): Promise<Hex> => chain.send(to, value);

beforeAll(async () => {
  chain = await startOwnChain();
  db = await freshDatabase();
  receiver = await new Receiver().start();
  // Before the first start: the wallet receives ETH and an NFT; then 120 more blocks.
  historyTx = await send(wallet, 10n ** 15n);
  const { TestERC721 } = inject('contracts');
  const deployHash = await chain.wallet.deployContract({
    account: chain.wallet.account!,
    chain: hardhat,
    abi: TestERC721.abi as Abi,
    bytecode: TestERC721.bytecode as Hex,
  });
  nft = (await chain.pub.waitForTransactionReceipt({ hash: deployHash })).contractAddress!;
  const mintHash = await chain.wallet.writeContract({
    account: chain.wallet.account!,
    chain: hardhat,
    address: nft,
    abi: TestERC721.abi as Abi,
    functionName: 'mint',
    args: [wallet, 7n],
  });
  await chain.pub.waitForTransactionReceipt({ hash: mintHash });
  for (let i = 0; i < 20; i++) await send(randomAddress());
  await chain.mine(100);
  app = await startTestAppliance(db.url, env());
  apikey = (await createApiKey(db.sql, 'backfill')).apikey;
  const created = await call(app.baseUrl, 'POST', '/v2/stream/create', {
    headers: { apikey },
    body: { address: wallet, webhook: receiver.url },
  });
  expect(created.json.code).toBe(0);
}, 120_000);

afterAll(async () => {
  for (const c of children) c.child.kill('SIGKILL');
  await app?.stop();
  await receiver?.stop();
  await db?.drop();
  await chain?.stop();
});

const history = (res: Reply) => res.headers['x-tollgate-history'];
const cli = async (args: string[], database = db.url) => {
  const run = runCli(database, ['indexer', 'backfill', ...args]);
  const code = await run.exited;
  return { code, out: run.out(), err: run.err(), run };
};
const cursor = async (sql = db.sql) =>
  (
    await sql<{ history_from: string; block_number: string }[]>`
      select history_from, block_number from indexer_cursors where network = 'eth'`
  )[0]!;

describe('history on day one', () => {
  it('answers "not indexed" honestly before a backfill: empty, and X-Tollgate-History says from where', async () => {
    // The appliance is up once it has chosen its first block; that block is stored a moment later
    // (until then the header says eth=none, also true).
    const { history_from, block_number } = await eventually(
      () => cursor(),
      (c) => c.history_from !== null && BigInt(c.block_number) >= BigInt(c.history_from),
    );
    expect(BigInt(block_number)).toBeGreaterThanOrEqual(BigInt(history_from));
    const historyBlock = (await chain.pub.getTransactionReceipt({ hash: historyTx })).blockNumber;
    expect(BigInt(history_from)).toBeGreaterThan(historyBlock);
    const txs = await call(
      app!.baseUrl,
      'GET',
      `/v2/wallet/transactions?address=${wallet}&page=1&limit=50`,
      { headers: { apikey } },
    );
    expect(txs.json.data).toEqual([]);
    expect(history(txs)).toMatch(new RegExp(`^eth=${history_from}-\\d+$`));
    const nfts = await call(app!.baseUrl, 'GET', `/v2/wallet/nfts?address=${wallet}`, {
      headers: { apikey },
    });
    expect(nfts.json.data).toEqual([]);
    expect(history(nfts)).toMatch(/^eth=\d+-\d+$/);
  });

  it('refuses what it cannot do, saying why, and starts nothing', async () => {
    const { history_from } = await cursor();
    // Each refusal is its own CLI process; they are independent, so they run side by side.
    const [beyond, nothing, reversed, notNumber, utxo, labelsOnly, unknown] = await Promise.all([
      cli(['--network', 'eth', '--from', '99999999']),
      cli(['--network', 'eth', '--from', history_from]),
      cli(['--network', 'eth', '--from', '5', '--to', '2']),
      cli(['--network', 'eth', '--from', '-3']),
      cli(['--network', 'litecoin', '--from', '1']),
      cli(['--network', 'trx', '--from', '1']),
      cli(['--network', 'nosuch', '--from', '1']),
    ]);
    expect(beyond.code).toBe(1);
    expect(beyond.err).toMatch(/from block 99999999 is beyond the eth node's head \d+/);
    expect(nothing.code).toBe(1);
    expect(nothing.err).toMatch(/nothing to backfill: eth's indexed history already reaches/);
    expect(reversed.code).toBe(1);
    expect(reversed.err).toMatch(/to block 2 is below from block 5/);
    expect(notNumber.code).toBe(2);
    expect(utxo.code).toBe(1);
    expect(utxo.err).toMatch(/the litecoin indexer has not started yet/);
    expect(labelsOnly.code).toBe(1);
    expect(labelsOnly.err).toMatch(/trx has no blocks to backfill \(labels only\)/);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/unknown network nosuch/);
    expect(await db.sql`select 1 from indexer_backfills`).toHaveLength(0);
  });

  it('backfills beside the live follower: wallet data, NFTs and the counterparty graph, no stream webhook for history', async () => {
    // Queued while no indexer runs; a second request while it is queued is refused.
    await app!.stop();
    app = undefined;
    const cancelled = await cli(['--network', 'eth', '--from', '2']);
    expect(cancelled.code).toBe(0);
    const cancelledId = JSON.parse(cancelled.out.trim().split('\n').pop()!).id as string;
    const cancel = await cli(['cancel', cancelledId]);
    expect(cancel.code).toBe(0);
    expect(cancel.out).toMatch(new RegExp(`Cancelled #${cancelledId}`));
    expect((await getBackfill(db.sql, cancelledId))!.status).toBe('cancelled');
    expect((await cli(['cancel', cancelledId])).code).toBe(1);
    const first = await cli(['--network', 'eth', '--from', '1']);
    expect(first.code).toBe(0);
    const queued = JSON.parse(first.out.trim().split('\n').pop()!);
    expect(queued.status).toBe('running');
    const second = await cli(['--network', 'eth', '--from', '1', '--to', '3']);
    expect(second.code).toBe(1);
    expect(second.err).toMatch(
      new RegExp(`a backfill of eth is running \\(#${queued.id}, blocks 1–`),
    );

    app = await startTestAppliance(db.url, env());
    const live = await send(wallet); // a live transaction while the backfill runs
    const done = await eventually(
      () => getBackfill(db.sql, queued.id),
      (b) => b?.status !== 'running',
      60_000,
    );
    expect(done!.status).toBe('done');
    await receiver.waitFor(() => receiver.received.some((r) => r.json.tx?.hash === live));

    const txs = await call(
      app.baseUrl,
      'GET',
      `/v2/wallet/transactions?address=${wallet}&page=1&limit=50`,
      { headers: { apikey } },
    );
    const hashes = txs.json.data.map((t: { hash: string }) => t.hash);
    expect(hashes).toContain(historyTx);
    expect(hashes).toContain(live);
    expect(history(txs)).toMatch(/^eth=1-\d+$/);
    expect((await cursor()).history_from).toBe('1');
    const nfts = await call(app.baseUrl, 'GET', `/v2/wallet/nfts?address=${wallet}`, {
      headers: { apikey },
    });
    expect(
      nfts.json.data.map((n: { contract_address: string; token_id: string }) => [
        n.contract_address,
        n.token_id,
      ]),
    ).toEqual([[nft.toLowerCase(), '7']]);
    // The counterparty graph (AML exposure, new_wallet) has the historical sender.
    const sender = chain.wallet.account!.address.toLowerCase();
    expect(
      await db.sql`select 1 from address_edges where network = 'eth' and address = ${wallet} and counterparty = ${sender}`,
    ).toHaveLength(1);
    // History fires no stream webhook: only the live transaction was delivered.
    const delivered = receiver.received.map((r) => r.json.tx?.hash).filter(Boolean);
    expect(delivered).not.toContain(historyTx);
    expect(delivered).toContain(live);

    const metrics = await call(app.baseUrl, 'GET', '/metrics');
    expect(metrics.text).toMatch(/tollgate_indexer_history_from_block\{network="eth"\} 1\b/);
    expect(metrics.text).toMatch(/tollgate_backfill_blocks_total\{network="eth"\} [1-9]\d*/);
    expect(metrics.text).toMatch(/tollgate_backfill_remaining_blocks\{network="eth"\} 0/);
    const audit = await db.sql`select 1 from audit_log where action = 'indexer_backfill'`;
    expect(audit).toHaveLength(3); // two requests and a cancel
    const listed = await cli(['list', '--json']);
    expect(JSON.parse(listed.out).map((b: { status: string }) => b.status)).toEqual([
      'done',
      'cancelled',
    ]);

    // The same rows as an index of the same chain from block 1 that never backfilled.
    await chain.indexedHead(db.sql);
    const clean = await freshDatabase();
    const other = await startTestAppliance(
      clean.url,
      { ...env(), TOLLGATE_START_BLOCK_ETH: '1' },
      { api: false, worker: false, indexer: 'all', devChain: false },
    );
    try {
      await chain.indexedHead(clean.sql);
      await compareChainTables(db.sql, clean.sql);
    } finally {
      await other.stop();
      await clean.drop();
    }
  }, 120_000);
});

describe('a stream created with from_block', () => {
  it("gets the address's past transactions first, in chain order, marked as replays; then live ones", async () => {
    await chain.mine(3); // every past transaction deep enough to be confirmed
    await chain.indexedHead(db.sql);
    const other = await createApiKey(db.sql, 'replay');
    const replays = await new Receiver().start();
    try {
      const bad = await call(app!.baseUrl, 'POST', '/v2/stream/create', {
        headers: { apikey: other.apikey },
        body: { address: wallet, webhook: replays.url, from_block: 'yesterday' },
      });
      expect(bad.json).toEqual({
        code: 5000,
        status: 5000,
        message: expect.stringMatching(/from_block: must be a block number/),
      });
      const created = await call(app!.baseUrl, 'POST', '/v2/stream/create', {
        headers: { apikey: other.apikey },
        body: { address: wallet, webhook: replays.url, from_block: 1 },
      });
      expect(created.json.code).toBe(0);
      const queued = Number(created.headers['x-tollgate-replayed']);
      const past = await db.sql<{ tx_hash: string }[]>`
        select a.tx_hash from evm_tx_addresses a join evm_transactions t on t.network = a.network and t.hash = a.tx_hash
        where a.network = 'eth' and a.address = ${wallet} order by a.block_number, t.tx_index`;
      expect(queued).toBe(past.length);
      expect(queued).toBeGreaterThanOrEqual(3); // the ETH, the NFT mint, the live transaction
      expect(history(created)).toMatch(/^eth=1-\d+$/);
      await replays.waitFor((r) => r.length >= queued);
      const bodies = replays.received.map((r) => r.json).sort((a, b) => a.sequence - b.sequence);
      expect(bodies.map((b) => b.tx.hash)).toEqual(past.map((p) => p.tx_hash));
      for (const b of bodies) {
        expect(b.replay).toBe(true);
        expect(b.confirmed).toBe(true); // deep in the chain: sent once, confirmed
      }
      const live = await send(wallet);
      await replays.waitFor((r) => r.some((x) => x.json.tx?.hash === live));
      const liveBody = replays.received.find((x) => x.json.tx?.hash === live)!.json;
      expect(liveBody.replay).toBeUndefined();
      expect(liveBody.sequence).toBeGreaterThan(bodies[bodies.length - 1].sequence);
      // Created again with from_block: what it already had is not sent again.
      const again = await call(app!.baseUrl, 'POST', '/v2/stream/create', {
        headers: { apikey: other.apikey },
        body: { address: wallet, webhook: replays.url, from_block: 1 },
      });
      expect(again.headers['x-tollgate-replayed']).toBe('0');
      // Replays (with "replay": true) and the live one keep the documented contract.
      expectWebhookContract(
        'streamEvm',
        replays.received.map((r) => r.json),
      );
    } finally {
      await replays.stop();
    }
  });
});

describe('live AML created with from_block', () => {
  it('raises the alerts of past risky transactions first, in chain order, marked as replays; then live ones', async () => {
    const sender = chain.wallet.account!.address.toLowerCase();
    await db.sql`insert into labels (network, address, category, source) values ('eth', ${sender}, 'sanctioned', 'test')`;
    const key = await createApiKey(db.sql, 'liveaml-replay');
    const alerts = await new Receiver().start();
    try {
      const bad = await call(app!.baseUrl, 'POST', '/v2/liveaml/create', {
        headers: { apikey: key.apikey },
        body: { address: wallet, webhook: alerts.url, from_block: -1 },
      });
      expect(bad.json.code).toBe(5000);
      expect(bad.json.message).toMatch(/from_block: must be a block number/);
      const created = await call(app!.baseUrl, 'POST', '/v2/liveaml/create', {
        headers: { apikey: key.apikey },
        body: { address: wallet, webhook: alerts.url, from_block: 1 },
      });
      expect(created.json.code).toBe(0);
      expect(history(created)).toMatch(/^eth=1-\d+$/);
      // Every past transaction of the wallet with the sanctioned sender, in chain order.
      const past = await db.sql<{ hash: string }[]>`
        select t.hash from evm_transactions t join evm_tx_addresses a on a.network = t.network and a.tx_hash = t.hash
        where t.network = 'eth' and a.address = ${wallet} and t.from_address = ${sender}
        order by t.block_number, t.tx_index`;
      expect(past.length).toBeGreaterThanOrEqual(3);
      await alerts.waitFor((r) => r.length >= past.length, 60_000);
      await eventually(
        () =>
          db.sql`select aml_replay_from from tracked_addresses where address = ${wallet} and aml_webhook = ${alerts.url}`,
        (r) => r[0]?.aml_replay_from === null,
      );
      const replayed = alerts.received.map((r) => r.json).sort((a, b) => a.sequence - b.sequence);
      expect(replayed.map((b) => b.hash)).toEqual(past.map((p) => p.hash));
      for (const b of replayed) {
        expect(b.replay).toBe(true);
        expect(b.hash_tags.direct_sanctioned).toBe(true);
      }
      const live = await send(wallet);
      await alerts.waitFor((r) => r.some((x) => x.json.hash === live));
      const liveAlert = alerts.received.find((x) => x.json.hash === live)!.json;
      expect(liveAlert.replay).toBeUndefined();
      expect(liveAlert.sequence).toBeGreaterThan(replayed[replayed.length - 1].sequence);
      expect(alerts.received.filter((x) => x.json.hash === live)).toHaveLength(1);
      expectWebhookContract(
        'liveAml',
        alerts.received.map((r) => r.json),
      );
    } finally {
      await alerts.stop();
      await db.sql`delete from labels where source = 'test'`;
    }
  });
});

describe('the first start', () => {
  it('refuses to guess where to begin, naming the variable; a later start goes on without it', async () => {
    const fresh = await freshDatabase();
    const config = loadConfig({
      DATABASE_URL: fresh.url,
      TOLLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'tollgate-data-')),
      TOLLGATE_HOST: '127.0.0.1',
      TOLLGATE_PORT: '0',
      TOLLGATE_RPC_ETH: chain.url,
      TOLLGATE_LOG_LEVEL: 'silent',
    });
    const indexerOnly = { api: false, worker: false, indexer: 'all', devChain: false } as const;
    try {
      await expect(startAppliance(config, indexerOnly)).rejects.toThrow(
        /first start of eth: choose how far back to index with TOLLGATE_START_BLOCK_ETH .*"head" indexes from now on/,
      );
      expect(await fresh.sql`select 1 from indexer_cursors`).toHaveLength(0);
      const chosen = await startTestAppliance(fresh.url, env(), indexerOnly);
      await chosen.stop();
      const later = await startAppliance(config, indexerOnly);
      await later.stop();
    } finally {
      await fresh.drop();
    }
  });
});

describe('a backfill under faults', () => {
  let proxy: FaultyRpcProxy;
  afterAll(async () => {
    await proxy?.stop();
  });

  it('goes on after a kill -9 and through a node that cuts requests, storing everything once', async () => {
    await app?.stop();
    app = undefined;
    await chain.mine(400); // enough history for the kill to land partway
    // A node that drops or refuses one request in ten; the indexer is a separate process.
    proxy = await startFaultyRpcProxy(chain.url, createRng(15), { rate: 0.1, hangMs: 200 });
    const other = await freshDatabase();
    try {
      const indexerEnv = { ...env(), TOLLGATE_RPC_ETH: proxy.url };
      const start = () => {
        const run = runCli(other.url, ['indexer'], indexerEnv, 'info');
        children.push(run);
        return run;
      };
      let indexer = start();
      await eventually(
        () => cursor(other.sql).catch(() => undefined),
        (c) => c !== undefined,
        60_000,
      );
      const requested = await cli(['--network', 'eth', '--from', '1'], other.url);
      expect(requested.code).toBe(0);
      const id = JSON.parse(requested.out.trim().split('\n').pop()!).id as string;
      // Killed as soon as it has stored a batch, before it is done.
      await eventually(
        () => getBackfill(other.sql, id),
        (b) => b !== undefined && Number(b.blocks_done) > 0,
        60_000,
      );
      indexer.child.kill('SIGKILL');
      await indexer.exited;
      const killedAt = (await getBackfill(other.sql, id))!;
      expect(killedAt.status).toBe('running');
      expect(Number(killedAt.next_block)).toBeGreaterThan(Number(killedAt.from_block));

      indexer = start();
      const done = await eventually(
        () => getBackfill(other.sql, id),
        (b) => b?.status === 'done',
        90_000,
      );
      expect(BigInt(done!.blocks_done)).toBe(
        BigInt(done!.to_block) - BigInt(done!.from_block) + 1n,
      );
      expect(
        proxy.stats.faults.timeout + proxy.stats.faults.http_500 + proxy.stats.faults.rpc_error,
      ).toBeGreaterThan(0);
      await chain.indexedHead(other.sql);
      indexer.child.kill('SIGTERM');
      await indexer.exited;
      // Nothing lost or doubled: the same rows as the first database (backfilled from block 1 too).
      await chain.indexedHead(db.sql).catch(() => {});
      const clean = await freshDatabase();
      const fromOne = await startTestAppliance(
        clean.url,
        { ...env(), TOLLGATE_START_BLOCK_ETH: '1' },
        { api: false, worker: false, indexer: 'all', devChain: false },
      );
      try {
        await chain.indexedHead(clean.sql);
        const head = await chain.pub.getBlockNumber();
        // Both hold 1..head: other's live follower stopped at the same head (nothing mined since).
        expect((await cursor(other.sql)).block_number).toBe(head.toString());
        await compareChainTables(other.sql, clean.sql);
      } finally {
        await fromOne.stop();
        await clean.drop();
      }
    } finally {
      await other.drop();
    }
  }, 240_000);
});
