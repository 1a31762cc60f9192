import type { Sql, TransactionSql } from '../db/index.js';
import { retractionsOf } from './events.js';
import { heldBy, receiverUrl } from './holds.js';
import {
  disabledNow,
  endpointOutcomes,
  type DisabledEndpoint,
  type EndpointPolicy,
} from './endpoints.js';

/**
 * The delivery outbox's operations on webhook_events (written through enqueue.ts):
 * claim what is due, freeze bodies and mark them sent, record outcomes, defer. Each is one
 * statement for a whole batch. Invariants they keep together:
 * - An event is claimed only when no earlier event (lower sequence) of the same subscription
 *   and transaction is still pending: a transaction's unconfirmed delivery is settled before
 *   its confirmed one is sent, and both before their retraction.
 * - A claim is a lease: an event whose worker died is claimed again when the lease runs out.
 * - `in_doubt` counts the POSTs out whose outcome is not recorded: raised before a body leaves,
 *   lowered when the attempt is recorded, so a reorg knows when the receiver may have it.
 */

/*
 * Plans that hold however long the queue is. Postgres plans from statistics taken when the table
 * was last analysed; after a burst, or a receiver outage that let the queue grow, they still say
 * "few events pending", and the cheapest plan for any statement that names `status = 'pending'`
 * reads the whole queue through the partial indexes (a bitmap scan, a join against all of it).
 * Every batch then costs as much as the queue, just when the queue is longest (measured on 20,000
 * pending events: a claim of 200 checked 18,200 events, 88 ms; a record of 200 read 19,000).
 * So the statements that work on a batch of ids find them by primary key and only then look at
 * their status (`held` below: locked by id, filtered on the locked row), and the claim reads the
 * head of the due index in its order (`headOfQueue`).
 */

/**
 * Runs the claim with the planner held to index scans: the due index read in its order from the
 * head, never the whole queue gathered and sorted. One transaction of its own.
 */
async function headOfQueue<T>(sql: Sql, run: (tx: TransactionSql) => Promise<T>): Promise<T> {
  return (await sql.begin(async (tx) => {
    await tx`set local enable_seqscan = off; set local enable_bitmapscan = off`.simple();
    return run(tx);
  })) as T;
}

/** An event claimed for one attempt, with what sending it needs. */
export interface ClaimedEvent {
  id: string;
  kind: string;
  api_key_id: string;
  /** The chain columns: null for an event about no transaction (a travel rule notice). */
  network: string | null;
  address: string | null;
  tx_hash: string | null;
  block_hash: string | null;
  confirmed: boolean;
  removed: boolean;
  sequence: string | null;
  attempts: number;
  body: string | null;
  url: string | null;
  webhook_secret: string;
  /** The secret before the key's last rotation, while its overlap lasts: it signs too. */
  webhook_secret_previous: string | null;
  key_revoked: boolean;
  /**
   * Its subscription is paused or its endpoint disabled (as the claim saw it): not to be sent
   * but parked (holds.ts parkHeld, which checks again).
   */
  held: boolean;
  /** indexer_cursors.chain_id of the event's network; null before its indexer first ran. */
  chain_id: string | null;
  /** A past transaction sent because the stream was created with from_block. */
  replay: boolean;
}

/**
 * Leases up to `limit` due events for `leaseS` seconds, oldest due first. Orphaned pending
 * events (not retractions, which are orphaned by nature) whose lease ran out (their attempt was
 * cut off by a crash) are cancelled here instead: no attempt is ever started for a transaction a
 * reorg removed.
 * The claim looks only at the head of the due queue (`lookAhead` events not leased), so it costs
 * the same however long the queue is; the head holds at most as many events that wait for one in
 * flight as there are events in flight, so a look-ahead of the limit plus the events in flight
 * always reaches the claimable ones. Leased events keep their place in the due index (the claim
 * changes no indexed column, so it is a HOT update) and are stepped over, not checked; an event
 * that waits for an earlier one of its subscription and transaction that is not in flight is moved
 * back to when that one is due, and recordAttempts brings it forward again as soon as the earlier
 * one is settled. An event whose worker died is claimable again when its lease ends.
 */
