import type { Sql } from '../db/index.js';

/** Streams: a key's "call my webhook when this address acts" subscriptions (tracked_addresses). */

export interface StreamRecord {
  address: string;
  stream_webhook: string;
  created_at: string;
  has_stream: boolean;
}

/** Creates the stream, or updates its webhooks when the key already streams the address. */
export async function upsertStream(sql: Sql, apiKeyId: string, address: string, family: string, webhook: string, amlWebhook: string | undefined): Promise<void> {
  await sql`
    insert into tracked_addresses (api_key_id, address, family, stream_webhook, stream_created_at, aml_webhook, aml_created_at)
    values (${apiKeyId}, ${address}, ${family}, ${webhook}, now(), ${amlWebhook ?? null}, ${amlWebhook ? sql`now()` : null})
    on conflict (api_key_id, address) do update set
      stream_webhook = excluded.stream_webhook,
      stream_created_at = coalesce(tracked_addresses.stream_created_at, now()),
      aml_webhook = coalesce(excluded.aml_webhook, tracked_addresses.aml_webhook),
      aml_created_at = case when excluded.aml_webhook is null then tracked_addresses.aml_created_at
                            else coalesce(tracked_addresses.aml_created_at, now()) end,
      updated_at = now()`;
}

/** Stops the stream; the row goes when no live AML tracking remains on it. False when not streamed. */
export async function deleteStream(sql: Sql, apiKeyId: string, address: string): Promise<boolean> {
  const [row] = await sql`
    with gone as (
      delete from tracked_addresses
      where api_key_id = ${apiKeyId} and address = ${address} and stream_webhook is not null and aml_webhook is null
      returning id
    ), kept as (
      update tracked_addresses set stream_webhook = null, stream_created_at = null, updated_at = now()
      where api_key_id = ${apiKeyId} and address = ${address} and stream_webhook is not null and aml_webhook is not null
      returning id
    )
    select (select count(*) from gone) + (select count(*) from kept) as n`;
  return Number(row!.n) > 0;
}

export async function listStreams(sql: Sql, apiKeyId: string, page: number, limit: number): Promise<{ rows: StreamRecord[]; total: number }> {
  const [count] = await sql<{ n: number }[]>`
    select count(*)::int as n from tracked_addresses where api_key_id = ${apiKeyId} and stream_webhook is not null`;
  const rows = await sql<{ address: string; stream_webhook: string; created_at: Date }[]>`
    select address, stream_webhook, stream_created_at as created_at from tracked_addresses
    where api_key_id = ${apiKeyId} and stream_webhook is not null
    order by stream_created_at, id
    limit ${limit} offset ${(page - 1) * limit}`;
  return {
    total: count!.n,
    rows: rows.map((r) => ({ address: r.address, stream_webhook: r.stream_webhook, created_at: r.created_at.toISOString(), has_stream: true })),
  };
}
