import type { Fragment, Sql, TransactionSql } from '../db/index.js';
import { JOBS } from '../db/jobs.js';
import { releaseEvents } from './holds.js';

/**
 * Endpoints (webhook_endpoints): a key's webhook URL and how it has fared. The record of
 * attempts keeps it (endpointOutcomes): the first attempt without a 2xx since the last 2xx starts
 * `failing_since`, a 2xx ends it, and an endpoint still failing `disableAfterS` after it started
 * is disabled: its events are held (holds.ts) until it is enabled again. Only POSTs made count
 * (not an event whose body could not be built), and never a test event.
 */

/** What the record of attempts does about endpoints that keep failing. */
export interface EndpointPolicy {
  /** An endpoint without a 2xx for this long is disabled; 0: never. */
  disableAfterS: number;
  /** Enqueue the operator notice (job webhook_endpoint_disabled) with each disablement. */
  notifyOperator: boolean;
}

/** An endpoint the record of attempts has just disabled. */
export interface DisabledEndpoint {
  id: string;
  api_key_id: string;
  url: string;
  failing_since: Date;
  disabled_at: Date;
}

/** The last attempt of an endpoint's row is refreshed at most this often while nothing changes. */
const REFRESH = '1 minute';
/** Errors kept on the endpoint are cut to this many characters. */
const MAX_ERROR_CHARS = 300;

/**
 * The CTEs `ep_new`, `ep_upd` and `ep_notices` of the record of attempts, from the CTE `ev` (the
 * events recorded: api_key_id, kind, url, outcome, status_code, error, posted). Per endpoint of
 * the batch: a row for one not seen before; its state changed when a 2xx ends a failing spell,
 * a failure starts one, or it has failed long enough to be disabled; otherwise its last attempt
 * is refreshed at most once a minute, so a busy healthy endpoint's row is not rewritten (nor
 * locked) by every batch. Rows are locked in id order: two workers' records never deadlock on
 * them.
 */
export function endpointOutcomes(tx: Sql | TransactionSql, policy: EndpointPolicy): Fragment {
  const after = policy.disableAfterS;
  const due = tx`(${after}::float8 > 0 and not ep.ok and d.disabled_at is null
    and d.failing_since <= now() - make_interval(secs => ${after}::float8))`;
  return tx`ep as (
      select api_key_id, url, bool_or(outcome = 'delivered') as ok,
        coalesce(max(status_code) filter (where outcome = 'delivered'), max(status_code)) as status_code,
        left(max(error), ${MAX_ERROR_CHARS}) as error
      from ev where posted and kind <> 'test' and url is not null and url <> ''
      group by api_key_id, url
    ), ep_new as (
      insert into webhook_endpoints (api_key_id, url, failing_since, last_attempt_at, last_status_code, last_error, last_success_at)
      select api_key_id, url, case when ok then null else now() end, now(), status_code,
        case when ok then null else error end, case when ok then now() end
      from ep order by api_key_id, url
      on conflict (api_key_id, url) do nothing
    ), ep_lock as materialized (
      select d.id, ep.ok, ep.status_code, ep.error, ${due} as disable
      from webhook_endpoints d join ep on ep.api_key_id = d.api_key_id and ep.url = d.url
      where (ep.ok and d.failing_since is not null) or (not ep.ok and d.failing_since is null)
        or d.last_attempt_at is null or d.last_attempt_at < now() - ${REFRESH}::interval
        or ${due}
      order by d.id
      for update of d
    ), ep_upd as (
      update webhook_endpoints d set
        failing_since = case when l.ok then null else coalesce(d.failing_since, now()) end,
        last_attempt_at = now(), last_status_code = l.status_code,
        last_error = case when l.ok then null else l.error end,
        last_success_at = case when l.ok then now() else d.last_success_at end,
        disabled_at = case when l.disable then now() else d.disabled_at end,
        disablements = d.disablements + case when l.disable then 1 else 0 end
      from ep_lock l where d.id = l.id
      returning d.id, d.api_key_id, d.url, d.failing_since, d.disabled_at, l.disable
    ), ep_notices as (
      select graphile_worker.add_job(${JOBS.webhook_endpoint_disabled.task},
        json_build_object('endpoint_id', id::text, 'notice_id', gen_random_uuid()::text),
        max_attempts => ${JOBS.webhook_endpoint_disabled.maxAttempts}::int)
      from ep_upd where disable and ${policy.notifyOperator}::boolean
    )`;
}

/** The endpoints disabled by the record (the CTE ep_upd), as a json array column. */
export function disabledNow(tx: Sql | TransactionSql): Fragment {
  return tx`(select coalesce(json_agg(json_build_object('id', id::text, 'api_key_id', api_key_id::text,
      'url', url, 'failing_since', failing_since, 'disabled_at', disabled_at)), '[]'::json)
    from ep_upd where disable) as disabled, (select count(*) from ep_notices)::int as notices`;
}

