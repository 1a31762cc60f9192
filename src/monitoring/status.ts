import type { Sql, TransactionSql } from '../db/index.js';
import { JOB_NAMES, JOBS } from '../db/jobs.js';
import { redeliverEvent } from '../webhooks/outbox.js';
import { UUID_RE } from '../ids.js';

/**
 * What operators watch and fix besides the indexers (src/indexer/status.ts): graphile-worker's
 * job queues (through its public `graphile_worker.jobs` view and admin functions only), webhook
 * delivery failures and give-ups, and counts of what the appliance serves. Read by the
 * dashboard's operations pages and by /metrics.
 */

export interface QueueCounts {
  task: string;
  queued: number;
  running: number;
  failed: number;
}

/**
 * Jobs per task: queued (waiting to run, including those backing off before a retry), running
 * (locked by a worker) and failed (out of attempts, kept by graphile-worker until retried or
 * deleted). A job running its last attempt counts as running, not failed. Completed jobs are
 * deleted by graphile-worker, so the table stays small and this count is cheap.
 */
export async function jobQueueCounts(sql: Sql | TransactionSql): Promise<QueueCounts[]> {
  const rows = await sql<{ task: string; queued: string; running: string; failed: string }[]>`
    select task_identifier as task,
      count(*) filter (where locked_at is null and attempts < max_attempts) as queued,
      count(*) filter (where locked_at is not null) as running,
      count(*) filter (where locked_at is null and attempts >= max_attempts) as failed
    from graphile_worker.jobs
    group by task_identifier`;
  const byTask = new Map(
    rows.map((r) => [
      r.task,
      {
        task: r.task,
        queued: Number(r.queued),
        running: Number(r.running),
        failed: Number(r.failed),
      },
    ]),
  );
  for (const task of JOB_NAMES)
    if (!byTask.has(task)) byTask.set(task, { task, queued: 0, running: 0, failed: 0 });
  return [...byTask.values()].sort((a, b) => a.task.localeCompare(b.task));
}

export interface FailedJob {
  id: string;
  task: string;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  created_at: Date;
  run_at: Date;
}

/** Errors shown to operators are cut to this many characters. */
const MAX_ERROR_CHARS = 300;

/** Jobs out of attempts (not locked), newest first. */
export async function failedJobs(sql: Sql, limit = 50): Promise<FailedJob[]> {
  return sql<FailedJob[]>`
    select id::text as id, task_identifier as task, attempts, max_attempts, left(last_error, ${MAX_ERROR_CHARS}) as last_error, created_at, run_at
    from graphile_worker.jobs
    where attempts >= max_attempts and locked_at is null
    order by created_at desc, id desc
    limit ${limit}`;
}

/** A job id as graphile-worker stores it (bigint); anything else matches no job. */
function jobId(id: string): string | undefined {
  return /^\d{1,19}$/.test(id) ? id : undefined;
}

/**
 * Runs a failed job again now, with its attempts reset. The row it works on goes back to
 * pending when it had failed (a webhook event, a travel rule message): otherwise the job would
 * find it settled and do nothing. False when there is no such failed job.
 */
export async function retryJob(sql: Sql, id: string): Promise<boolean> {
  const jid = jobId(id);
  if (!jid) return false;
  return sql.begin(async (tx) => {
    const [failed] = await tx<{ task: string }[]>`
      select task_identifier as task from graphile_worker.jobs
      where id = ${jid}::bigint and attempts >= max_attempts and locked_at is null`;
    if (!failed) return false;
    const [job] = await tx<{ payload: Record<string, unknown> | null }[]>`
      select payload from graphile_worker.reschedule_jobs(array[${jid}::bigint], run_at => now(), attempts => 0)`;
    if (!job) return false;
    const messageId = job.payload?.message_id;
    if (
      failed.task === JOBS.travelrule_send.task &&
      (typeof messageId === 'string' || typeof messageId === 'number')
    ) {
      await tx`update travelrule_messages set status = 'pending' where id = ${String(messageId)}::bigint and status = 'failed'`;
    }
    // reschedule_jobs does not wake idle workers (they poll every few seconds): say there is work.
    await tx`select pg_notify('jobs:insert', '{"r":0,"count":1}')`;
    return true;
  }) as Promise<boolean>;
}

/** Deletes a failed job (graphile_worker.complete_jobs). False when there is no such failed job. */
export async function deleteJob(sql: Sql, id: string): Promise<boolean> {
  const jid = jobId(id);
  if (!jid) return false;
  const rows = await sql`
    select id from graphile_worker.complete_jobs(
      (select array_agg(id) from graphile_worker.jobs
        where id = ${jid}::bigint and attempts >= max_attempts and locked_at is null))`;
  return rows.length > 0;
}

export interface DeliveryFailure {
  event_id: string;
  kind: string;
  url: string;
  status_code: number | null;
  error: string | null;
  attempts: number;
  event_status: string;
  at: Date;
}

/**
 * The latest failed delivery attempts (no 2xx), newest first, with their event's status. The
 * URL is shown without userinfo or query string: either may carry a receiver's credential.
 */
