import type { Sql, TransactionSql } from '../../db/index.js';
import { type Cursor, CursorMovedError, lockCursor, type StoreOptions } from '../cursor.js';
import { ensurePartitions } from '../partitions.js';
import { type BackfillPosition, storeBackfillBatch } from '../backfill.js';
import type { EvmBlock, EvmTransaction } from '../../chains/evm/client.js';
import type { InternalTransfer } from '../../chains/evm/traces.js';
import { addEdges, subtractEdges, ZERO_ADDRESS } from '../edges.js';
import { enqueueLiveAmlChecks, orphanEventsAbove } from '../../liveaml/index.js';
import { decodeTransfers, touchedAddresses } from '../../chains/evm/decode.js';
import { enqueueConfirmations, retractOrphanedEvents } from '../../webhooks/events.js';
import { enqueueStreamEvents } from '../../streams/index.js';
import {
  forgetExposure,
  forgetListChanges,
  indexListEvents,
  listContracts,
  revertListEvents,
} from '../../aml/index.js';

/**
 * SQL of the EVM indexer: blocks, transactions, logs, touched addresses, token transfers and
 * internal transfers.
 */

const CHAIN_TABLES = [
  'evm_blocks',
  'evm_transactions',
  'evm_logs',
  'evm_tx_addresses',
  'evm_token_transfers',
  'evm_internal_transfers',
] as const;

/** Creates the network's partition of each chain table (idempotent). */
export function ensureNetworkPartitions(sql: Sql, network: string): Promise<void> {
  return ensurePartitions(sql, 'evm', network, CHAIN_TABLES);
}

/** The stored block's time (Unix seconds), undefined when it is not stored. */
export async function storedBlockTime(
  sql: Sql,
  network: string,
  number: bigint,
): Promise<number | undefined> {
  const [row] = await sql<
    { timestamp: string }[]
  >`select timestamp from evm_blocks where network = ${network} and number = ${number.toString()}`;
  return row ? Number(row.timestamp) : undefined;
}

export async function storedBlockHash(
  sql: Sql,
  network: string,
  number: bigint,
): Promise<string | undefined> {
  const [row] = await sql<
    { hash: string }[]
  >`select hash from evm_blocks where network = ${network} and number = ${number.toString()}`;
  return row?.hash;
}

/**
 * Stores consecutive blocks (the first one's parent is the cursor's block) and everything derived
 * from them, moves the cursor to the last one and enqueues their webhook jobs, all in one
 * transaction: after a crash either all of it is there or none of it.
 */
export async function storeBlocks(
  sql: Sql,
  network: string,
  blocks: readonly EvmBlock[],
  expected: Cursor,
  opts: StoreOptions,
): Promise<Cursor> {
  const last = blocks[blocks.length - 1]!;
  return sql.begin(async (tx) => {
    const cur = await lockCursor(tx, network, opts.lockPid);
    if (
      !cur ||
      cur.block_number !== expected.block_number ||
      cur.block_hash !== expected.block_hash
    )
      throw new CursorMovedError(network);
    await insertBlocks(tx, network, blocks);
    // Sanctions and blacklists of the configured list contracts (config/networks.json).
    await indexListEvents(tx, network, listContracts(network), listLogs(blocks));
    const [moved] = await tx<Cursor[]>`
      update indexer_cursors set block_number = ${last.number.toString()}, block_hash = ${last.hash}, updated_at = now(),
        blocks_indexed = blocks_indexed + ${blocks.length}, txs_indexed = txs_indexed + ${blocks.reduce((n, b) => n + b.transactions.length, 0)}
      where network = ${network} returning network, chain_id, block_number, block_hash`;
    const stored = {
      table: 'evm_tx_addresses',
      family: 'evm',
      network,
      blocks: blocks.map((b) => ({ number: b.number, hash: b.hash })),
    } as const;
    await enqueueStreamEvents(tx, stored);
    await enqueueLiveAmlChecks(tx, stored);
    await enqueueConfirmations(tx, network, last.number - BigInt(opts.confirmations) + 1n);
    return moved!;
  }) as Promise<Cursor>;
}

