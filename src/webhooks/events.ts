import type { Sql, TransactionSql } from '../db/index.js';
import { CHAIN_EVENT_COLUMNS, enqueueEvents, eventInsert, type EventColumn } from './enqueue.js';

/**
 * What happens to events about a chain's transactions as the chain moves on, whatever their kind:
 * an unconfirmed event is followed by a confirmed one once its block has enough confirmations,
 * and one whose block a reorg removed is retracted if its receiver may have it. The indexer
 * calls these in the same transaction as the block.
 */

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
  return enqueueEvents(
    tx,
    RETRACTION_COLUMNS,
    retractionRows(tx),
    tx`orphaned as (
      update webhook_events set orphaned = true, confirmation_done = true,
        status = case when status = 'pending' and (lease_until is null or lease_until < now()) then 'cancelled' else status end
      where network = ${network} and block_number > ${ancestor.toString()} and not removed and not orphaned
      returning kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, status, body, in_doubt, incarnation, sequence
    )`,
  );
}

/**
 * The CTE `ins`: a retraction for each row of the CTE `orphaned` that may have reached its
 * receiver (delivered, or sent with no outcome recorded): its body with `"removed": true` first
 * and `confirmed` false, under an id of its own. One per (subscription, transaction, block,
 * incarnation). The CTE `orphaned` returns the event's chain columns, status, body, in_doubt and
 * incarnation.
 */
export function retractionsOf(tx: Sql | TransactionSql) {
  return eventInsert(tx, RETRACTION_COLUMNS, retractionRows(tx));
}

const RETRACTION_COLUMNS: readonly EventColumn[] = [
  ...CHAIN_EVENT_COLUMNS,
  'removed',
  'confirmation_done',
  'orphaned',
  'body',
  'incarnation',
];

function retractionRows(tx: Sql | TransactionSql) {
  return tx`
      select kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, false, true, true, true,
        '{"removed":true,' || replace(substr(body, 2), '"confirmed":true', '"confirmed":false'), incarnation
      from orphaned
      where (status = 'delivered' or in_doubt > 0) and body is not null and tracked_id is not null
      order by sequence`;
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
  return enqueueEvents(
    tx,
    CHAIN_EVENT_COLUMNS,
    // In the order of the events they confirm (the numbering trigger numbers rows as inserted):
    // a coin received and spent in one block is confirmed received first, as it was announced.
    tx`select kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, true
      from due where tracked_id is not null order by block_number, sequence`,
    tx`due as (
      update webhook_events set confirmation_done = true
      where network = ${network} and not confirmed and not confirmation_done and not orphaned
        and block_number <= ${upTo.toString()}
      returning kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, sequence
    )`,
  );
}