/** An endpoint of a key as the operations show it. */
export interface EndpointRow {
  url: string;
  state: 'active' | 'failing' | 'disabled';
  failing_since: Date | null;
  disabled_at: Date | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  last_success_at: Date | null;
  streams: number;
  liveaml: number;
  travelrule: boolean;
  /** Events of the key waiting for this endpoint (pending: due, backing off, or held). */
  pending_events: number;
}

/**
 * The key's endpoints: every URL its subscriptions name (stream and live AML webhooks) and its
 * travel rule webhook (its own, else `travelRuleDefault`), with what is known of each. A URL that
 * no subscription names any more is not listed (nothing goes there). `url`: that one only.
 */
export async function listEndpointStates(
  sql: Sql | TransactionSql,
  apiKeyId: string,
  travelRuleDefault: string | undefined,
  url?: string,
): Promise<EndpointRow[]> {
  const rows = await sql<(EndpointRow & { failing: boolean })[]>`
    with subs as (
      select stream_webhook as url, 'stream' as kind, id from tracked_addresses
      where api_key_id = ${apiKeyId}::bigint and stream_webhook is not null
      union all
      select aml_webhook, 'liveaml', id from tracked_addresses
      where api_key_id = ${apiKeyId}::bigint and aml_webhook is not null
      union all
      select u.url, 'travelrule', null from (
        select coalesce((select url from travelrule_webhooks where api_key_id = ${apiKeyId}::bigint), ${travelRuleDefault ?? null}::text) as url
      ) u where u.url is not null
    ), urls as (
      select url, count(*) filter (where kind = 'stream')::int as streams, count(*) filter (where kind = 'liveaml')::int as liveaml,
        bool_or(kind = 'travelrule') as travelrule,
        array_agg(id) filter (where id is not null) as ids, array_agg(kind) filter (where id is not null) as kinds
      from subs ${url === undefined ? sql`` : sql`where url = ${url}`} group by url
    )
    select u.url, u.streams, u.liveaml, u.travelrule,
      d.failing_since, d.disabled_at, d.last_attempt_at, d.last_status_code, d.last_error, d.last_success_at,
      (select count(*) from webhook_events e join unnest(u.ids, u.kinds) s(id, kind) on e.tracked_id = s.id and e.kind = s.kind
        where e.status = 'pending')::int
      + case when u.travelrule then (select count(*) from webhook_events e
          where e.travelrule_id is not null and e.kind = 'travelrule' and e.api_key_id = ${apiKeyId}::bigint and e.status = 'pending')::int
        else 0 end as pending_events
    from urls u left join webhook_endpoints d on d.api_key_id = ${apiKeyId}::bigint and d.url = u.url
    order by u.url`;
  return rows.map((r) => ({
    ...r,
    state: r.disabled_at ? 'disabled' : r.failing_since ? 'failing' : 'active',
  }));
}

/** The keys (not revoked) with a disabled endpoint, by id. */
export function keysWithDisabledEndpoints(
  sql: Sql | TransactionSql,
): Promise<{ id: string; name: string }[]> {
  return sql<{ id: string; name: string }[]>`
    select k.id::text as id, k.name from api_keys k
    where k.revoked_at is null
      and exists (select 1 from webhook_endpoints d where d.api_key_id = k.id and d.disabled_at is not null)
    order by k.id`;
}

/**
 * Enables an endpoint of the key again, in the caller's transaction: its failing spell is
 * forgotten (a failure now starts a new one), and every pending event it receives is due now, in
 * the order written, its backoff forgotten. The endpoint's row is changed (locked) first, so an
 * event being parked for it meanwhile is released too (holds.ts). Returns whether it was disabled
 * and how many events were made due; undefined when it had no row (never failed: nothing to do).
 */
export async function enableEndpointRow(
  tx: TransactionSql,
  apiKeyId: string,
  url: string,
  travelRule: boolean,
): Promise<{ id: string; wasDisabled: boolean; released: number } | undefined> {
  const [row] = await tx<{ id: string; was_disabled: boolean }[]>`
    with old as (
      select id, disabled_at from webhook_endpoints where api_key_id = ${apiKeyId}::bigint and url = ${url} for update
    )
    update webhook_endpoints d set disabled_at = null, failing_since = null,
      enabled_at = case when old.disabled_at is not null then now() else d.enabled_at end
    from old where d.id = old.id
    returning d.id::text, old.disabled_at is not null as was_disabled`;
  if (!row) return undefined;
  let released = 0;
  for (const [kind, column] of [
    ['stream', 'stream_webhook'],
    ['liveaml', 'aml_webhook'],
  ] as const)
    released += await releaseEvents(
      tx,
      tx`e.kind = ${kind} and e.tracked_id in (select id from tracked_addresses
        where api_key_id = ${apiKeyId}::bigint and ${tx(column)} = ${url})`,
      false,
    );
  // The key's travel rule events: all of them when this is their endpoint; else those parked
  // only (one parked while its webhook changed is released here at the latest).
  const travel = await releaseEvents(
    tx,
    tx`e.travelrule_id is not null and e.kind = 'travelrule' and e.api_key_id = ${apiKeyId}::bigint`,
    !travelRule,
  );
  return { id: row.id, wasDisabled: row.was_disabled, released: released + travel };
}