/**
 * A backfill's batch (consecutive blocks lo..hi, each on the one below, hi on the block the
 * backfill expects): stored in one transaction with the backfill's move and the history's reach,
 * like any block but as history: no stream or live AML events, no confirmations. A block already
 * stored (an earlier, overlapping backfill) is left as it is. False when the backfill was
 * cancelled or moved meanwhile (nothing stored).
 */
export async function storeBackfillBlocks(
  sql: Sql,
  network: string,
  at: BackfillPosition,
  blocks: readonly EvmBlock[],
  lockPid: number | undefined,
): Promise<boolean> {
  return storeBackfillBatch(sql, network, at, lockPid, async (tx) => {
    const lo = blocks[0]!.number;
    const hi = blocks[blocks.length - 1]!.number;
    const stored = new Set(
      (
        await tx<{ number: string }[]>`
          select number from evm_blocks where network = ${network} and number between ${lo.toString()} and ${hi.toString()}`
      ).map((r) => BigInt(r.number)),
    );
    const fresh = blocks.filter((b) => !stored.has(b.number));
    if (fresh.length) {
      await insertBlocks(tx, network, fresh);
      await indexListEvents(tx, network, listContracts(network), listLogs(fresh));
    }
    return {
      lo,
      hi,
      parentHash: blocks[0]!.parentHash,
      blocks: fresh.length,
      txs: fresh.reduce((n, b) => n + b.transactions.length, 0),
    };
  });
}

/**
 * Up to `limit` stored blocks of from..to left untraced (traced false, or null: stored before
 * sql/0063), the highest first.
 */
export async function untracedBlocks(
  sql: Sql,
  network: string,
  from: bigint,
  to: bigint,
  limit: number,
): Promise<{ number: bigint; hash: string; txCount: number }[]> {
  const rows = await sql<{ number: string; hash: string; tx_count: number }[]>`
    select number, hash, tx_count from evm_blocks
    where network = ${network} and number between ${from.toString()} and ${to.toString()} and traced is not true
    order by number desc limit ${limit}`;
  return rows.map((r) => ({ number: BigInt(r.number), hash: r.hash, txCount: r.tx_count }));
}

/** A stored block's call traces as a retrace read them from the node. */
export interface RetracedBlock {
  number: bigint;
  hash: string;
  transactions: { hash: string; internal: InternalTransfer[] }[];
}

/**
 * A retrace's batch: blocks lo..hi, where every block stored untraced with transactions is in
 * `traced` (read from the node) or is left as it is. In one transaction with the retrace's move:
 * each stored block still untraced and still the block traced (same hash: no reorg replaced it
 * meanwhile) gets its internal transfers, as the indexer stores them with a block (rows, the
 * parties as touched addresses, their edges), and is marked traced; one without transactions is
 * marked traced as it is. History: no stream or live AML events. A transaction's failed calls
 * moved nothing (its stored status is taken). An edge its value or token transfers already
 * counted for the transaction is not counted again: every transaction counts once per pair, as
 * a reorg's subtraction expects (evmPairsAbove). Null when the retrace was cancelled or moved
 * meanwhile (nothing stored); else the blocks marked traced and the internal transfers stored.
 */
