import type { AddressTable, TransactionSql } from '../db/index.js';
import { CHAIN_EVENT_COLUMNS, enqueueEvents } from '../webhooks/enqueue.js';

/**
 * Stream events: one per (streamed address, transaction, block, confirmed), written by the
 * indexer in the same transaction as the block. This writes the unconfirmed ones; the outbox's
 * chain steps (webhooks/events.ts) follow each with a confirmed one, or retract it after a reorg.
 */

/**
 * Unconfirmed events for every streamed address that a transaction of this block touches.
 * `table` is the chain family's address table; `family` matches tracked_addresses.family.
 * Returns how many were written (a replayed block writes none).
 */
export async function enqueueStreamEvents(
  tx: TransactionSql,
  opts: {
    table: AddressTable;
    family: 'evm' | 'utxo';
    network: string;
    blockNumber: bigint;
    blockHash: string;
  },
): Promise<number> {
  return enqueueEvents(
    tx,
    CHAIN_EVENT_COLUMNS,
    tx`
      select distinct 'stream', t.api_key_id, t.id, ${opts.network}, t.address, a.tx_hash, a.block_number, ${opts.blockHash}, false
      from ${tx(opts.table)} a
      join tracked_addresses t on t.address = a.address and t.family = ${opts.family} and t.stream_webhook is not null
      join api_keys k on k.id = t.api_key_id and k.revoked_at is null
      where a.network = ${opts.network} and a.block_number = ${opts.blockNumber.toString()}`,
  );
}
