import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readiness } from '../src/api/readiness.js';
import { UtxoRpc } from '../src/chains/utxo/client.js';
import type { Sql } from '../src/db/index.js';
import { UtxoIndexer, type UtxoIndexerOptions } from '../src/indexer/utxo/indexer.js';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import {
  SKIP_MESSAGE,
  skipWithoutLitecoind,
  startLitecoind,
  type Litecoind,
} from './helpers/litecoind.js';
import { Receiver, type Received } from './helpers/receiver.js';
import { expectWebhookContract } from './helpers/webhook-contract.js';

let node: Litecoind;
let db: TestDatabase;
let worker: Awaited<ReturnType<typeof startTestAppliance>>;
let receiver: Receiver;
const cleanup: (() => Promise<unknown>)[] = [];
/** The first block the reorg tests' indexer (on `db`) was started at. */
let start = 0;

const UTXO_TABLES = {
  utxo_blocks: 'height',
  utxo_transactions: 'block_height, txid',
  utxo_inputs: 'block_height, txid, vin',
  utxo_outputs: 'block_height, txid, vout',
  utxo_tx_addresses: 'block_number, tx_hash, address',
} as const;

function startIndexer(
  { sql, url }: { sql: Sql; url: string },
  opts: Partial<UtxoIndexerOptions>,
): UtxoIndexer {
  const indexer = new UtxoIndexer(sql, new UtxoRpc(node.rpcUrl), {
    network: 'litecoin',
    confirmations: 6,
    startBlock: 'head',
    pollIntervalMs: 50,
    maxReorgDepth: 6,
    databaseUrl: url,
    ...opts,
  });
  indexer.start();
  cleanup.push(() => indexer.stop());
  return indexer;
}

/** Waits until the indexer's cursor is the node's best block. */
async function synced(sql: Sql): Promise<void> {
  const best = await node.rpc<string>('getbestblockhash');
  const rows = await eventually(
    () => sql`select block_hash from indexer_cursors where network = 'litecoin'`,
    (r) => r[0]?.block_hash === best,
    20_000,
  );
  expect(rows[0]?.block_hash).toBe(best);
}

/** Two signed transactions spending the same wallet coin: one pays `to`, the other `conflictTo`. */
async function doubleSpend(
  coin: { txid: string; vout: number; amount: number },
  to: string,
  conflictTo: string,
) {
  const sign = async (address: string, amount: number, fee: number) => {
    const change = await node.rpc<string>('getrawchangeaddress');
    const unsigned = await node.rpc<string>(
      'createrawtransaction',
      [{ txid: coin.txid, vout: coin.vout }],
      { [address]: amount, [change]: Math.round((coin.amount - amount - fee) * 1e8) / 1e8 },
    );
    return (await node.rpc<{ hex: string }>('signrawtransactionwithwallet', unsigned)).hex;
  };
  return { hex: await sign(to, 1, 0.0001), conflict: await sign(conflictTo, 2, 0.0002) };
}

/**
 * The database equals a clean index of the canonical chain from the same start block (a new
 * database, a new indexer), and every stored block and transaction is on the node's best chain.
 */
async function expectCleanIndex(start: number): Promise<void> {
  const clean = await freshDatabase();
  cleanup.push(() => clean.drop());
  startIndexer(clean, { startBlock: start });
  await synced(clean.sql);
  for (const [table, order] of Object.entries(UTXO_TABLES)) {
    const mine = await db.sql.unsafe(`select * from ${table} order by ${order}`);
    const theirs = await clean.sql.unsafe(`select * from ${table} order by ${order}`);
    expect(mine.length).toBeGreaterThan(0);
    expect([...mine], table).toEqual([...theirs]);
  }
  // Counterparty edges: counts exact after the reorgs (first/last seen may be wider).
  const edges = (sql: Sql) =>
    sql`select network, address, counterparty, tx_count from address_edges order by 1, 2, 3`;
  const [myEdges, theirEdges] = await Promise.all([edges(db.sql), edges(clean.sql)]);
  expect(myEdges.length).toBeGreaterThan(0);
  expect([...myEdges], 'address_edges').toEqual([...theirEdges]);
  // And the node's own view: every stored block and its transactions are on the best chain.
  for (const b of await db.sql`select height, hash from utxo_blocks order by height`) {
    const block = await node.rpc('getblock', await node.rpc('getblockhash', Number(b.height)), 1);
    expect(b.hash).toBe(block.hash);
    const txids =
      await db.sql`select txid from utxo_transactions where block_height = ${b.height} order by tx_index`;
    expect(txids.map((t) => t.txid)).toEqual(block.tx);
  }
}

