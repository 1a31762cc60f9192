import type { Fragment, Sql, TransactionSql } from '../db/index.js';

/**
 * The one way into the outbox: every producer (the indexer's stream events, live AML alerts,
 * travel rule notices, confirmations and retractions) writes webhook_events through eventInsert.
 * A producer sets these columns; the rest (status, attempts, due time, lease) are the outbox's,
 * and the sequence is numbered by a trigger in the event's subscription.
 *
 * Chain columns (network, address, tx_hash, block_number, block_hash) are those of the
 * transaction an event is about; an event about none (a travel rule notice) leaves them null.
 * An event's identity is (tracked_id, kind, network, tx_hash, block_hash, confirmed, removed,
 * incarnation): writing one that exists writes nothing, so a replayed block enqueues nothing
 * twice. The incarnation counts the orphaned events of the same identity (sql/0049): a block
 * that comes back after a reorg gets its events written again, under new ids.
 */
const EVENT_COLUMNS = [
  'kind',
  'api_key_id',
  'tracked_id',
  'network',
  'address',
  'tx_hash',
  'block_number',
  'block_hash',
  'confirmed',
  'confirmation_done',
  'removed',
  'orphaned',
  'body',
  'travelrule_id',
  'travelrule_status',
  'replay',
  // A retraction's: the incarnation of the event it retracts (other events get theirs from the
  // numbering trigger, sql/0049).
  'incarnation',
  // A test event's: its receiver (other kinds find theirs by subscription) and its one attempt.
  'url',
  'max_attempts',
] as const;
export type EventColumn = (typeof EVENT_COLUMNS)[number];

/** The columns of an event about a chain transaction, as stream, confirmation and live AML write them. */
export const CHAIN_EVENT_COLUMNS = [
  'kind',
  'api_key_id',
  'tracked_id',
  'network',
  'address',
  'tx_hash',
  'block_number',
  'block_hash',
  'confirmed',
] as const satisfies readonly EventColumn[];

/**
 * The column list of an insert. postgres.js reads an array after `insert into t (` as rows to
 * insert, not as names, so the names (all from EVENT_COLUMNS, checked here) are written out.
 */
function columnList(columns: readonly EventColumn[]): string {
  for (const c of columns)
    if (!(EVENT_COLUMNS as readonly string[]).includes(c))
      throw new Error(`not an event column: ${c}`);
  return columns.join(', ');
}

/**
 * The CTE `ins`: inserts the rows of `rows` (a `select` or `values` whose columns are `columns`,
 * in that order) and returns their ids. Those already there are skipped. The outbox's triggers
 * wake the dispatchers when the writing transaction commits.
 */
export function eventInsert(
  tx: Sql | TransactionSql,
  columns: readonly EventColumn[],
  rows: Fragment,
): Fragment {
  return tx`ins as (
      insert into webhook_events (${tx.unsafe(columnList(columns))})
      ${rows}
      on conflict do nothing
      returning id
    )`;
}

/**
 * Writes events (see eventInsert) in the caller's transaction. `before` are CTEs the rows read
 * from (`name as (...)`, comma-separated). Returns how many were written.
 */
export async function enqueueEvents(
  tx: Sql | TransactionSql,
  columns: readonly EventColumn[],
  rows: Fragment,
  before?: Fragment,
): Promise<number> {
  const written = before
    ? await tx`with ${before}, ${eventInsert(tx, columns, rows)} select id from ins`
    : await tx`with ${eventInsert(tx, columns, rows)} select id from ins`;
  return written.length;
}
