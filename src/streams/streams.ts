import type { Sql } from '../db/index.js';

/** Streams: a key's "call my webhook when this address acts" subscriptions (tracked_addresses). */

export interface StreamRecord {
  address: string;
  stream_webhook: string;
  created_at: string;
  has_stream: boolean;
}

/**
 * Subscribes a key's address to a stream webhook, a live AML webhook, or both (one row per key
 * and address). A webhook given replaces the one there; one not given is left as it is. Each
 * subscription keeps the time it was first created.
 */
export async function subscribe(
  sql: Sql,
  apiKeyId: string,
  address: string,
  family: string,
  hooks: { stream?: string; aml?: string },
): Promise<void> {
  const stream = hooks.stream ?? null;
  const aml = hooks.aml ?? null;
  await sql`
    insert into tracked_addresses (api_key_id, address, family, stream_webhook, stream_created_at, aml_webhook, aml_created_at)
    values (${apiKeyId}, ${address}, ${family}, ${stream}, ${stream ? sql`now()` : null}, ${aml}, ${aml ? sql`now()` : null})
    on conflict (api_key_id, address) do update set
      stream_webhook = coalesce(excluded.stream_webhook, tracked_addresses.stream_webhook),
      stream_created_at = case when excluded.stream_webhook is null then tracked_addresses.stream_created_at
                               else coalesce(tracked_addresses.stream_created_at, now()) end,
      aml_webhook = coalesce(excluded.aml_webhook, tracked_addresses.aml_webhook),
      aml_created_at = case when excluded.aml_webhook is null then tracked_addresses.aml_created_at
                            else coalesce(tracked_addresses.aml_created_at, now()) end,
      updated_at = now()`;
}

const SUBSCRIPTION = {
  stream: { webhook: 'stream_webhook', created: 'stream_created_at', other: 'aml_webhook' },
  aml: { webhook: 'aml_webhook', created: 'aml_created_at', other: 'stream_webhook' },
} as const;

/**
 * Ends one subscription of a key's address; the row goes when the other one is not there
 * either. False when the key has no such subscription (another key's are never touched).
 */
export async function unsubscribe(
  sql: Sql,
  apiKeyId: string,
  address: string,
  which: 'stream' | 'aml',
): Promise<boolean> {
  const c = SUBSCRIPTION[which];
  const [row] = await sql<{ n: number }[]>`
    with gone as (
      delete from tracked_addresses
      where api_key_id = ${apiKeyId} and address = ${address} and ${sql(c.webhook)} is not null and ${sql(c.other)} is null
      returning id
    ), kept as (
      update tracked_addresses set ${sql(c.webhook)} = null, ${sql(c.created)} = null, updated_at = now()
      where api_key_id = ${apiKeyId} and address = ${address} and ${sql(c.webhook)} is not null and ${sql(c.other)} is not null
      returning id
    )
    select ((select count(*) from gone) + (select count(*) from kept))::int as n`;
  return row!.n > 0;
}

export async function listStreams(
  sql: Sql,
  apiKeyId: string,
  page: number,
  limit: number,
): Promise<{ rows: StreamRecord[]; total: number }> {
  const [count] = await sql<{ n: number }[]>`
    select count(*)::int as n from tracked_addresses where api_key_id = ${apiKeyId} and stream_webhook is not null`;
  const rows = await sql<{ address: string; stream_webhook: string; created_at: Date }[]>`
    select address, stream_webhook, stream_created_at as created_at from tracked_addresses
    where api_key_id = ${apiKeyId} and stream_webhook is not null
    order by stream_created_at, id
    limit ${limit} offset ${(page - 1) * limit}`;
  return {
    total: count!.n,
    rows: rows.map((r) => ({
      address: r.address,
      stream_webhook: r.stream_webhook,
      created_at: r.created_at.toISOString(),
      has_stream: true,
    })),
  };
}