export async function claimDueDeliveries(
  sql: Sql,
  limit: number,
  leaseS: number,
  lookAhead = 2 * limit,
  /** Receivers of kinds whose subscription names none (EventKind.fallbackUrl), for the hold check. */
  fallbackUrls: Readonly<Record<string, string>> = {},
): Promise<ClaimedEvent[]> {
  return headOfQueue(
    sql,
    (tx) => tx<ClaimedEvent[]>`
    with candidates as materialized (
      select e.id, e.next_attempt_at, w.waits, w.in_flight, w.until
      from webhook_events e
      cross join lateral (
        select count(*) > 0 as waits, count(*) filter (where p.lease_until > now()) > 0 as in_flight, max(p.next_attempt_at) as until
        from webhook_events p
        where p.status = 'pending' and p.tracked_id = e.tracked_id and p.kind = e.kind and p.tx_hash = e.tx_hash and p.sequence < e.sequence
      ) w
      where e.status = 'pending' and (e.lease_until is null or e.lease_until < now())
      order by e.next_attempt_at
      limit ${Math.max(limit, lookAhead)}
    ), held as materialized (
      -- Locked by id, then checked: a row locked here is its latest version.
      select e.id, e.status, e.next_attempt_at, e.lease_until from webhook_events e
      where e.id = any(array(select id from candidates where not waits and next_attempt_at <= now()))
      order by e.next_attempt_at
      limit ${limit}
      for update skip locked
    ), due as (
      select id from held where status = 'pending' and next_attempt_at <= now() and (lease_until is null or lease_until < now())
    ), moved as (
      update webhook_events e set next_attempt_at = c.until
      from candidates c
      where c.id = e.id and e.id = any(array(
        select l.id from (
          select l.id, l.status from webhook_events l
          where l.id = any(array(select id from candidates where waits and not in_flight and until > next_attempt_at))
          for update skip locked) l
        where l.status = 'pending'))
    ), claimed as (
      update webhook_events e
      set lease_until = case when e.orphaned and not e.removed then null else now() + make_interval(secs => ${leaseS}) end,
        status = case when e.orphaned and not e.removed then 'cancelled' else e.status end
      where e.id = any(array(select id from due))
      returning e.*
    )
    select e.id, e.kind, e.api_key_id::text, e.network, e.address, e.tx_hash, e.block_hash, e.confirmed, e.removed, e.sequence::text,
      e.attempts, e.body, e.replay, ${receiverUrl(tx)} as url,
      k.webhook_secret, case when k.webhook_secret_previous_until > now() then k.webhook_secret_previous end as webhook_secret_previous,
      (k.revoked_at is not null) as key_revoked, c.chain_id,
      -- The endpoints are looked at only while one is disabled (an InitPlan, once per claim).
      case when (select exists (select 1 from webhook_endpoints where disabled_at is not null))
        then ${heldBy(tx, tx`(select api_key_id, url from webhook_endpoints where disabled_at is not null)`, fallbackUrls)}
        else ${heldBy(tx, null, fallbackUrls)} end as held
    from claimed e
    join api_keys k on k.id = e.api_key_id
    left join tracked_addresses t on t.id = e.tracked_id
    left join travelrule_webhooks w on w.api_key_id = e.api_key_id and e.kind = 'travelrule'
    left join indexer_cursors c on c.network = e.network
    where e.status = 'pending'
    -- The batch in the order it came due (a resume's events in the order written): sent so.
    order by e.next_attempt_at, e.sequence`,
  );
}

/**
 * Freezes each body (the first one written wins, so every attempt sends the same bytes) and
 * marks the events sent, just before their POSTs. A null body (a travel rule event's, rebuilt at
 * each attempt) stays null. Returns the frozen bodies by event id: an event a reorg orphaned
 * since its claim is not among them, and must not be sent (its retraction would never be
 * written if the worker died after the POST). The row lock orders this with the reorg's update:
 * a reorg after it sees the event sent and retracts it.
 */
export async function freezeAndMarkSent(
  sql: Sql,
  items: readonly { id: string; body: string | null }[],
): Promise<Map<string, string | null>> {
  if (items.length === 0) return new Map();
  const rows = await sql<{ id: string; body: string | null }[]>`
    update webhook_events e set body = coalesce(e.body, f.body), sent_at = now(), in_doubt = e.in_doubt + 1
    from unnest(${items.map((i) => i.id)}::uuid[], ${items.map((i) => i.body)}::text[]) as f(id, body)
    where e.id = f.id and not (e.orphaned and not e.removed)
    returning e.id, e.body`;
  return new Map(rows.map((r) => [r.id, r.body]));
}