export async function storeRetracedBlocks(
  sql: Sql,
  network: string,
  at: BackfillPosition,
  range: { lo: bigint; hi: bigint },
  traced: readonly RetracedBlock[],
  lockPid: number | undefined,
): Promise<{ blocks: number; transfers: number } | null> {
  let out = { blocks: 0, transfers: 0 };
  const stored = await storeBackfillBatch(sql, network, at, lockPid, async (tx) => {
    const rows = await tx<{ number: string; hash: string; timestamp: string; tx_count: number }[]>`
      select number, hash, timestamp, tx_count from evm_blocks
      where network = ${network} and number between ${range.lo.toString()} and ${range.hi.toString()}
        and traced is not true
      for update`;
    const read = new Map(traced.map((b) => [b.number.toString(), b]));
    const done: { row: (typeof rows)[number]; block?: RetracedBlock }[] = [];
    for (const row of rows) {
      const block = read.get(row.number);
      if (row.tx_count === 0) done.push({ row });
      else if (block && block.hash === row.hash) done.push({ row, block });
    }
    const txs = done.flatMap(({ row, block }) =>
      (block?.transactions ?? []).map((t) => ({ row, t })),
    );
    const hashes = txs.filter((x) => x.t.internal.length > 0).map((x) => x.t.hash);
    // What the stored transactions already count: their status, and the pairs of their value
    // and token transfers (as evmPairs and evmPairsAbove make them).
    const failed = new Set<string>();
    const counted = new Set<string>();
    if (hashes.length) {
      const known = await tx<{ tx: string; a: string | null; b: string | null; failed: boolean }[]>`
        select hash as tx, from_address as a, case when value > 0 and status is distinct from 0
            then coalesce(to_address, contract_address) end as b, status = 0 as failed
          from evm_transactions where network = ${network} and hash = any(${hashes}::text[])
        union all
        select tx_hash, from_address, to_address, false from evm_token_transfers
          where network = ${network} and tx_hash = any(${hashes}::text[])`;
      for (const k of known) {
        if (k.failed) failed.add(k.tx);
        if (k.a && k.b) counted.add(`${k.tx}\n${k.a}\n${k.b}`).add(`${k.tx}\n${k.b}\n${k.a}`);
      }
    }
    const moved = txs.flatMap(({ row, t }) =>
      failed.has(t.hash) ? [] : t.internal.map((x) => ({ row, t, x })),
    );
    if (moved.length) {
      await tx`insert into evm_internal_transfers (network, block_number, tx_hash, trace_index, kind, from_address, to_address, value, timestamp)
        select ${network}, u.block_number, u.tx_hash, u.idx, u.kind, u.from_a, u.to_a, u.value, u.ts
        from unnest(${moved.map((y) => y.row.number)}::bigint[], ${moved.map((y) => y.t.hash)}::text[],
          ${moved.map((y) => y.x.index)}::int[], ${moved.map((y) => y.x.kind)}::text[], ${moved.map((y) => y.x.from)}::text[],
          ${moved.map((y) => y.x.to)}::text[], ${moved.map((y) => y.x.value.toString())}::numeric[],
          ${moved.map((y) => y.row.timestamp)}::bigint[])
          as u(block_number, tx_hash, idx, kind, from_a, to_a, value, ts)`;
      // Their parties as touched addresses (wallet history, streams' history), where not already.
      const touched = new Map<
        string,
        { row: (typeof rows)[number]; address: string; tx: string }
      >();
      for (const { row, t, x } of moved)
        for (const address of [x.from, x.to])
          if (address !== ZERO_ADDRESS)
            touched.set(`${t.hash}\n${address}`, { row, address, tx: t.hash });
      const parties = [...touched.values()];
      await tx`insert into evm_tx_addresses (network, address, block_number, tx_hash, timestamp)
        select ${network}, u.address, u.block_number, u.tx_hash, u.ts
        from unnest(${parties.map((p) => p.address)}::text[], ${parties.map((p) => p.row.number)}::bigint[],
          ${parties.map((p) => p.tx)}::text[], ${parties.map((p) => p.row.timestamp)}::bigint[]) as u(address, block_number, tx_hash, ts)
        on conflict do nothing`;
      const byTx = new Map<string, { timestamp: bigint; pairs: [string, string][] }>();
      for (const { row, t, x } of moved) {
        if (counted.has(`${t.hash}\n${x.from}\n${x.to}`)) continue;
        const entry = byTx.get(t.hash) ?? { timestamp: BigInt(row.timestamp), pairs: [] };
        entry.pairs.push([x.from, x.to]);
        byTx.set(t.hash, entry);
      }
      await addEdges(tx, network, [...byTx.values()]);
    }
    if (done.length)
      await tx`update evm_blocks set traced = true
        where network = ${network} and number = any(${done.map((d) => d.row.number)}::bigint[])`;
    out = { blocks: done.length, transfers: moved.length };
    return {
      lo: range.lo,
      hi: range.hi,
      parentHash: null,
      blocks: done.length,
      txs: txs.length,
    };
  });
  return stored ? out : null;
}

