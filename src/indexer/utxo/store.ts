import type { Sql, TransactionSql } from '../../db/index.js';
import { enqueueConfirmations, retractOrphanedEvents } from '../../webhooks/events.js';
import { enqueueStreamEvents } from '../../streams/index.js';
import { type Cursor, CursorMovedError, lockCursor, type StoreOptions } from '../cursor.js';
import { ensurePartitions } from '../partitions.js';
import { type BackfillPosition, storeBackfillBatch } from '../backfill.js';
import { outpointKey } from '../../chains/utxo/block.js';
import type { Coin, ResolvedBlock } from './resolved.js';
import { MAX_UTXO_PAIRS_PER_TX, addEdges, subtractEdges } from '../edges.js';
import { enqueueLiveAmlChecks, orphanEventsAbove } from '../../liveaml/index.js';

/** SQL of the Bitcoin-family indexer: blocks, transactions, inputs with their coins, outputs, touched addresses. */

const UTXO_TABLES = [
  'utxo_blocks',
  'utxo_transactions',
  'utxo_inputs',
  'utxo_outputs',
  'utxo_tx_addresses',
] as const;

/** Creates the network's partition of each UTXO table (idempotent). */
export function ensureUtxoPartitions(sql: Sql, network: string): Promise<void> {
  return ensurePartitions(sql, 'utxo', network, UTXO_TABLES);
}

/** The stored block's header time (Unix seconds), undefined when it is not stored. */
export async function storedUtxoBlockTime(
  sql: Sql,
  network: string,
  height: bigint,
): Promise<number | undefined> {
  const [row] = await sql<
    { time: string }[]
  >`select time from utxo_blocks where network = ${network} and height = ${height.toString()}`;
  return row ? Number(row.time) : undefined;
}

export async function storedUtxoBlockHash(
  sql: Sql,
  network: string,
  height: bigint,
): Promise<string | undefined> {
  const [row] = await sql<
    { hash: string }[]
  >`select hash from utxo_blocks where network = ${network} and height = ${height.toString()}`;
  return row?.hash;
}

interface OutputRow {
  txid: string;
  vout: number;
  value: string;
  script: string;
  address: string | null;
  type: string;
  req_sigs: number | null;
  block_height: string;
  version: string;
  tx_index: number;
}

/**
 * Indexed outputs by outpoint, created below `height` (the block that spends them; a backfilled
 * block has stored blocks above it); of a txid that occurs twice (BIP 30), the later one.
 */
export async function findStoredOutputs(
  sql: Sql,
  network: string,
  outpoints: readonly { txid: string; vout: number }[],
  height: bigint,
): Promise<Map<string, Coin>> {
  const rows = await sql<OutputRow[]>`
    select distinct on (o.txid, o.vout) o.txid, o.vout, o.value, o.script, o.address, o.type, o.req_sigs, o.block_height, t.version, t.tx_index
    from unnest(${outpoints.map((o) => o.txid)}::text[], ${outpoints.map((o) => o.vout)}::int[]) as q(txid, vout)
    join utxo_outputs o on o.network = ${network} and o.txid = q.txid and o.vout = q.vout and o.block_height < ${height.toString()}
    join utxo_transactions t on t.network = o.network and t.txid = o.txid and t.block_height = o.block_height
    order by o.txid, o.vout, o.block_height desc`;
  return new Map(
    rows.map((r) => [
      outpointKey(r.txid, r.vout),
      {
        value: BigInt(r.value),
        script: r.script,
        address: r.address,
        type: r.type,
        reqSigs: r.req_sigs,
        height: BigInt(r.block_height),
        version: Number(r.version),
        coinbase: r.tx_index === 0,
      },
    ]),
  );
}

/**
 * Stores one block with its transactions, inputs (and their coins), outputs and touched
 * addresses, moves the cursor and enqueues the block's webhook events and the confirmations now
 * due, all in one transaction: after a crash either all of it is there or none of it.
 */
export async function storeUtxoBlock(
  sql: Sql,
  network: string,
  block: ResolvedBlock,
  expected: Cursor,
  opts: StoreOptions,
): Promise<Cursor> {
  return sql.begin(async (tx) => {
    const cur = await lockCursor(tx, network, opts.lockPid);
    if (
      !cur ||
      cur.block_number !== expected.block_number ||
      cur.block_hash !== expected.block_hash
    )
      throw new CursorMovedError(network);
    await insertBlock(tx, network, block);
    const [moved] = await tx<Cursor[]>`
      update indexer_cursors set block_number = ${block.height.toString()}, block_hash = ${block.hash}, updated_at = now(),
        blocks_indexed = blocks_indexed + 1, txs_indexed = txs_indexed + ${block.transactions.length}
      where network = ${network} returning network, chain_id, block_number, block_hash`;
    const stored = {
      table: 'utxo_tx_addresses',
      family: 'utxo',
      network,
      blocks: [{ number: block.height, hash: block.hash }],
    } as const;
    await enqueueStreamEvents(tx, stored);
    await enqueueLiveAmlChecks(tx, stored);
    await enqueueConfirmations(tx, network, block.height - BigInt(opts.confirmations) + 1n);
    return moved!;
  }) as Promise<Cursor>;
}