/** How an attempt ended, as the dispatcher saw it. */
export type AttemptOutcome =
  /** 2xx */
  | 'delivered'
  /** failed in a way a retry can help: pending again, unless the attempts are used up */
  | 'retry'
  /** refused by the receiver (4xx, a redirect): not retried */
  | 'refused'
  /** nothing to send any more (subscription or key gone, transaction reorged): no attempt made */
  | 'cancelled';

export interface AttemptResult {
  id: string;
  outcome: AttemptOutcome;
  url: string | null;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  /** Backoff before the next attempt, for 'retry'. */
  retry_in_s: number;
  /** No 2xx, yet the receiver may have the body (sent whole, never answered): it stays in doubt. */
  in_doubt?: boolean;
  /** The first bytes of the receiver's answer (post.ts), for the delivery log; null: none kept. */
  response?: string | null;
  /** A POST was made (not an event whose body could not be built): it counts for its endpoint. */
  posted?: boolean;
  /** When the attempt began (ms since the epoch): its time in the delivery log; else the record's. */
  started_at?: number;
}

export interface RecordedAttempt {
  id: string;
  attempts: number;
  status: 'pending' | 'delivered' | 'failed' | 'cancelled';
  /** The attempts were used up (or the receiver refused): this event was given up now. */
  gave_up: boolean;
  max_attempts: number;
  /** Retractions written because the event had been orphaned while its attempt was in flight. */
  retractions: number;
}

/**
 * Records a batch of attempts: each event's status, attempt count and next due time, a
 * webhook_deliveries row per attempt made, and the lease released. An orphaned event (a reorg
 * while its attempt was in flight) is never tried again; if the receiver took it, it is
 * retracted at once, as the reorg would have done. `maxAttempts` applies to events that carry no
 * allowance of their own. Endpoints' states follow the POSTs made (endpoints.ts): those the
 * batch disabled are returned.
 */
export async function recordAttemptBatch(
  sql: Sql,
  results: readonly AttemptResult[],
  maxAttempts: number,
  policy: EndpointPolicy = { disableAfterS: 0, notifyOperator: false },
): Promise<{ recorded: RecordedAttempt[]; disabled: DisabledEndpoint[] }> {
  if (results.length === 0) return { recorded: [], disabled: [] };
  const col = <K extends keyof AttemptResult>(k: K) =>
    results.map((r) => (r[k] === null || r[k] === undefined ? null : String(r[k])));
  const rows = await sql<(RecordedAttempt & { disabled: DisabledEndpoint[]; notices: number })[]>`
    with o as (
      select * from unnest(${col('id')}::uuid[], ${col('outcome')}::text[], ${col('url')}::text[], ${col('status_code')}::int[],
        ${col('duration_ms')}::int[], ${col('error')}::text[], ${col('retry_in_s')}::float8[], ${col('in_doubt')}::text[],
        ${col('response')}::text[], ${col('posted')}::text[], ${col('started_at')}::float8[])
        as o(id, outcome, url, status_code, duration_ms, error, retry_in_s, in_doubt, response, posted, started_at)
    ), held as materialized (
      select o.*, e.status from o join webhook_events e on e.id = o.id for update of e
    ), ev as (
      update webhook_events e set
        attempts = e.attempts + case when o.outcome = 'cancelled' then 0 else 1 end,
        status = case
          when o.outcome = 'delivered' then 'delivered'
          when o.outcome = 'cancelled' or (e.orphaned and not e.removed) then 'cancelled'
          when o.outcome = 'retry' and e.attempts + 1 < coalesce(e.max_attempts, ${maxAttempts}) then 'pending'
          else 'failed' end,
        delivered_at = case when o.outcome = 'delivered' then now() else e.delivered_at end,
        next_attempt_at = case when o.outcome = 'retry' then now() + make_interval(secs => o.retry_in_s) else e.next_attempt_at end,
        gave_up_at = case when o.outcome in ('retry', 'refused') and not (e.orphaned and not e.removed) and e.kind <> 'test'
            and (o.outcome = 'refused' or e.attempts + 1 >= coalesce(e.max_attempts, ${maxAttempts})) then now() else e.gave_up_at end,
        lease_until = null,
        in_doubt = case when o.outcome = 'cancelled' or o.in_doubt = 'true' then e.in_doubt else greatest(e.in_doubt - 1, 0) end
      from held o where e.id = o.id and o.status = 'pending'
      returning e.id, e.attempts, e.status, e.gave_up_at, e.orphaned, e.removed, e.sequence, coalesce(e.max_attempts, ${maxAttempts}) as max_attempts,
        e.kind, e.api_key_id, e.tracked_id, e.network, e.address, e.tx_hash, e.block_number, e.block_hash, e.body, e.in_doubt, e.incarnation,
        o.outcome, o.url, o.status_code, o.duration_ms, o.error, o.response, coalesce(o.posted = 'true', false) as posted, o.started_at
    ), woken as (
      -- Events that waited for one settled now are due again (at once, if they were moved back).
      update webhook_events s set next_attempt_at = now()
      from ev
      where ev.status <> 'pending' and ev.tracked_id is not null and s.status = 'pending' and s.tracked_id = ev.tracked_id
        and s.kind = ev.kind and s.tx_hash = ev.tx_hash and s.sequence > ev.sequence and s.next_attempt_at > now()
        and s.id <> all(${col('id')}::uuid[])
    ), attempt as (
      insert into webhook_deliveries (event_id, attempt, url, status_code, duration_ms, error, api_key_id, response, created_at)
      select id, attempts, url, status_code, duration_ms, error, api_key_id, response,
        coalesce(to_timestamp(started_at / 1000), now()) from ev where outcome <> 'cancelled'
    ), ${endpointOutcomes(sql, policy)}, orphaned as (
      select kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, status, body, in_doubt, incarnation, sequence
      from ev where orphaned and not removed and (outcome = 'delivered' or in_doubt > 0)
    ), ${retractionsOf(sql)}
    select id, attempts, status, (gave_up_at is not null and status = 'failed') as gave_up, max_attempts,
      (select count(*) from ins)::int as retractions, ${disabledNow(sql)}
    from ev`;
  const disabled = (rows[0]?.disabled ?? []).map((d) => ({
    ...d,
    failing_since: new Date(d.failing_since),
    disabled_at: new Date(d.disabled_at),
  }));
  return {
    recorded: rows.map(({ disabled: _d, notices: _n, ...r }) => r as RecordedAttempt),
    disabled,
  };
}