/** The logs of some blocks, as the on-chain list reader takes them. */
function listLogs(blocks: readonly EvmBlock[]) {
  return blocks.flatMap((b) =>
    b.transactions.flatMap((t) =>
      t.logs.map((l) => ({ blockNumber: b.number, txHash: t.hash, ...l })),
    ),
  );
}

/** Column arrays for unnest: one statement per table for the whole batch of blocks. */
async function insertBlocks(
  tx: TransactionSql,
  network: string,
  blocks: readonly EvmBlock[],
): Promise<void> {
  await tx`insert into evm_blocks (network, number, hash, parent_hash, timestamp, tx_count, traced)
    select ${network}, u.number, u.hash, u.parent_hash, u.ts, u.tx_count, u.traced::boolean
    from unnest(${blocks.map((b) => b.number.toString())}::bigint[], ${blocks.map((b) => b.hash)}::text[], ${blocks.map((b) => b.parentHash)}::text[],
      ${blocks.map((b) => b.timestamp.toString())}::bigint[], ${blocks.map((b) => b.transactions.length)}::int[],
      ${blocks.map((b) => (b.traced ? 't' : 'f'))}::text[])
      as u(number, hash, parent_hash, ts, tx_count, traced)`;

  const txs = blocks.flatMap((b) => b.transactions.map((t) => ({ b, t })));
  if (txs.length === 0) return;
  const col = <T>(f: (x: (typeof txs)[number]) => T) => txs.map(f);
  await tx`insert into evm_transactions (network, hash, block_number, block_hash, tx_index, from_address, to_address,
      contract_address, value, gas, gas_price, gas_used, nonce, input, status)
    select ${network}, u.hash, u.block_number, u.block_hash, u.idx, u.from_a, u.to_a, u.contract, u.value, u.gas, u.gas_price, u.gas_used, u.nonce, u.input, u.status
    from unnest(${col((x) => x.t.hash)}::text[], ${col((x) => x.b.number.toString())}::bigint[], ${col((x) => x.b.hash)}::text[],
      ${col((x) => x.t.index)}::int[], ${col((x) => x.t.from)}::text[], ${col((x) => x.t.to)}::text[],
      ${col((x) => x.t.contractAddress)}::text[], ${col((x) => x.t.value.toString())}::numeric[], ${col((x) => x.t.gas.toString())}::numeric[],
      ${col((x) => x.t.gasPrice?.toString() ?? null)}::numeric[], ${col((x) => x.t.gasUsed?.toString() ?? null)}::numeric[],
      ${col((x) => x.t.nonce.toString())}::bigint[], ${col((x) => x.t.input)}::text[], ${col((x) => x.t.status)}::smallint[])
      as u(hash, block_number, block_hash, idx, from_a, to_a, contract, value, gas, gas_price, gas_used, nonce, input, status)`;

  const logs = txs.flatMap(({ b, t }) => t.logs.map((l) => ({ b, t, l })));
  if (logs.length) {
    await tx`insert into evm_logs (network, block_number, log_index, block_hash, tx_hash, tx_index, address, topics, data)
      select ${network}, u.block_number, u.log_index, u.block_hash, u.tx_hash, u.tx_index, u.address, string_to_array(u.topics, ','), u.data
      from unnest(${logs.map((x) => x.b.number.toString())}::bigint[], ${logs.map((x) => x.l.logIndex)}::int[], ${logs.map((x) => x.b.hash)}::text[],
        ${logs.map((x) => x.t.hash)}::text[], ${logs.map((x) => x.t.index)}::int[], ${logs.map((x) => x.l.address)}::text[],
        ${logs.map((x) => x.l.topics.join(','))}::text[], ${logs.map((x) => x.l.data)}::text[])
        as u(block_number, log_index, block_hash, tx_hash, tx_index, address, topics, data)`;
  }

  await addEdges(
    tx,
    network,
    txs.map(({ b, t }) => ({ timestamp: b.timestamp, pairs: evmPairs(t) })),
  );

  // Every row is new: its transaction's row was just inserted above (a hash already stored would
  // have failed that insert), and touchedAddresses names an address once per transaction. No
  // `on conflict` clause: its check before each row cost a fifth of this statement.
  const touched = txs.flatMap(({ b, t }) =>
    touchedAddresses(t, t.logs).map((address) => ({ b, address, hash: t.hash })),
  );
  await tx`insert into evm_tx_addresses (network, address, block_number, tx_hash, timestamp)
    select ${network}, u.address, u.block_number, u.tx_hash, u.ts
    from unnest(${touched.map((x) => x.address)}::text[], ${touched.map((x) => x.b.number.toString())}::bigint[],
      ${touched.map((x) => x.hash)}::text[], ${touched.map((x) => x.b.timestamp.toString())}::bigint[]) as u(address, block_number, tx_hash, ts)`;

  const internal = txs.flatMap(({ b, t }) => t.internal.map((x) => ({ b, t, x })));
  if (internal.length) {
    await tx`insert into evm_internal_transfers (network, block_number, tx_hash, trace_index, kind, from_address, to_address, value, timestamp)
      select ${network}, u.block_number, u.tx_hash, u.idx, u.kind, u.from_a, u.to_a, u.value, u.ts
      from unnest(${internal.map((y) => y.b.number.toString())}::bigint[], ${internal.map((y) => y.t.hash)}::text[],
        ${internal.map((y) => y.x.index)}::int[], ${internal.map((y) => y.x.kind)}::text[], ${internal.map((y) => y.x.from)}::text[],
        ${internal.map((y) => y.x.to)}::text[], ${internal.map((y) => y.x.value.toString())}::numeric[],
        ${internal.map((y) => y.b.timestamp.toString())}::bigint[])
        as u(block_number, tx_hash, idx, kind, from_a, to_a, value, ts)`;
  }

  const transfers = txs.flatMap(({ b, t }) => {
    const batchIndex = new Map<number, number>();
    return decodeTransfers(t.logs).map((x) => {
      const i = batchIndex.get(x.logIndex) ?? 0;
      batchIndex.set(x.logIndex, i + 1);
      return { ...x, b, tx: t.hash, batch: i };
    });
  });
  if (transfers.length) {
    await tx`insert into evm_token_transfers (network, block_number, log_index, batch_index, tx_hash, token, standard,
        from_address, to_address, token_id, value, timestamp)
      select ${network}, u.block_number, u.log_index, u.batch, u.tx_hash, u.token, u.standard, u.from_a, u.to_a, u.token_id, u.value, u.ts
      from unnest(${transfers.map((x) => x.b.number.toString())}::bigint[], ${transfers.map((x) => x.logIndex)}::int[], ${transfers.map((x) => x.batch)}::int[],
        ${transfers.map((x) => x.tx)}::text[], ${transfers.map((x) => x.address)}::text[], ${transfers.map((x) => x.type)}::text[],
        ${transfers.map((x) => x.from)}::text[], ${transfers.map((x) => x.to)}::text[], ${transfers.map((x) => x.tokenId?.toString() ?? null)}::numeric[],
        ${transfers.map((x) => x.value.toString())}::numeric[], ${transfers.map((x) => x.b.timestamp.toString())}::bigint[])
        as u(block_number, log_index, batch, tx_hash, token, standard, from_a, to_a, token_id, value, ts)`;
  }
}