const ofBlock = (txid: string, blockHash: string) => (r: Received) =>
  r.json?.hash === txid && r.json.blockHash === blockHash;

describe.skipIf(skipWithoutLitecoind)(
  `Bitcoin-family reorgs on litecoind -regtest${skipWithoutLitecoind ? ` (${SKIP_MESSAGE})` : ''}`,
  () => {
    beforeAll(async () => {
      node = await startLitecoind();
      await node.mine(120);
      db = await freshDatabase();
      receiver = await new Receiver().start();
      worker = await startTestAppliance(
        db.url,
        {},
        { api: false, worker: true, indexer: false, devChain: false },
      );
    });
    afterAll(async () => {
      for (const f of cleanup.reverse()) await f().catch(() => {});
      await worker?.stop();
      await receiver?.stop();
      await db?.drop();
      await node?.stop();
    });

    it('follows reorgs of depth 1 to 5: retractions for delivered events, no confirmation of orphans, data as a clean index', async () => {
      const key = await createApiKey(db.sql, 'reorg');
      const payee = await node.rpc<string>('getnewaddress', '', 'bech32');
      const conflictPayee = await node.rpc<string>('getnewaddress', '', 'legacy');
      for (const address of [payee, conflictPayee]) {
        await db.sql`insert into tracked_addresses (api_key_id, address, family, stream_webhook) values (${key.id}, ${address}, 'utxo', ${receiver.url})`;
      }
      start = await node.rpc<number>('getblockcount');
      startIndexer(db, { startBlock: start });
      await synced(db.sql);

      const failing = new Set<string>();
      receiver.respond = (r) => (failing.has(r.json?.hash) && !r.json.removed ? 500 : 200);
      const coins = (
        await node.rpc<{ txid: string; vout: number; amount: number }[]>('listunspent', 101)
      ).slice(0, 5);
      const orphans: { txid: string; blockHash: string; delivered: boolean }[] = [];
      const moved: { txid: string; blockHash: string }[] = [];
      const conflicts: string[] = [];

      for (let depth = 1; depth <= 5; depth++) {
        const { hex, conflict } = await doubleSpend(coins[depth - 1]!, payee, conflictPayee);
        const txid = await node.rpc<string>('sendrawtransaction', hex);
        const delivered = depth !== 2; // depth 2: the receiver fails, so the event is still pending at the reorg
        if (!delivered) failing.add(txid);
        const orphaned = await node.mine(depth);
        await synced(db.sql);
        if (delivered) {
          await eventually(
            () =>
              db.sql`select status from webhook_events where tx_hash = ${txid} and not confirmed`,
            (r) => r[0]?.status === 'delivered',
          );
        } else {
          // The failed attempt is recorded (not only received) before the reorg cancels the event.
          await eventually(
            () =>
              db.sql`select attempts, status from webhook_events where tx_hash = ${txid} and not confirmed`,
            (r) => r[0]?.attempts >= 1,
          );
          expect(receiver.received.filter(ofBlock(txid, orphaned[0]!))).toHaveLength(1);
        }
        orphans.push({ txid, blockHash: orphaned[0]!, delivered });

        await node.rpc('invalidateblock', orphaned[0]);
        if (depth === 1) {
          // The transaction goes back to the mempool and into the new branch's first block.
          const [first] = await node.mine(2);
          moved.push({ txid, blockHash: first! });
        } else {
          // A double spend takes its place; depth 3 makes the new branch only as long as the old one.
          await node.rpc('generateblock', await node.rpc<string>('getnewaddress'), [conflict]);
          await node.mine(depth === 3 ? depth - 1 : depth);
          conflicts.push((await node.rpc<{ txid: string }>('decoderawtransaction', conflict)).txid);
        }
        await synced(db.sql);
        const [reorg] =
          await db.sql`select last_reorg_depth from indexer_cursors where network = 'litecoin'`;
        expect(reorg!.last_reorg_depth).toBe(depth);
      }

      await node.mine(6);
      await synced(db.sql);
      await eventually(
        () => db.sql`select count(*)::int as n from webhook_events
      where status = 'pending' or (not confirmed and not removed and not orphaned and not confirmation_done)`,
        (r) => r[0]!.n === 0,
        40_000,
      );

      for (const o of orphans) {
        const got = receiver.received.filter(ofBlock(o.txid, o.blockHash));
        expect(got.filter((r) => r.json.confirmed)).toHaveLength(0);
        expect(got.filter((r) => r.json.removed)).toHaveLength(o.delivered ? 1 : 0);
        const events =
          await db.sql`select confirmed, removed, status from webhook_events where tx_hash = ${o.txid} and block_hash = ${o.blockHash} order by removed`;
        expect(events.map((e) => [e.confirmed, e.removed, e.status])).toEqual(
          o.delivered
            ? [
                [false, false, 'delivered'],
                [false, true, 'delivered'],
              ]
            : [[false, false, 'cancelled']],
        );
        if (o.delivered) {
          const unconfirmed = got.find((r) => !r.json.removed)!;
          const retraction = got.find((r) => r.json.removed)!.json;
          expect(retraction.sequence).toBeGreaterThan(unconfirmed.json.sequence);
          expect({ ...retraction, sequence: undefined }).toEqual({
            removed: true,
            ...unconfirmed.json,
            sequence: undefined,
          });
          expectWebhookContract('retraction', [retraction]);
        }
      }
      // Every body received (stream deliveries and their retractions) keeps its documented contract.
      const bodies = receiver.received.map((r) => r.json);
      expectWebhookContract(
        'retraction',
        bodies.filter((b) => 'removed' in b),
      );
      expectWebhookContract(
        'streamBitcoin',
        bodies.filter((b) => !('removed' in b)),
      );
      for (const m of moved) {
        expect(
          receiver.received
            .filter(ofBlock(m.txid, m.blockHash))
            .map((r) => r.json.confirmed)
            .sort(),
        ).toEqual([false, true]);
      }
      for (const txid of conflicts) {
        expect(
          receiver.received.filter(
            (r) =>
              r.json?.hash === txid && r.json.addresses.includes(conflictPayee) && r.json.confirmed,
          ),
        ).toHaveLength(1);
      }

      await expectCleanIndex(start);
    }, 180_000);

    it('goes back to a block it left: the transaction in it is delivered again (a new webhook-id) after its retraction, then confirmed', async () => {
      const key = await createApiKey(db.sql, 'flip-back');
      const payee = await node.rpc<string>('getnewaddress', '', 'bech32');
      // Streamed and tracked for live AML; paid from a coin of a labelled mixer (risky).
      await db.sql`insert into tracked_addresses (api_key_id, address, family, stream_webhook, aml_webhook)
        values (${key.id}, ${payee}, 'utxo', ${receiver.url}, ${receiver.url})`;
      const mixer = await node.rpc<string>('getnewaddress', '', 'bech32');
      await db.sql`insert into labels (network, address, category, source) values ('litecoin', ${mixer}, 'mixer', 'test')`;
      receiver.respond = () => 200;
      const fund = await node.rpc<string>('sendtoaddress', mixer, 2);
      await node.mine(1);
      await synced(db.sql);
      const funding = await node.rpc<{
        vout: { n: number; scriptPubKey: { address?: string; addresses?: string[] } }[];
      }>('getrawtransaction', fund, true);
      const unsigned = await node.rpc<string>(
        'createrawtransaction',
        [
          {
            txid: fund,
            vout: funding.vout.find(
              (o) => (o.scriptPubKey.address ?? o.scriptPubKey.addresses?.[0]) === mixer,
            )!.n,
          },
        ],
        { [payee]: 1, [await node.rpc<string>('getrawchangeaddress')]: 0.999 },
      );
      const signed = await node.rpc<{ hex: string }>('signrawtransactionwithwallet', unsigned);
      const txid = await node.rpc<string>('sendrawtransaction', signed.hex);
      const [a] = await node.mine(1);
      const amlOf = (blockHash: string) =>
        db.sql<{ incarnation: number; removed: boolean; orphaned: boolean; status: string }[]>`
          select incarnation, removed, orphaned, status from webhook_events
          where kind = 'liveaml' and tx_hash = ${txid} and block_hash = ${blockHash} order by sequence`;
      const rowsOf = (
        list: { incarnation: number; removed: boolean; orphaned: boolean; status: string }[],
      ) => list.map((r) => [r.incarnation, r.removed, r.orphaned, r.status]);
      await eventually(
        () => amlOf(a!),
        (r) => r.length === 1 && r[0]!.status === 'delivered',
        30_000,
      );
      // The payment may also spend a coin of an address the test above streams: only the payee's.
      const toPayee = (blockHash: string) => (r: Received) =>
        ofBlock(txid, blockHash)(r) && r.json.address === payee;
      const inA = (all: Received[]) => all.filter(toPayee(a!));
      await receiver.waitFor((all) => inA(all).length === 1);

      // A longer branch without block A: the payment moves into its first block.
      await node.rpc('invalidateblock', a);
      const [b1] = await node.mine(2);
      await receiver.waitFor(
        (all) =>
          inA(all).some((r) => r.json.removed) &&
          all.some((r) => toPayee(b1!)(r) && !r.json.removed),
      );
      // And the live AML event of the payment in B1 (a job of its own) is there before B1 goes:
      // a branch that is left at once may leave none (the chain steps back as soon as the node
      // is on A's, shorter or not).
      await eventually(
        () => amlOf(b1!),
        (r) => r.length === 1 && r[0]!.status === 'delivered',
        30_000,
      );

      // Then A's branch outgrows it: the chain goes back to A, with the payment in it.
      await node.rpc('reconsiderblock', a);
      await node.rpc('invalidateblock', b1);
      await node.mine(6);
      expect(
        await node.rpc<string>(
          'getblockhash',
          (await node.rpc<{ height: number }>('getblockheader', a)).height,
        ),
      ).toBe(a);
      await synced(db.sql);
      const got = await receiver.waitFor(
        (all) =>
          inA(all).filter((r) => !r.json.removed && !r.json.confirmed).length === 2 &&
          inA(all).some((r) => r.json.confirmed),
        40_000,
      );
      // The live AML event of block A: delivered, retracted, delivered again; listed again.
      const aml = await eventually(
        () => amlOf(a!),
        (r) => r.length === 3 && r.every((e) => e.status === 'delivered'),
        30_000,
      );
      expect(rowsOf(aml)).toEqual([
        [0, false, true, 'delivered'],
        [0, true, true, 'delivered'],
        [1, false, false, 'delivered'],
      ]);
      expect(
        await db.sql`select block_hash, orphaned from liveaml_events where tx_hash = ${txid} order by block_hash = ${a!}`,
      ).toEqual([
        { block_hash: b1, orphaned: true },
        { block_hash: a, orphaned: false },
      ]);
      const list = inA(got).map((r) => ({
        id: r.headers['webhook-id'],
        removed: r.json.removed === true,
        confirmed: r.json.confirmed,
        sequence: r.json.sequence as number,
      }));
      // Delivered, retracted, delivered again under a new webhook-id and a higher sequence, confirmed.
      const [first, retraction, again] = [...list].sort((x, y) => x.sequence - y.sequence);
      expect([first!.removed, retraction!.removed, again!.removed]).toEqual([false, true, false]);
      expect(new Set(list.map((r) => r.id)).size).toBe(list.length);
      expect(list.filter((r) => r.confirmed)).toHaveLength(1);
      expect(receiver.received.filter((r) => toPayee(b1!)(r) && r.json.removed)).toHaveLength(1);
      expect(receiver.received.filter((r) => toPayee(b1!)(r) && r.json.confirmed)).toHaveLength(0);
      // The receiver has the confirmed delivery; the worker records it a moment later.
      const rows = await eventually(
        () => db.sql`select incarnation, confirmed, removed, orphaned, status from webhook_events
          where kind = 'stream' and tx_hash = ${txid} and block_hash = ${a!} and address = ${payee} order by sequence`,
        (r) => r.length === 4 && r.every((e) => e.status !== 'pending'),
      );
      expect(
        rows.map((r) => [r.incarnation, r.confirmed, r.removed, r.orphaned, r.status]),
      ).toEqual([
        [0, false, false, true, 'delivered'],
        [0, false, true, true, 'delivered'],
        [1, false, false, false, 'delivered'],
        [0, true, false, false, 'delivered'],
      ]);
      // Chain data, counterparty edges included, as a clean index of the final chain.
      await expectCleanIndex(start);
    }, 120_000);

    it('follows a branch shorter than the indexed chain at once, not once it has grown past it', async () => {
      // After `invalidateblock` (or a node restored from an earlier state) the node's chain can be
      // on another branch and shorter than what was indexed: the orphaned blocks were served, and
      // their events not retracted, until the node had mined past them (found by an outside probe).
      const key = await createApiKey(db.sql, 'shorter-branch');
      const payee = await node.rpc<string>('getnewaddress', '', 'bech32');
      await db.sql`insert into tracked_addresses (api_key_id, address, family, stream_webhook) values (${key.id}, ${payee}, 'utxo', ${receiver.url})`;
      const txid = await node.rpc<string>('sendtoaddress', payee, 1);
      const [a] = await node.mine(4);
      await synced(db.sql);
      await receiver.waitFor((all) => all.some((r) => ofBlock(txid, a!)(r) && !r.json.removed));
      const indexedTip = await node.rpc<number>('getblockcount');

      await node.rpc('invalidateblock', a);
      const [a2] = await node.mine(2); // the payment again, in the new branch's first block
      expect(await node.rpc<number>('getblockcount')).toBe(indexedTip - 2);
      await synced(db.sql);
      await receiver.waitFor(
        (all) =>
          all.some((r) => ofBlock(txid, a!)(r) && r.json.removed) &&
          all.some((r) => ofBlock(txid, a2!)(r) && !r.json.removed),
        30_000,
      );
      const [cursor] = await db.sql<{ last_reorg_depth: number }[]>`
        select last_reorg_depth from indexer_cursors where network = 'litecoin'`;
      expect(cursor!.last_reorg_depth).toBe(4);
      await expectCleanIndex(start);
    }, 120_000);

    it('halts on a reorg deeper than maxReorgDepth, and /readyz reports it', async () => {
      const halted = await freshDatabase();
      cleanup.push(() => halted.drop());
      startIndexer(halted, { maxReorgDepth: 2 });
      await synced(halted.sql); // the cursor stands at the head before the blocks that will be orphaned
      const old = await node.mine(3);
      await synced(halted.sql);
      const [before] =
        await halted.sql`select block_number, block_hash from indexer_cursors where network = 'litecoin'`;

      await node.rpc('invalidateblock', old[0]);
      await node.mine(4, await node.rpc<string>('getnewaddress', '', 'legacy'));
      const [after] = await eventually(
        () =>
          halted.sql`select block_number, block_hash, halted_reason from indexer_cursors where network = 'litecoin'`,
        (r) => r[0]?.halted_reason !== null,
      );
      expect(String(after!.halted_reason)).toMatch(/reorg on litecoin deeper than 2 blocks/);
      expect([after!.block_number, after!.block_hash]).toEqual([
        before!.block_number,
        before!.block_hash,
      ]);
      expect(await halted.sql`select 1 from utxo_blocks where hash = ${old[0]!}`).toHaveLength(1);
      const ready = await readiness(halted.sql, ['litecoin'], 50);
      expect(ready.ready).toBe(false);
      expect(ready.networks.litecoin!.reason).toMatch(
        /^indexer halted: reorg on litecoin deeper than 2 blocks/,
      );
    });
  },
);