/** recordAttemptBatch without disabling endpoints, returning the events recorded. */
export async function recordAttempts(
  sql: Sql,
  results: readonly AttemptResult[],
  maxAttempts: number,
): Promise<RecordedAttempt[]> {
  return (await recordAttemptBatch(sql, results, maxAttempts)).recorded;
}

/**
 * Hands events back unattempted, due again after `inS` seconds: their receiver already has as
 * many deliveries in hand as this worker gives one receiver (or stalled), so they must not take
 * the place of other receivers' deliveries meanwhile. `handedOut`: its body was handed out
 * (freezeAndMarkSent) but never POSTed, so it is no longer in doubt on that account.
 */
export async function deferDeliveries(
  sql: Sql,
  items: readonly { id: string; handedOut: boolean }[],
  inS: number,
): Promise<void> {
  if (items.length === 0) return;
  const ids = items.map((i) => i.id);
  await sql`
    with held as materialized (
      select e.id, e.status from webhook_events e where e.id = any(${ids}::uuid[]) for update
    )
    update webhook_events e set lease_until = null, next_attempt_at = now() + make_interval(secs => ${inS}),
      in_doubt = case when e.id = any(${items.filter((i) => i.handedOut).map((i) => i.id)}::uuid[]) then greatest(e.in_doubt - 1, 0) else e.in_doubt end
    from held h where e.id = h.id and h.status = 'pending'`;
}

/**
 * Puts a given-up event back to pending, due now, with a new allowance of attempts on top of
 * those made. The webhook-id (the event's id) and the body (frozen on the event) stay the same,
 * so a receiver that deduplicates sees one message. False when there is no such failed event.
 */
export async function redeliverEvent(
  sql: Sql,
  eventId: string,
  maxAttempts: number,
): Promise<boolean> {
  const rows = await sql`
    update webhook_events set status = 'pending', next_attempt_at = now(), lease_until = null, gave_up_at = null,
      max_attempts = attempts + ${maxAttempts}
    where id = ${eventId} and status = 'failed'
    returning id`;
  if (rows.length) await sql`select pg_notify('tollgate_outbox', '')`;
  return rows.length > 0;
}