/**
 * A range backfill's block (src/indexer/backfill.ts): stored unless it is already, with the
 * backfill's new position, in one transaction; no webhook events (history is not news). False:
 * the backfill was cancelled or moved meanwhile, nothing stored.
 */
export async function storeUtxoBackfillBlock(
  sql: Sql,
  network: string,
  at: BackfillPosition,
  block: ResolvedBlock,
  lockPid: number | undefined,
): Promise<boolean> {
  return storeBackfillBatch(sql, network, at, lockPid, async (tx) => {
    const [stored] = await tx`
      select 1 from utxo_blocks where network = ${network} and height = ${block.height.toString()}`;
    if (!stored) await insertBlock(tx, network, block);
    return {
      lo: block.height,
      hi: block.height,
      parentHash: block.prevHash,
      blocks: stored ? 0 : 1,
      txs: stored ? 0 : block.transactions.length,
    };
  });
}

/**
 * Booleans go into unnest arrays as 0/1: postgres.js types a JS boolean array by its first
 * element (a lone boolean) and serialises anything but `true` itself as false.
 */
const bit = (b: boolean) => (b ? 1 : 0);

/** One statement per table, rows as unnest arrays. */
async function insertBlock(
  tx: TransactionSql,
  network: string,
  block: ResolvedBlock,
): Promise<void> {
  const h = block.height.toString();
  const txs = block.transactions;
  await tx`insert into utxo_blocks (network, height, hash, prev_hash, time, tx_count)
    values (${network}, ${h}, ${block.hash}, ${block.prevHash}, ${block.time.toString()}, ${txs.length})`;
  if (txs.length === 0) return;
  await tx`insert into utxo_transactions (network, txid, block_height, block_hash, tx_index, version, size, vsize, weight, locktime, fee, hex)
    select ${network}, u.txid, ${h}, ${block.hash}, u.idx, u.version, u.size, u.vsize, u.weight, u.locktime, u.fee, u.hex
    from unnest(${txs.map((t) => t.txid)}::text[], ${txs.map((t) => t.index)}::int[], ${txs.map((t) => t.version)}::bigint[],
      ${txs.map((t) => t.size)}::int[], ${txs.map((t) => t.vsize)}::int[], ${txs.map((t) => t.weight)}::int[],
      ${txs.map((t) => t.locktime)}::bigint[], ${txs.map((t) => t.fee.toString())}::numeric[], ${txs.map((t) => t.hex)}::text[])
      as u(txid, idx, version, size, vsize, weight, locktime, fee, hex)`;

  const ins = txs.flatMap((t) => t.inputs.map((i) => ({ t, i, c: i.coin })));
  if (ins.length) {
    await tx`insert into utxo_inputs (network, txid, vin, block_height, prev_txid, prev_vout, sequence, script, coinbase,
        prev_value, prev_address, prev_script, prev_type, prev_req_sigs, prev_height, prev_version, prev_coinbase)
      select ${network}, u.txid, u.vin, ${h}, u.prev_txid, u.prev_vout, u.seq, u.script, u.coinbase::boolean,
        u.value, u.address, u.pscript, u.type, u.req_sigs, u.height, u.version, u.pcoinbase::boolean
      from unnest(${ins.map((x) => x.t.txid)}::text[], ${ins.map((x) => x.i.vin)}::int[], ${ins.map((x) => x.i.prevTxid)}::text[],
        ${ins.map((x) => x.i.prevVout)}::int[], ${ins.map((x) => x.i.sequence)}::bigint[], ${ins.map((x) => x.i.script)}::text[],
        ${ins.map((x) => bit(x.i.coinbase))}::int[], ${ins.map((x) => x.c?.value.toString() ?? null)}::numeric[],
        ${ins.map((x) => x.c?.address ?? null)}::text[], ${ins.map((x) => x.c?.script ?? null)}::text[], ${ins.map((x) => x.c?.type ?? null)}::text[],
        ${ins.map((x) => x.c?.reqSigs ?? null)}::int[], ${ins.map((x) => x.c?.height.toString() ?? null)}::bigint[],
        ${ins.map((x) => x.c?.version ?? null)}::bigint[], ${ins.map((x) => (x.c ? bit(x.c.coinbase) : null))}::int[])
        as u(txid, vin, prev_txid, prev_vout, seq, script, coinbase, value, address, pscript, type, req_sigs, height, version, pcoinbase)`;
  }

  const outs = txs.flatMap((t) => t.outputs.map((o) => ({ t, o })));
  if (outs.length) {
    await tx`insert into utxo_outputs (network, txid, vout, block_height, value, script, address, type, req_sigs)
      select ${network}, u.txid, u.vout, ${h}, u.value, u.script, u.address, u.type, u.req_sigs
      from unnest(${outs.map((x) => x.t.txid)}::text[], ${outs.map((x) => x.o.vout)}::int[], ${outs.map((x) => x.o.value.toString())}::numeric[],
        ${outs.map((x) => x.o.script)}::text[], ${outs.map((x) => x.o.address)}::text[], ${outs.map((x) => x.o.type)}::text[],
        ${outs.map((x) => x.o.reqSigs)}::int[])
        as u(txid, vout, value, script, address, type, req_sigs)`;
  }

  await addEdges(
    tx,
    network,
    txs.map((t) => ({ timestamp: block.time, pairs: utxoPairs(t) })),
  );

  const touched = txs.flatMap((t) =>
    [...new Set([...t.inputs.map((i) => i.coin?.address), ...t.outputs.map((o) => o.address)])]
      .filter((a): a is string => Boolean(a))
      .map((address) => ({ address, txid: t.txid })),
  );
  if (touched.length) {
    await tx`insert into utxo_tx_addresses (network, address, block_number, tx_hash, timestamp)
      select ${network}, u.address, ${h}, u.txid, ${block.time.toString()}
      from unnest(${touched.map((x) => x.address)}::text[], ${touched.map((x) => x.txid)}::text[]) as u(address, txid)
      on conflict do nothing`;
  }
}

