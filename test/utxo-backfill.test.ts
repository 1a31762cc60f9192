/**
 * A range backfill of a Bitcoin-family network on a real litecoind -regtest: history below where
 * the indexer started is stored beside the live follower, fires no stream webhook, lowers the
 * network's history, survives a kill -9 in the middle and a node failing requests, and leaves exactly the rows an indexer that
 * started at the backfill's first block stored (blocks, transactions, inputs with their coins,
 * outputs, touched addresses, the counterparty graph). A backfill that meets a node on another
 * chain, or blocks the node pruned, fails with the reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UtxoRpc } from '../src/chains/utxo/client.js';
import { HistoryUnavailableError } from '../src/errors.js';
import { createApiKey } from '../src/keys/keys.js';
import { getBackfill, requestBackfill } from '../src/indexer/backfill.js';
import { startTestAppliance } from './helpers/appliance.js';
import { compareUtxoTables } from './helpers/compare.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import {
  SKIP_MESSAGE,
  skipWithoutLitecoind,
  startLitecoind,
  type Litecoind,
  prunedProxy,
} from './helpers/litecoind.js';
import { Receiver } from './helpers/receiver.js';
import { runCli, type CliRun } from './helpers/cli.js';
import { startFaultyRpcProxy, type FaultyRpcProxy } from './faults/rpc-proxy.js';
import { createRng } from './faults/seed.js';

let node: Litecoind;
let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>> | undefined;
let receiver: Receiver;
let tracked: string;
const historyTxids: string[] = [];
const children: CliRun[] = [];
let proxy: FaultyRpcProxy | undefined;
/** The first block the live indexer stores (the head at its first start): below it is history. */
let start = 0;

const env = () => ({
  TOLLGATE_RPC_LITECOIN: node.rpcUrl,
  TOLLGATE_START_BLOCK_LITECOIN: 'head',
  TOLLGATE_CONFIRMATIONS_LITECOIN: '2',
  TOLLGATE_POLL_INTERVAL_MS_LITECOIN: '100',
});
// Litecoin alone: the shared Hardhat node's head moves with other test files, so an EVM indexer
// started at two different moments would index different eth blocks into the two databases.
const indexerOnly = { api: false, worker: true, indexer: ['litecoin'], devChain: false } as const;

const cursorOf = async (sql: TestDatabase['sql']) =>
  (
    await sql<{ block_number: string; history_from: string }[]>`
    select block_number, history_from from indexer_cursors where network = 'litecoin'`
  )[0];

async function indexedHead(sql: TestDatabase['sql']): Promise<void> {
  const head = await node.rpc<number>('getblockcount');
  await eventually(
    () => cursorOf(sql),
    (c) => Number(c?.block_number) === head,
  );
}

