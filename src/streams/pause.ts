import type { Sql } from '../db/index.js';
import { releaseSubscription } from '../webhooks/holds.js';

/**
 * Pausing a subscription (a key's stream or live AML tracking of an address): while paused, its
 * events are written to the outbox as usual and held there, not sent (src/webhooks/holds.ts);
 * resuming makes them due again in the order they were written, and the ordering rules of the
 * outbox apply to them as to any (README, "What you can rely on").
 */

const COLUMNS = {
  stream: { webhook: 'stream_webhook', paused: 'stream_paused_at', kind: 'stream' },
  aml: { webhook: 'aml_webhook', paused: 'aml_paused_at', kind: 'liveaml' },
} as const;

export interface PauseResult {
  /** The key has that subscription. */
  found: boolean;
  /** Its tracked_addresses row. */
  trackedId: string | null;
  /** It was paused before this call. */
  wasPaused: boolean;
  /** Held events made due again (a resume). */
  released: number;
}

/**
 * Pauses or resumes one subscription of a key's address (another key's are never touched).
 * Pausing again keeps the first pause's time; resuming one not paused changes nothing. The
 * subscription's row is changed (locked) before its parked events are looked for, so none being
 * parked meanwhile is missed.
 */
export async function setSubscriptionPaused(
  sql: Sql,
  apiKeyId: string,
  address: string,
  which: 'stream' | 'aml',
  paused: boolean,
): Promise<PauseResult> {
  const c = COLUMNS[which];
  return (await sql.begin(async (tx) => {
    const [row] = await tx<{ id: string; was_paused: boolean }[]>`
      with old as (
        select id, ${tx(c.paused)} as paused_at from tracked_addresses
        where api_key_id = ${apiKeyId}::bigint and address = ${address} and ${tx(c.webhook)} is not null
        for update
      )
      update tracked_addresses t set ${tx(c.paused)} = ${paused ? tx`coalesce(old.paused_at, now())` : null}
      from old where t.id = old.id
      returning t.id::text, old.paused_at is not null as was_paused`;
    if (!row) return { found: false, trackedId: null, wasPaused: false, released: 0 };
    const released = paused ? 0 : await releaseSubscription(tx, row.id, c.kind);
    return { found: true, trackedId: row.id, wasPaused: row.was_paused, released };
  })) as PauseResult;
}

/** A key's subscriptions of an address: their webhooks (null: none of that kind) and pauses. */
export interface Subscription {
  stream_webhook: string | null;
  aml_webhook: string | null;
  stream_paused: boolean;
  aml_paused: boolean;
}

/** The key's subscriptions of an address (undefined: none). */
export async function findSubscription(
  sql: Sql,
  apiKeyId: string,
  address: string,
): Promise<Subscription | undefined> {
  const [row] = await sql<Subscription[]>`
    select stream_webhook, aml_webhook, stream_paused_at is not null as stream_paused, aml_paused_at is not null as aml_paused
    from tracked_addresses where api_key_id = ${apiKeyId}::bigint and address = ${address}`;
  return row;
}