/**
 * The counterparties of a transaction, as value flows: the sender and the recipient (or the
 * contract it created) when native coin moved (a value above 0, and the transaction did not
 * revert), the parties of each internal transfer (coin its calls moved, where the block was
 * traced), and the parties of each token transfer. A call that moved no coin does not link its
 * sender with the contract it called: a token contract, a DEX router or any contract everyone
 * calls would otherwise link every caller with every other, sanctioned ones included (a hub),
 * and its token transfers name who paid whom. Kept in step with `evmPairsAbove` below and with
 * sql/0062 (which rebuilt the graph by this rule).
 */
function evmPairs(t: EvmTransaction): [string, string][] {
  const pairs: [string, string][] = [];
  const to = t.to ?? t.contractAddress;
  if (to && t.value > 0n && t.status !== 0) pairs.push([t.from, to]);
  for (const x of t.internal) pairs.push([x.from, x.to]);
  for (const x of decodeTransfers(t.logs)) pairs.push([x.from, x.to]);
  return pairs;
}

/** The same pairs, in SQL, for the transactions above a block (what a reorg is about to delete). */
function evmPairsAbove(tx: TransactionSql, network: string, above: string) {
  return tx`
    select hash as tx, from_address as a, coalesce(to_address, contract_address) as b from evm_transactions
    where network = ${network} and block_number > ${above} and coalesce(to_address, contract_address) is not null
      and value > 0 and status is distinct from 0
    union all
    select tx_hash, from_address, to_address from evm_internal_transfers where network = ${network} and block_number > ${above}
    union all
    select tx_hash, from_address, to_address from evm_token_transfers where network = ${network} and block_number > ${above}`;
}

