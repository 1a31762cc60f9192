import type { Sql, TransactionSql } from '../db/index.js';

/**
 * Webhook events: one row per (tracked address, transaction, block, confirmed), created by the
 * indexer in the same transaction as the block, each with one graphile-worker job that delivers
 * it. The unique key and the job_key make a replayed block enqueue nothing twice.
 */

export const DELIVER_TASK = 'deliver_webhook';

/** The tail of an event insert: one delivery job per row of the `ins` CTE, keyed by the event. */
export function deliveryJobsFor(tx: Sql | TransactionSql, maxAttempts: number) {
  return tx`select graphile_worker.add_job(${DELIVER_TASK}, json_build_object('event_id', ins.id),
      max_attempts => ${maxAttempts}::int, job_key => 'evt:' || ins.id::text, job_key_mode => 'preserve_run_at')
    from ins`;
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
  opts: { table: AddressTable; family: 'evm' | 'utxo'; network: string; blockNumber: bigint; blockHash: string; maxAttempts: number },
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
    ${deliveryJobsFor(tx, opts.maxAttempts)}`;
  return rows.length;
}

/**
 * After a reorg removed every block above `ancestor`: events of orphaned transactions that were
 * not delivered yet are cancelled, none of them will ever be confirmed, and each one already
 * delivered gets a retraction: the same body with `"removed": true` first and `confirmed` false,
 * under a webhook-id of its own. Returns how many retractions were enqueued.
 */
export async function retractOrphanedEvents(tx: TransactionSql, network: string, ancestor: bigint, maxAttempts: number): Promise<number> {
  const rows = await tx`
    with orphaned as (
      update webhook_events set orphaned = true, confirmation_done = true,
        status = case when status = 'pending' then 'cancelled' else status end
      where network = ${network} and block_number > ${ancestor.toString()} and not removed and not orphaned
      returning kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, status, body
    ), ${retractionsOf(tx)}
    ${deliveryJobsFor(tx, maxAttempts)}`;
  return rows.length;
}

/**
 * The CTE `ins`: a retraction for each row of the CTE `orphaned` that was delivered — its body
 * with `"removed": true` first and `confirmed` false, under an id of its own.
 */
function retractionsOf(tx: Sql | TransactionSql) {
  return tx`ins as (
      insert into webhook_events (kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash,
          confirmed, removed, confirmation_done, orphaned, body)
      select kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, false, true, true, true,
        '{"removed":true,' || replace(substr(body, 2), '"confirmed":true', '"confirmed":false')
      from orphaned
      where status = 'delivered' and body is not null and tracked_id is not null
      on conflict do nothing
      returning id
    )`;
}

/**
 * Confirmed events for the unconfirmed ones at or below `upTo` (the highest block that now has
 * enough confirmations). Each unconfirmed event is confirmed once; an orphaned one never is.
 */
export async function enqueueConfirmations(tx: TransactionSql, network: string, upTo: bigint, maxAttempts: number): Promise<number> {
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
    ${deliveryJobsFor(tx, maxAttempts)}`;
  return rows.length;
}

export interface EventForDelivery {
  id: string;
  kind: string;
  network: string;
  address: string;
  tx_hash: string;
  block_hash: string;
  confirmed: boolean;
  orphaned: boolean;
  status: string;
  attempts: number;
  body: string | null;
  url: string | null;
  webhook_secret: string;
  key_revoked: boolean;
  /** indexer_cursors.chain_id of the event's network; null before its indexer first ran. */
  chain_id: string | null;
}

/**
 * The event, its webhook and, in the same statement, its network's chain id (null while the
 * network has no cursor): read fresh at every attempt, so a dev chain re-created under another
 * id is never signed with the old one, and it costs no round trip of its own.
 */
export async function loadEvent(sql: Sql, id: string): Promise<EventForDelivery | undefined> {
  const [row] = await sql<EventForDelivery[]>`
    select e.id, e.kind, e.network, e.address, e.tx_hash, e.block_hash, e.confirmed, e.orphaned, e.status, e.attempts, e.body,
      case e.kind when 'stream' then t.stream_webhook when 'liveaml' then t.aml_webhook when 'travelrule' then w.url end as url,
      k.webhook_secret, (k.revoked_at is not null) as key_revoked, c.chain_id
    from webhook_events e
    join api_keys k on k.id = e.api_key_id
    left join tracked_addresses t on t.id = e.tracked_id
    left join travelrule_webhooks w on w.api_key_id = e.api_key_id and e.kind = 'travelrule'
    left join indexer_cursors c on c.network = e.network
    where e.id = ${id}`;
  return row;
}

/** Freezes the body at the first attempt; a concurrent writer's body wins, so all retries agree. */
export async function freezeBody(sql: Sql, id: string, body: string): Promise<string> {
  const [row] = await sql<{ body: string }[]>`
    update webhook_events set body = coalesce(body, ${body}) where id = ${id} returning body`;
  return row!.body;
}

export interface AttemptRecord {
  url: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

/**
 * Records one attempt and moves the event's status; returns the attempt number. A reorg may have
 * orphaned the event while the attempt was in flight: then a failed attempt leaves it cancelled,
 * and one the receiver took is retracted at once, as the reorg would have done.
 * One statement (one round trip, atomic as the transaction it replaces): the update, the
 * attempt's row and, only when the orphaned event was delivered, its retraction and job.
 */
export async function recordAttempt(sql: Sql, id: string, attempt: AttemptRecord, outcome: 'delivered' | 'pending' | 'failed', maxAttempts: number): Promise<number> {
  const [row] = await sql<{ attempts: number; retractions: number }[]>`
    with ev as (
      update webhook_events set attempts = attempts + 1,
        status = case when orphaned and ${outcome} <> 'delivered' then 'cancelled' else ${outcome} end,
        delivered_at = case when ${outcome} = 'delivered' then now() else delivered_at end
      where id = ${id}
      returning id, attempts, orphaned, removed,
        kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, status, body
    ), attempt as (
      insert into webhook_deliveries (event_id, attempt, url, status_code, duration_ms, error)
      select id, attempts, ${attempt.url}, ${attempt.status_code}, ${attempt.duration_ms}, ${attempt.error} from ev
    ), orphaned as (
      select kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, status, body
      from ev where orphaned and not removed and ${outcome} = 'delivered'
    ), ${retractionsOf(sql)}, jobs as (
      ${deliveryJobsFor(sql, maxAttempts)}
    )
    select ev.attempts, (select count(*) from jobs)::int as retractions from ev`;
  return row!.attempts;
}

export async function setEventStatus(sql: Sql, id: string, status: 'cancelled' | 'failed'): Promise<void> {
  await sql`update webhook_events set status = ${status} where id = ${id}`;
}