describe.skipIf(skipWithoutLitecoind)(
  `Bitcoin-family range backfill on litecoind -regtest${skipWithoutLitecoind ? ` (${SKIP_MESSAGE})` : ''}`,
  () => {
    beforeAll(async () => {
      node = await startLitecoind();
      await node.mine(101); // coinbase outputs mature after 100 blocks
      tracked = await node.rpc('getnewaddress', '', 'bech32');
      // History: payments to the tracked address and between others, a block each, spending
      // coins of earlier blocks (the backfill resolves them from the node, top down).
      for (let i = 0; i < 6; i++) {
        const other = await node.rpc<string>('getnewaddress', '', i % 2 ? 'legacy' : 'bech32');
        historyTxids.push(
          await node.rpc<string>('sendmany', '', {
            [tracked]: Number((0.1 + i / 100).toFixed(2)),
            [other]: 0.25,
          }),
        );
        await node.mine(1);
      }
      await node.mine(3);
      start = await node.rpc<number>('getblockcount'); // "head": the head block is the first indexed

      db = await freshDatabase();
      receiver = await new Receiver().start();
      const key = await createApiKey(db.sql, 'utxo-backfill');
      await db.sql`insert into tracked_addresses (api_key_id, address, family, stream_webhook, stream_created_at)
        values (${key.id}, ${tracked}, 'utxo', ${receiver.url}, now())`;
      app = await startTestAppliance(db.url, env(), indexerOnly);
      await indexedHead(db.sql);
    }, 120_000);
    afterAll(async () => {
      for (const c of children) c.child.kill('SIGKILL');
      await proxy?.stop();
      await app?.stop();
      await receiver?.stop();
      await db?.drop();
      await node?.stop();
    });

    it('stores the history below the start beside the live follower, with no webhook for it', async () => {
      expect(Number((await cursorOf(db.sql))!.history_from)).toBe(start);
      expect(await db.sql`select 1 from utxo_tx_addresses where address = ${tracked}`).toHaveLength(
        0,
      );

      // A live payment, delivered as usual: the stream works, so silence about history means something.
      const live = await node.rpc<string>('sendtoaddress', tracked, 0.5);
      await node.mine(1);
      await receiver.waitFor(() => receiver.received.some((r) => r.json?.hash === live), 30_000);

      // The backfill runs in an indexer process of its own, killed (-9) once it has stored a
      // block and before it is done, then started again: it goes on where it stood.
      await app!.stop();
      app = await startTestAppliance(db.url, env(), { ...indexerOnly, indexer: false });
      // Through a node that cuts, refuses or fails one request in ten.
      const direct = new URL(node.rpcUrl);
      proxy = await startFaultyRpcProxy(`http://${direct.host}`, createRng(16), {
        rate: 0.1,
        hangMs: 200,
      });
      const viaProxy = new URL(proxy.url);
      viaProxy.username = direct.username;
      viaProxy.password = direct.password;
      const startIndexer = () => {
        const run = runCli(
          db.url,
          ['indexer'],
          { ...env(), TOLLGATE_RPC_LITECOIN: viaProxy.toString() },
          'info',
        );
        children.push(run);
        return run;
      };
      let indexer = startIndexer();
      const from = 40;
      const { backfill } = await requestBackfill(db.sql, {
        network: 'litecoin',
        from: BigInt(from),
        requestedBy: 'test',
      });
      expect(backfill).toMatchObject({
        from_block: String(from),
        to_block: String(start - 1),
        status: 'running',
      });
      await eventually(
        () => getBackfill(db.sql, backfill.id),
        (b) => Number(b?.blocks_done) > 0,
        60_000,
      );
      indexer.child.kill('SIGKILL');
      await indexer.exited;
      const killedAt = (await getBackfill(db.sql, backfill.id))!;
      expect(killedAt.status).toBe('running');
      expect(Number(killedAt.next_block)).toBeGreaterThan(from);
      indexer = startIndexer();
      await node.mine(1); // a live block while it runs
      await eventually(
        () => getBackfill(db.sql, backfill.id),
        (b) => b?.status === 'done',
        60_000,
      );
      expect(
        proxy.stats.faults.timeout + proxy.stats.faults.http_500 + proxy.stats.faults.rpc_error,
      ).toBeGreaterThan(0);
      await indexedHead(db.sql);
      indexer.child.kill('SIGTERM');
      await indexer.exited;
      await app.stop();
      app = await startTestAppliance(db.url, env(), indexerOnly);
      const done = (await getBackfill(db.sql, backfill.id))!;
      expect(done).toMatchObject({
        next_block: String(from - 1),
        blocks_done: String(start - from),
      });
      expect(Number((await cursorOf(db.sql))!.history_from)).toBe(from);

      const stored = await db.sql<{ tx_hash: string }[]>`
        select tx_hash from utxo_tx_addresses where network = 'litecoin' and address = ${tracked} order by block_number`;
      expect(stored.map((r) => r.tx_hash)).toEqual([...historyTxids, live]);
      // The coins a history transaction spends come with it (from the node: nothing below it
      // was stored when it was).
      const [input] = await db.sql<{ prev_value: string; prev_height: string }[]>`
        select prev_value, prev_height from utxo_inputs where network = 'litecoin' and txid = ${historyTxids[0]!}`;
      expect(Number(input!.prev_value)).toBeGreaterThan(0);
      expect(Number(input!.prev_height)).toBeLessThan(from + 1);

      // History is not news: no stream webhook for any of it.
      await indexedHead(db.sql);
      await new Promise((r) => setTimeout(r, 1_000)); // what would be sent has been
      const delivered = receiver.received.map((r) => r.json?.hash);
      for (const txid of historyTxids) expect(delivered).not.toContain(txid);
      expect(delivered).toContain(live);

      // The same rows as an indexer that began at the backfill's first block.
      const clean = await freshDatabase();
      const other = await startTestAppliance(
        clean.url,
        { ...env(), TOLLGATE_START_BLOCK_LITECOIN: String(from) },
        { ...indexerOnly, worker: false },
      );
      try {
        await indexedHead(clean.sql);
        await indexedHead(db.sql);
        await compareUtxoTables(db.sql, clean.sql);
      } finally {
        await other.stop();
        await clean.drop();
      }
    }, 180_000);

    it('fails a backfill whose blocks do not lead to the stored block above, saying why', async () => {
      // The stored history now begins at 40; a backfill below it must end at the parent block
      // 40 names. Tamper with that link as a node on another chain would look.
      await db.sql`update utxo_blocks set prev_hash = ${'ab'.repeat(32)} where network = 'litecoin' and height = 40`;
      const { backfill } = await requestBackfill(db.sql, {
        network: 'litecoin',
        from: 30n,
        requestedBy: 'test',
      });
      await eventually(
        () => getBackfill(db.sql, backfill.id),
        (b) => b?.status === 'failed',
        30_000,
      );
      const failed = (await getBackfill(db.sql, backfill.id))!;
      expect(failed.error).toMatch(
        /block 39 from the litecoin node \(\w+\) is not the parent the stored block above it names/,
      );
      expect(failed.blocks_done).toBe('0');
      expect(Number((await cursorOf(db.sql))!.history_from)).toBe(40);
    }, 60_000);

    it('fails a backfill of blocks the node pruned, with its answer; pruned blocks leave getblock verbosity 3', async () => {
      // Block 40's link as it was, and a node that pruned blocks 35 and below (-prune): Bitcoin
      // Core answers getblock for them with RPC_MISC_ERROR "Block not available (pruned data)".
      const hash39 = await node.rpc<string>('getblockhash', 39);
      await db.sql`update utxo_blocks set prev_hash = ${hash39} where network = 'litecoin' and height = 40`;
      const pruned = new Set<string>();
      for (let h = 1; h <= 35; h++) pruned.add(await node.rpc<string>('getblockhash', h));
      const pruning = await prunedProxy(node, pruned);
      const { verbosities } = pruning;
      try {
        // A reader whose first getblock meets a pruned block: refused as history it does not
        // serve, not taken for a node without verbosity numbers (Dogecoin 1.14's RPC_MISC_ERROR).
        const reader = new UtxoRpc(pruning.rpcUrl);
        await expect(reader.block([...pruned][29]!)).rejects.toThrow(HistoryUnavailableError);
        verbosities.length = 0;
        expect((await reader.block(hash39))?.hash).toBe(hash39);
        expect(verbosities).toEqual([3]);

        await app?.stop();
        app = await startTestAppliance(
          db.url,
          { ...env(), TOLLGATE_RPC_LITECOIN: pruning.rpcUrl },
          indexerOnly,
        );
        const { backfill } = await requestBackfill(db.sql, {
          network: 'litecoin',
          from: 30n,
          requestedBy: 'test',
        });
        const failed = await eventually(
          () => getBackfill(db.sql, backfill.id),
          (b) => b?.status !== 'running',
          60_000,
        );
        expect(failed!.status).toBe('failed');
        expect(failed!.error).toBe(
          `block 35: the node does not serve block ${[...pruned][34]} (it answered: Block not available (pruned data)): the litecoin node does not serve history this far back (pruned there (-prune): backfill from a later block, or use a node without -prune)`,
        );
        // What it stored above stays; the live follower goes on.
        expect(failed!.blocks_done).toBe('4');
        expect(Number((await cursorOf(db.sql))!.history_from)).toBe(36);
        await node.mine(1);
        await indexedHead(db.sql);
      } finally {
        await pruning.close();
      }
    }, 90_000);
  },
);