/**
 * Counterparties of a transaction: each address it spends from with each address it pays,
 * unless that makes more than MAX_UTXO_PAIRS_PER_TX pairs. Kept in step with utxoPairsAbove.
 */
function utxoPairs(t: ResolvedBlock['transactions'][number]): [string, string][] {
  const from = [
    ...new Set(t.inputs.map((i) => i.coin?.address).filter((a): a is string => Boolean(a))),
  ];
  const to = [...new Set(t.outputs.map((o) => o.address).filter((a): a is string => Boolean(a)))];
  if (from.length * to.length > MAX_UTXO_PAIRS_PER_TX) return [];
  return from.flatMap((a) => to.map((b): [string, string] => [a, b]));
}

/** The same pairs, in SQL, for the transactions above a height (what a reorg is about to delete). */
function utxoPairsAbove(tx: TransactionSql, network: string, above: string) {
  return tx`
    with ins as (
      select distinct txid, prev_address as a from utxo_inputs
      where network = ${network} and block_height > ${above} and prev_address is not null
    ), outs as (
      select distinct txid, address as b from utxo_outputs
      where network = ${network} and block_height > ${above} and address is not null
    ), sizes as (
      select i.txid from (select txid, count(*) as n from ins group by txid) i
      join (select txid, count(*) as n from outs group by txid) o using (txid)
      where i.n * o.n <= ${MAX_UTXO_PAIRS_PER_TX}
    )
    select ins.txid as tx, ins.a, outs.b from ins join outs using (txid) join sizes using (txid)`;
}

/**
 * Reorg: removes every row above the common ancestor, retracts or cancels the orphaned blocks'
 * webhook events and moves the cursor back to the ancestor, in one transaction.
 */
export async function revertUtxoToAncestor(
  sql: Sql,
  network: string,
  ancestor: bigint,
  ancestorHash: string,
  depth: number,
  lockPid?: number,
): Promise<number> {
  const a = ancestor.toString();
  return sql.begin(async (tx) => {
    await lockCursor(tx, network, lockPid);
    await subtractEdges(tx, network, utxoPairsAbove(tx, network, a));
    await tx`delete from utxo_tx_addresses where network = ${network} and block_number > ${a}`;
    for (const table of ['utxo_inputs', 'utxo_outputs', 'utxo_transactions'] as const) {
      await tx`delete from ${tx(table)} where network = ${network} and block_height > ${a}`;
    }
    await tx`delete from utxo_blocks where network = ${network} and height > ${a}`;
    const retractions = await retractOrphanedEvents(tx, network, ancestor);
    await orphanEventsAbove(tx, network, ancestor);
    await tx`update indexer_cursors set block_number = ${a}, block_hash = ${ancestorHash}, last_reorg_at = now(),
        last_reorg_depth = ${depth}, reorg_count = reorg_count + 1, updated_at = now() where network = ${network}`;
    return retractions;
  }) as Promise<number>;
}
