import type { StoredBlocks, TransactionSql } from '../db/index.js';
import { CHAIN_EVENT_COLUMNS, enqueueEvents } from '../webhooks/enqueue.js';

/**
 * Stream events: one per (streamed address, transaction, block, confirmed), written by the
 * indexer in the same transaction as the block. This writes the unconfirmed ones; the outbox's
 * chain steps (webhooks/events.ts) follow each with a confirmed one, or retract it after a reorg.
 */

/** Each family's transactions table, with its hash and height columns: the block position. */
const POSITIONS = {
  evm: { table: 'evm_transactions', hash: 'hash', height: 'block_number' },
  utxo: { table: 'utxo_transactions', hash: 'txid', height: 'block_height' },
} as const;

/**
 * Unconfirmed events for every streamed address that a transaction of these blocks touches, in
 * one statement for the whole run (it was one per block, a fifth of Postgres's time in a catch-up
 * batch of 50 blocks). `table` is the chain family's address table; `family` matches
 * tracked_addresses.family. Written in block order and, within a block, in the block's order of
 * its transactions, so that their sequence follows it: a coin received and spent in one block is
 * delivered received first (they went by txid; found by an outside probe). Returns how many were
 * written (a replayed block writes none).
 */
export async function enqueueStreamEvents(tx: TransactionSql, opts: StoredBlocks): Promise<number> {
  if (opts.blocks.length === 0) return 0;
  const at = POSITIONS[opts.family];
  return enqueueEvents(
    tx,
    CHAIN_EVENT_COLUMNS,
    tx`
      select 'stream', api_key_id, tracked_id, ${opts.network}, address, tx_hash, block_number, block_hash, false
      from (
        select distinct t.api_key_id, t.id as tracked_id, t.address, a.tx_hash, a.block_number, b.hash as block_hash, x.tx_index
        from unnest(${opts.blocks.map((b) => b.number.toString())}::bigint[], ${opts.blocks.map((b) => b.hash)}::text[]) as b(number, hash)
        join ${tx(opts.table)} a on a.network = ${opts.network} and a.block_number = b.number
        join tracked_addresses t on t.address = a.address and t.family = ${opts.family} and t.stream_webhook is not null
        join api_keys k on k.id = t.api_key_id and k.revoked_at is null
        left join ${tx(at.table)} x on x.network = a.network and x.${tx(at.hash)} = a.tx_hash
          and x.${tx(at.height)} = a.block_number
      ) e
      order by block_number, tx_index, tx_hash, tracked_id`,
  );
}