export async function recentDeliveryFailures(sql: Sql, limit = 50): Promise<DeliveryFailure[]> {
  const rows = await sql<DeliveryFailure[]>`
    select d.event_id, e.kind, d.url, d.status_code, left(d.error, ${MAX_ERROR_CHARS}) as error, e.attempts, e.status as event_status, d.created_at as at
    from webhook_deliveries d
    join webhook_events e on e.id = d.event_id
    where d.status_code is null or d.status_code not between 200 and 299
    order by d.id desc
    limit ${limit}`;
  return rows.map((r) => ({ ...r, url: displayUrl(r.url) }));
}

/** scheme://host[:port]/path: without userinfo, query string and fragment. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return url.replace(/[?#].*$/, '').replace(/\/\/[^/@]*@/, '//');
  }
}

/**
 * Puts a given-up webhook event back to pending, due now, with a new allowance of attempts. The
 * webhook-id (the event's id) and the body (frozen on the event) stay the same, so a receiver
 * that deduplicates sees one message.
 */
export async function redeliver(sql: Sql, eventId: string, maxAttempts: number): Promise<boolean> {
  if (!UUID_RE.test(eventId)) return false;
  return redeliverEvent(sql, eventId, maxAttempts);
}

export interface GivenUpDelivery {
  event_id: string;
  kind: string;
  url: string | null;
  attempts: number;
  last_error: string | null;
  gave_up_at: Date;
}

/** Webhook events given up (retries exhausted or refused by the receiver), newest first. */
export async function givenUpDeliveries(sql: Sql, limit = 50): Promise<GivenUpDelivery[]> {
  const rows = await sql<GivenUpDelivery[]>`
    select e.id as event_id, e.kind, d.url, e.attempts, left(d.error, ${MAX_ERROR_CHARS}) as last_error, e.gave_up_at
    from webhook_events e
    left join lateral (select url, error from webhook_deliveries where event_id = e.id order by id desc limit 1) d on true
    where e.gave_up_at is not null and e.status = 'failed'
    order by e.gave_up_at desc
    limit ${limit}`;
  return rows.map((r) => ({ ...r, url: r.url === null ? null : displayUrl(r.url) }));
}

export interface FailedTravelRuleMessage {
  message_id: string;
  transaction_id: string;
  transaction_ref: string;
  kind: string;
  counterparty: string | null;
  /** The other side's HTTP status at the last attempt, if it answered. */
  last_status: number | null;
  last_error: string | null;
  attempts: number;
  at: Date;
}

/**
 * Messages to other VASPs that failed for good (refused with a 4xx, or every attempt used up),
 * newest first: the operators see a counterparty that does not take our messages.
 */
export async function failedTravelRuleMessages(
  sql: Sql,
  limit = 50,
): Promise<FailedTravelRuleMessage[]> {
  return sql<FailedTravelRuleMessage[]>`
    select m.id::text as message_id, t.id as transaction_id, t.transaction_ref, m.kind, v.name as counterparty,
      m.last_status, left(m.last_error, ${MAX_ERROR_CHARS}) as last_error, m.attempts, m.created_at as at
    from travelrule_messages m
    join travelrule_transactions t on t.id = m.transaction_id
    left join vasps v on v.uid = t.counterparty_vasp_id
    where m.status = 'failed'
    order by m.id desc
    limit ${limit}`;
}

export interface LateSentDeposit {
  transaction_id: string;
  transaction_ref: string;
  status: string;
  counterparty: string | null;
  tx_hash: string;
  at: Date;
}

/**
 * Deposits whose originator VASP gave a transaction hash after the transfer had ended here (we
 * rejected or cancelled it, or it cancelled it), newest first: funds may have arrived for a
 * transfer that was not to happen, for the compliance team to follow up (src/travelrule/deposit.ts).
 * The trigger is in the statement's text, not a parameter, so that a generic plan still matches
 * the partial index travelrule_history_late_tx_hash (sql/0061).
 */
export async function depositsSentAfterEnd(sql: Sql, limit = 50): Promise<LateSentDeposit[]> {
  return sql<LateSentDeposit[]>`
    select t.id as transaction_id, t.transaction_ref, t.status, v.name as counterparty, t.tx_hash, h.at
    from travelrule_history h
    join travelrule_transactions t on t.id = h.transaction_id
    left join vasps v on v.uid = t.counterparty_vasp_id
    where h.trigger = 'counterparty_tx_hash_late' -- LATE_WORD.txHash, written out: the partial index
    order by h.id desc
    limit ${limit}`;
}

export interface AppCounts {
  streams: number;
  liveaml: number;
  labels: { source: string; count: number; last_import_at: Date | null }[];
}

/** Streams and live AML trackings, and labels per source with their last successful import. */
export async function appCounts(sql: Sql): Promise<AppCounts> {
  const [[tracked], labels] = await Promise.all([
    sql<{ streams: string; liveaml: string }[]>`
      select count(*) filter (where stream_webhook is not null) as streams, count(*) filter (where aml_webhook is not null) as liveaml
      from tracked_addresses`,
    sql<{ source: string; count: string; last_import_at: Date | null }[]>`
      select coalesce(l.source, i.source) as source, coalesce(l.count, 0) as count, i.last_import_at
      from (select source, count(*) as count from labels group by source) l
      full join (select source, max(finished_at) as last_import_at from label_imports where status = 'succeeded' group by source) i
        on i.source = l.source
      order by 1`,
  ]);
  return {
    streams: Number(tracked!.streams),
    liveaml: Number(tracked!.liveaml),
    labels: labels.map((r) => ({
      source: r.source,
      count: Number(r.count),
      last_import_at: r.last_import_at,
    })),
  };
}
