import type { Sql, TransactionSql } from '../db/index.js';

/**
 * Webhook events, the delivery outbox: one row per (tracked address, transaction, block,
 * confirmed), created by the indexer in the same transaction as the block, and sent by the
 * dispatcher (dispatcher.ts). The unique key makes a replayed block enqueue nothing twice.
 */

/** The tail of an event insert whose CTE is `ins`: the ids written (the outbox's triggers number
 * them in their subscription and wake the dispatchers when the transaction commits). */
function written(tx: Sql | TransactionSql) {
  return tx`select id from ins`;
}

/** Tables that list, per block, every (address, transaction) a chain's indexer saw. */
export type AddressTable = 'evm_tx_addresses' | 'utxo_tx_addresses';

/**
 * Unconfirmed events for every streamed address that a transaction of this block touches.
 * `table` is the chain family's address table (columns network, address, block_number, tx_hash);
 * `family` matches tracked_addresses.family.
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
  const rows = await tx`
    with ins as (
      insert into webhook_events (kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, confirmed)
      select distinct 'stream', t.api_key_id, t.id, ${opts.network}, t.address, a.tx_hash, a.block_number, ${opts.blockHash}, false
      from ${tx(opts.table)} a
      join tracked_addresses t on t.address = a.address and t.family = ${opts.family} and t.stream_webhook is not null
      join api_keys k on k.id = t.api_key_id and k.revoked_at is null
      where a.network = ${opts.network} and a.block_number = ${opts.blockNumber.toString()}
      on conflict do nothing
      returning id
    )
    ${written(tx)}`;
  return rows.length;
}

/**
 * After a reorg removed every block above `ancestor`: events of orphaned transactions are never
 * confirmed, and those not sent yet are cancelled. Each one whose body may have reached its
 * receiver gets a retraction: delivered, or handed to a receiver with the outcome not recorded
 * (a worker killed mid-attempt, or the attempt still in flight). The retraction is the same body
 * with `"removed": true` first and `confirmed` false, under a webhook-id of its own; its
 * sequence is higher, so it is sent after the event it retracts is settled.
 * An event in flight stays pending (orphaned): its attempt's outcome is recorded as it comes,
 * and no later attempt is made (claimDueDeliveries cancels it).
 * Returns how many retractions were written.
 */
export async function retractOrphanedEvents(
  tx: TransactionSql,
  network: string,
  ancestor: bigint,
): Promise<number> {
  const rows = await tx`
    with orphaned as (
      update webhook_events set orphaned = true, confirmation_done = true,
        status = case when status = 'pending' and (lease_until is null or lease_until < now()) then 'cancelled' else status end
      where network = ${network} and block_number > ${ancestor.toString()} and not removed and not orphaned
      returning kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, status, body, in_doubt
    ), ${retractionsOf(tx)}
    ${written(tx)}`;
  return rows.length;
}

/**
 * The CTE `ins`: a retraction for each row of the CTE `orphaned` that may have reached its
 * receiver (delivered, or sent with no outcome recorded): its body with `"removed": true` first
 * and `confirmed` false, under an id of its own. One per (subscription, transaction, block).
 */
export function retractionsOf(tx: Sql | TransactionSql) {
  return tx`ins as (
      insert into webhook_events (kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash,
          confirmed, removed, confirmation_done, orphaned, body)
      select kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, false, true, true, true,
        '{"removed":true,' || replace(substr(body, 2), '"confirmed":true', '"confirmed":false')
      from orphaned
      where (status = 'delivered' or in_doubt > 0) and body is not null and tracked_id is not null
      on conflict do nothing
      returning id
    )`;
}

/**
 * Confirmed events for the unconfirmed ones at or below `upTo` (the highest block that now has
 * enough confirmations). Each unconfirmed event is confirmed once; an orphaned one never is.
 */
export async function enqueueConfirmations(
  tx: TransactionSql,
  network: string,
  upTo: bigint,
): Promise<number> {
  const rows = await tx`
    with due as (
      update webhook_events set confirmation_done = true
      where network = ${network} and not confirmed and not confirmation_done and not orphaned
        and block_number <= ${upTo.toString()}
      returning kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash
    ), ins as (
      insert into webhook_events (kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, confirmed)
      select kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, true
      from due where tracked_id is not null
      on conflict do nothing
      returning id
    )
    ${written(tx)}`;
  return rows.length;
}
