import { whereAll, type Sql, type TransactionSql } from '../db/index.js';
import { eventInsert } from './enqueue.js';
import { releaseEvents } from './holds.js';

/**
 * The outbox's side of the webhook operations (src/deliveries/ is their face, audited): the
 * delivery log, requeuing given-up or delivered events, test events, and endpoints' states. All
 * scoped to one API key by the caller.
 */

/** One attempt of the delivery log. */
export interface AttemptRow {
  event_id: string;
  kind: string;
  address: string | null;
  network: string | null;
  tx_hash: string | null;
  sequence: string | null;
  event_status: string;
  attempt: number;
  attempted_at: Date;
  url: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response: string | null;
}

export interface AttemptFilter {
  apiKeyId: string;
  /** Stored form (normalised). */
  address?: string;
  /** webhook_events.kind: stream, liveaml, travelrule, test. */
  kind?: string;
  eventId?: string;
  /** Attempts answered with a 2xx (true) or not (false). */
  succeeded?: boolean;
  since?: Date;
  page: number;
  limit: number;
}

/**
 * A page of a key's delivery attempts, newest first, with the total for page_count. Read
 * through webhook_deliveries_key (the key's attempts in time order); attempts recorded before
 * sql/0035 carry no key and are not listed. The total counts the key's index entries (the
 * events too only when filtered on their address or kind): `since` keeps it short.
 */
export async function listAttempts(
  sql: Sql,
  f: AttemptFilter,
): Promise<{ rows: AttemptRow[]; total: number }> {
  // The attempt's own columns; the event's only when filtered on (a count then reads them too).
  const own = [
    sql`d.api_key_id = ${f.apiKeyId}::bigint`,
    f.since ? sql`d.created_at >= ${f.since}` : null,
    f.eventId ? sql`d.event_id = ${f.eventId}::uuid` : null,
    f.succeeded === true ? sql`d.status_code between 200 and 299` : null,
    f.succeeded === false
      ? sql`(d.status_code is null or d.status_code not between 200 and 299)`
      : null,
  ];
  const ofEvent = [
    f.address !== undefined ? sql`e.address = ${f.address}` : null,
    f.kind ? sql`e.kind = ${f.kind}` : null,
  ];
  const where = whereAll(sql, [...own, ...ofEvent]);
  const counted = ofEvent.some((c) => c !== null)
    ? sql`from webhook_deliveries d join webhook_events e on e.id = d.event_id ${where}`
    : sql`from webhook_deliveries d ${whereAll(sql, own)}`;
  const [rows, [count]] = await Promise.all([
    sql<AttemptRow[]>`
      select d.event_id, e.kind, e.address, e.network, e.tx_hash, e.sequence::text, e.status as event_status,
        d.attempt, d.created_at as attempted_at, d.url, d.status_code, d.duration_ms, d.error, d.response
      from webhook_deliveries d join webhook_events e on e.id = d.event_id
      ${where}
      order by d.created_at desc, d.id desc
      limit ${f.limit} offset ${(f.page - 1) * f.limit}`,
    sql<{ total: number }[]>`select count(*)::int as total ${counted}`,
  ]);
  return { rows, total: count!.total };
}

/** Why an event of the key could not be requeued, or that it was. */
export type RequeueOutcome = 'requeued' | 'not_found' | 'pending' | 'cancelled';

/**
 * Puts one event of the key back to pending, due now, with a new allowance of `maxAttempts`
 * attempts on top of those made: a failed one (given up) or a delivered one (sent again). Same
 * webhook-id, same body (the one frozen at its first attempt), same sequence. A pending event is
 * left as it is; a cancelled one (its subscription removed), one whose transaction was
 * reorganised away (failed or delivered before; a delivered one was retracted) and a test event
 * cannot be sent again.
 */
export async function requeueEvent(
  sql: Sql,
  apiKeyId: string,
  eventId: string,
  maxAttempts: number,
): Promise<RequeueOutcome> {
  const [row] = await sql<{ status: string; requeued: boolean }[]>`
    with old as (
      select id, status, orphaned and not removed as reorganised_away from webhook_events
      where id = ${eventId}::uuid and api_key_id = ${apiKeyId}::bigint and kind <> 'test'
      for update
    ), up as (
      update webhook_events e set status = 'pending', next_attempt_at = now(), lease_until = null, gave_up_at = null,
        max_attempts = e.attempts + ${maxAttempts}
      from old where e.id = old.id and old.status in ('failed', 'delivered') and not old.reorganised_away
      returning e.id
    )
    select old.status, exists (select 1 from up) as requeued from old`;
  if (!row) return 'not_found';
  if (row.requeued) {
    await sql`select pg_notify('tollgate_outbox', '')`;
    return 'requeued';
  }
  return row.status === 'pending' ? 'pending' : 'cancelled';
}

/**
 * Requeues the key's events given up at or after `since` (optionally of one address and kind),
 * as requeueEvent does, at most `cap` of them (the earliest given up first): `more` says some are
 * left (call again: those requeued are pending now). They are due again in the order they were
 * written.
 */
export async function requeueFailedSince(
  sql: Sql,
  f: { apiKeyId: string; since: Date; address?: string; kind?: string },
  maxAttempts: number,
  cap: number,
): Promise<{ requeued: number; more: boolean }> {
  return (await sql.begin(async (tx) => {
    const picked = await tx<{ id: string }[]>`
      select id from webhook_events
      ${whereAll(tx, [
        tx`gave_up_at >= ${f.since}`,
        tx`status = 'failed'`,
        // Its transaction reorganised away: nothing to send (the dispatcher would cancel it).
        tx`not (orphaned and not removed)`,
        tx`api_key_id = ${f.apiKeyId}::bigint`,
        tx`kind <> 'test'`,
        f.address !== undefined ? tx`address = ${f.address}` : null,
        f.kind ? tx`kind = ${f.kind}` : null,
      ])}
      order by gave_up_at, id
      limit ${cap + 1}
      for update skip locked`;
    const ids = picked.slice(0, cap).map((r) => r.id);
    if (ids.length === 0) return { requeued: 0, more: false };
    await tx`
      update webhook_events set status = 'pending', lease_until = null, gave_up_at = null,
        max_attempts = attempts + ${maxAttempts}
      where id = any(${ids}::uuid[]) and status = 'failed'`;
    const requeued = await releaseEvents(tx, tx`e.id = any(${ids}::uuid[])`, false);
    return { requeued, more: picked.length > cap };
  })) as { requeued: number; more: boolean };
}

/**
 * Writes a test event of the key: sent once (no retries) to `url`, signed like every webhook,
 * listed in the delivery log; never held, never counted as an endpoint's failure. Returns its id.
 */
export async function enqueueTestEvent(
  sql: Sql | TransactionSql,
  e: { apiKeyId: string; url: string; address: string | null; body: string },
): Promise<string> {
  const [row] = await sql<{ id: string }[]>`
    with ${eventInsert(
      sql,
      [
        'kind',
        'api_key_id',
        'address',
        'url',
        'body',
        'confirmed',
        'confirmation_done',
        'max_attempts',
      ],
      sql`values ('test', ${e.apiKeyId}::bigint, ${e.address}::text, ${e.url}::text, ${e.body}::text, true, true, 1)`,
    )}
    select id from ins`;
  return row!.id;
}