/**
 * Reorg: removes every row above the common ancestor and moves the cursor back to it, in one
 * transaction. Unconfirmed events of orphaned blocks are marked so that no confirmed delivery
 * ever follows them, and those not yet delivered are cancelled.
 */
export async function revertToAncestor(
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
    await subtractEdges(tx, network, evmPairsAbove(tx, network, a));
    await revertListEvents(tx, network, ancestor);
    for (const table of [
      'evm_token_transfers',
      'evm_internal_transfers',
      'evm_tx_addresses',
      'evm_logs',
      'evm_transactions',
    ] as const) {
      await tx`delete from ${tx(table)} where network = ${network} and block_number > ${a}`;
    }
    await tx`delete from evm_blocks where network = ${network} and number > ${a}`;
    const retractions = await retractOrphanedEvents(tx, network, ancestor);
    await orphanEventsAbove(tx, network, ancestor);
    await tx`update indexer_cursors set block_number = ${a}, block_hash = ${ancestorHash}, last_reorg_at = now(),
        last_reorg_depth = ${depth}, reorg_count = reorg_count + 1, updated_at = now() where network = ${network}`;
    return retractions;
  }) as Promise<number>;
}

/**
 * Forgets a network's chain data and cursor (the dev chain starts a new chain on every start).
 * Events not yet delivered for it are cancelled; delivered ones stay in the log.
 */
export async function forgetNetwork(sql: Sql, network: string): Promise<void> {
  await sql.begin(async (tx) => {
    await forgetListChanges(tx, network);
    await forgetExposure(tx, network);
    // And what was read from its contracts: a contract of the next chain at the same address (a
    // dev chain deploys to the same addresses) showed the previous one's NFT metadata.
    for (const table of [...CHAIN_TABLES, 'address_edges', 'evm_tokens', 'nft_metadata'] as const)
      await tx`delete from ${tx(table)} where network = ${network}`;
    await tx`update webhook_events set orphaned = true, confirmation_done = true,
        status = case when status = 'pending' then 'cancelled' else status end
      where network = ${network}`;
    await tx`delete from indexer_cursors where network = ${network}`;
  });
}
