import type { Fragment, Sql, TransactionSql } from '../db/index.js';

/**
 * Held events: pending events the outbox keeps and does not send, because their subscription is
 * paused (tracked_addresses.stream_paused_at / aml_paused_at) or their endpoint is disabled
 * (webhook_endpoints.disabled_at). Such an event is parked: due at 'infinity', the tail of the
 * due index, which the claim never reaches; it costs the claim nothing while it waits. It keeps
 * its attempts, its body and its place in its subscription's `sequence`.
 *
 * An event is parked when the claim meets it (parkHeld, with the hold checked again on locked
 * rows); whatever lifts a hold (resume, enable, a new URL, a removed subscription, a revoked key)
 * makes the parked events concerned due again (release*), oldest first. The claim parks again
 * what is still held for another reason. The order of locks makes the two safe together: parking
 * locks the subscription's and endpoint's rows (for share) before it parks, and a release
 * changes them (locks them) before it looks for parked events, so a release never misses an
 * event being parked.
 */

/** The receiver URL of an event (aliases: e the event, t its tracked row, w its key's travel rule webhook). */
export function receiverUrl(sql: Sql | TransactionSql): Fragment {
  return sql`case e.kind when 'stream' then t.stream_webhook when 'liveaml' then t.aml_webhook
    when 'travelrule' then w.url when 'test' then e.url end`;
}

/**
 * Whether an event is held (aliases as receiverUrl, k its key): its subscription paused, or its
 * endpoint among the `disabled` ones (a relation of (api_key_id, url); null: none to look at).
 * `fallbackUrls` are the receivers of kinds whose subscription names none (a configured
 * default). A test event is never held, nor one that is to be cancelled (its key revoked, its
 * receiver gone).
 */
export function heldBy(
  sql: Sql | TransactionSql,
  disabled: Fragment | null,
  fallbackUrls: Readonly<Record<string, string>>,
): Fragment {
  const url = sql`coalesce(${receiverUrl(sql)}, ${JSON.stringify(fallbackUrls)}::jsonb ->> e.kind)`;
  const endpoint = disabled
    ? sql`or exists (select 1 from ${disabled} d where d.api_key_id = e.api_key_id and d.url = ${url})`
    : sql``;
  return sql`(k.revoked_at is null and e.kind <> 'test' and ${url} is not null and (
    case e.kind when 'stream' then t.stream_paused_at is not null when 'liveaml' then t.aml_paused_at is not null else false end
    ${endpoint}))`;
}

/**
 * Parks the claimed events the claim found held, checking the hold again on the rows it locks
 * (the subscription, the key, the travel rule webhook and the disabled endpoints, for share): an
 * event no longer held is handed back, due now. Returns the ids parked.
 */
export async function parkHeld(
  sql: Sql,
  ids: readonly string[],
  fallbackUrls: Readonly<Record<string, string>>,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await sql<{ id: string; held: boolean }[]>`
    with ev as materialized (
      select e.id, e.kind, e.api_key_id, e.tracked_id, e.url from webhook_events e
      where e.id = any(${ids as string[]}::uuid[]) and e.status = 'pending'
      order by e.id for update
    ), kl as materialized (
      select id, revoked_at from api_keys where id = any(array(select api_key_id from ev)) order by id for share
    ), tl as materialized (
      select id, stream_webhook, aml_webhook, stream_paused_at, aml_paused_at from tracked_addresses
      where id = any(array(select tracked_id from ev where tracked_id is not null)) order by id for share
    ), wl as materialized (
      select api_key_id, url from travelrule_webhooks
      where api_key_id = any(array(select api_key_id from ev where kind = 'travelrule')) order by api_key_id for share
    ), dl as materialized (
      select api_key_id, url from webhook_endpoints
      where disabled_at is not null and api_key_id = any(array(select api_key_id from ev)) order by id for share
    ), decided as (
      select e.id, ${heldBy(sql, sql`dl`, fallbackUrls)} as held
      from ev e join kl k on k.id = e.api_key_id
      left join tl t on t.id = e.tracked_id
      left join wl w on w.api_key_id = e.api_key_id and e.kind = 'travelrule'
    )
    update webhook_events e set lease_until = null,
      next_attempt_at = case when d.held then 'infinity'::timestamptz else now() end
    from decided d where e.id = d.id
    returning e.id, d.held`;
  return rows.filter((r) => r.held).map((r) => r.id);
}

/**
 * Makes pending events due again, in the order they were written (created_at, then sequence):
 * each one a microsecond after the one before, so that the claim, which takes the oldest due
 * first, takes them in that order. `which` selects the events (alias e); only events not leased
 * (not in a worker's hands) are touched. `parkedOnly`: only parked ones (a resume); otherwise
 * every pending event selected, its backoff forgotten too (an endpoint enabled again). Returns
 * how many.
 */
export async function releaseEvents(
  tx: Sql | TransactionSql,
  which: Fragment,
  parkedOnly: boolean,
): Promise<number> {
  const rows = await tx`
    with r as (
      select e.id, row_number() over (order by e.created_at, e.sequence, e.id) as n
      from webhook_events e
      where ${which} and e.status = 'pending' and (e.lease_until is null or e.lease_until < now())
        ${parkedOnly ? tx`and e.next_attempt_at = 'infinity'` : tx``}
    )
    update webhook_events e set next_attempt_at = now() + r.n * interval '1 microsecond'
    from r where e.id = r.id
    returning e.id`;
  if (rows.length) await tx`select pg_notify('tollgate_outbox', '')`;
  return rows.length;
}

/** The parked events of one subscription row (both kinds), e.g. after its URL changed or it was removed. */
export function releaseSubscription(
  tx: Sql | TransactionSql,
  trackedId: string,
  kind?: 'stream' | 'liveaml',
): Promise<number> {
  return releaseEvents(
    tx,
    kind
      ? tx`e.tracked_id = ${trackedId}::bigint and e.kind = ${kind}`
      : tx`e.tracked_id = ${trackedId}::bigint`,
    true,
  );
}

/**
 * The events of one subscription row's kind still to send, cancelled now (the subscription was
 * deleted): not left for the dispatcher to find without a receiver, since a subscription created
 * again meanwhile would give them one. An event with an attempt in flight is left to it (its
 * outcome is recorded as it comes; only a failed one is tried again, by then cancelled when its
 * subscription is still gone).
 */
export async function cancelSubscriptionEvents(
  tx: TransactionSql,
  trackedId: string,
  kind: 'stream' | 'liveaml',
): Promise<number> {
  const { count } = await tx`
    update webhook_events e set status = 'cancelled'
    where e.tracked_id = ${trackedId}::bigint and e.kind = ${kind} and e.status = 'pending'
      and (e.lease_until is null or e.lease_until < now())`;
  return count;
}

/** The parked travel rule events of a key (its travel rule webhook changed). */
export function releaseTravelRuleEvents(tx: Sql | TransactionSql, apiKeyId: string) {
  return releaseEvents(
    tx,
    tx`e.travelrule_id is not null and e.kind = 'travelrule' and e.api_key_id = ${apiKeyId}::bigint`,
    true,
  );
}

/** Every parked event of a key (it was revoked: they are to be cancelled). */
export async function releaseKey(tx: Sql | TransactionSql, apiKeyId: string): Promise<number> {
  const subscriptions = await releaseEvents(
    tx,
    tx`e.tracked_id in (select id from tracked_addresses where api_key_id = ${apiKeyId}::bigint)`,
    true,
  );
  return subscriptions + (await releaseTravelRuleEvents(tx, apiKeyId));
}
