import type { Fragment, Sql, TransactionSql } from '../db/index.js';
import { DomainError } from '../errors.js';
import { CHAIN_EVENT_COLUMNS, enqueueEvents } from '../webhooks/enqueue.js';
import { cancelSubscriptionEvents, releaseSubscription } from '../webhooks/holds.js';

/** Streams: a key's "call my webhook when this address acts" subscriptions (tracked_addresses). */

export interface StreamRecord {
  address: string;
  stream_webhook: string;
  created_at: string;
  has_stream: boolean;
  /** Paused (src/streams/pause.ts): its events are kept, not sent, until it is resumed. */
  paused: boolean;
}

/**
 * The most streams and live AML trackings one key may have (config max_streams_per_key,
 * max_trackings_per_key); 0: no limit. A subscription the key already has may always be updated.
 */
export interface SubscriptionLimits {
  streams: number;
  trackings: number;
}

export const NO_SUBSCRIPTION_LIMITS: SubscriptionLimits = { streams: 0, trackings: 0 };

/**
 * Subscribes a key's address to a stream webhook, a live AML webhook, or both (one row per key
 * and address). A webhook given replaces the one there; one not given is left as it is. Each
 * subscription keeps the time it was first created. When a webhook changes, the events held for
 * the old endpoint (disabled, src/webhooks/holds.ts) are let go: to the new one, or held again.
 * A new subscription past the key's limit is refused (withinLimits).
 */
export async function subscribe(
  sql: Sql | TransactionSql,
  apiKeyId: string,
  address: string,
  family: string,
  hooks: { stream?: string; aml?: string },
  limits: SubscriptionLimits = NO_SUBSCRIPTION_LIMITS,
): Promise<string> {
  const limited = (hooks.stream && limits.streams > 0) || (hooks.aml && limits.trackings > 0);
  if (!limited) return upsertSubscription(sql, apiKeyId, address, family, hooks);
  const run = async (tx: TransactionSql) => {
    await withinLimits(tx, apiKeyId, address, hooks, limits);
    return upsertSubscription(tx, apiKeyId, address, family, hooks);
  };
  return 'begin' in sql ? ((await sql.begin(run)) as string) : run(sql);
}

/**
 * Refuses (5005) a subscription the key does not have yet when it already has as many of that
 * kind as its limit. The key's count row is locked first, so creations of one key wait for each
 * other and two at once cannot both take the last place; it commits with the subscription (the
 * count trigger of sql/0037 updates the row this transaction holds).
 */
async function withinLimits(
  tx: TransactionSql,
  apiKeyId: string,
  address: string,
  hooks: { stream?: string; aml?: string },
  limits: SubscriptionLimits,
): Promise<void> {
  await tx`insert into subscription_counts (api_key_id) values (${apiKeyId}) on conflict do nothing`;
  const [row] = await tx<
    { streams: number; trackings: number; has_stream: boolean; has_aml: boolean }[]
  >`
    select c.streams, c.trackings,
      coalesce(t.stream_webhook is not null, false) as has_stream,
      coalesce(t.aml_webhook is not null, false) as has_aml
    from subscription_counts c
    left join tracked_addresses t on t.api_key_id = c.api_key_id and t.address = ${address}
    where c.api_key_id = ${apiKeyId}
    for update of c`;
  const over = (kind: string, count: number, limit: number, variable: string) =>
    new DomainError(
      'limit',
      `This API key has ${count} ${kind}, the most it may have (${variable}=${limit}); delete some, or raise the limit.`,
    );
  if (hooks.stream && limits.streams > 0 && !row!.has_stream && row!.streams >= limits.streams)
    throw over('streams', row!.streams, limits.streams, 'TOLLGATE_MAX_STREAMS_PER_KEY');
  if (hooks.aml && limits.trackings > 0 && !row!.has_aml && row!.trackings >= limits.trackings)
    throw over(
      'live AML trackings',
      row!.trackings,
      limits.trackings,
      'TOLLGATE_MAX_TRACKINGS_PER_KEY',
    );
}

async function upsertSubscription(
  sql: Sql | TransactionSql,
  apiKeyId: string,
  address: string,
  family: string,
  hooks: { stream?: string; aml?: string },
): Promise<string> {
  const stream = hooks.stream ?? null;
  const aml = hooks.aml ?? null;
  const [row] = await sql<{ id: string; changed: boolean }[]>`
    with old as (
      select stream_webhook, aml_webhook from tracked_addresses where api_key_id = ${apiKeyId} and address = ${address}
    )
    insert into tracked_addresses (api_key_id, address, family, stream_webhook, stream_created_at, aml_webhook, aml_created_at)
    values (${apiKeyId}, ${address}, ${family}, ${stream}, ${stream ? sql`now()` : null}, ${aml}, ${aml ? sql`now()` : null})
    on conflict (api_key_id, address) do update set
      stream_webhook = coalesce(excluded.stream_webhook, tracked_addresses.stream_webhook),
      stream_created_at = case when excluded.stream_webhook is null then tracked_addresses.stream_created_at
                               else coalesce(tracked_addresses.stream_created_at, now()) end,
      aml_webhook = coalesce(excluded.aml_webhook, tracked_addresses.aml_webhook),
      aml_created_at = case when excluded.aml_webhook is null then tracked_addresses.aml_created_at
                            else coalesce(tracked_addresses.aml_created_at, now()) end,
      updated_at = now()
    returning id, exists (select 1 from old where old.stream_webhook is distinct from tracked_addresses.stream_webhook
      or old.aml_webhook is distinct from tracked_addresses.aml_webhook) as changed`;
  if (row!.changed) await releaseSubscription(sql, row!.id);
  return row!.id;
}

/**
 * Every indexed transaction of an address on the networks of its family: network, block_number,
 * tx_hash, block_hash, tx_index (its position in the block). What stream and live AML replays
 * read, each in chain order.
 */
export function addressHistory(
  sql: Sql | TransactionSql,
  family: 'evm' | 'utxo',
  address: string,
): Fragment {
  return family === 'evm'
    ? sql`select a.network, a.block_number, a.tx_hash, b.hash as block_hash, t.tx_index
        from evm_tx_addresses a
        join evm_blocks b on b.network = a.network and b.number = a.block_number
        join evm_transactions t on t.network = a.network and t.hash = a.tx_hash and t.block_number = a.block_number
        where a.address = ${address}`
    : sql`select a.network, a.block_number, a.tx_hash, t.block_hash, t.tx_index
        from utxo_tx_addresses a
        join utxo_transactions t on t.network = a.network and t.txid = a.tx_hash and t.block_height = a.block_number
        where a.address = ${address}`;
}

/** What a replay needs of each indexed network of the address's family. */
export interface ReplayNetwork {
  network: string;
  /** Blocks on top of a transaction's block (its own counts) before it is confirmed. */
  confirmations: number;
}

/**
 * Subscribes like `subscribe` and, in the same transaction, queues the stream events of the
 * address's past transactions in the indexed blocks from `fromBlock` (on each network in
 * `networks`) up to each network's cursor, in chain order (network, block, position in block),
 * marked as replays. Each network's cursor row is read `for share`, which waits for a block being
 * stored: a block is either in the replay or will be streamed live, never both, never neither.
 * A replayed transaction deep enough is sent once, confirmed; one within the confirmations is sent
 * unconfirmed and confirmed later as any. Events this stream already had are not sent again.
 * Returns how many were queued.
 */
export async function subscribeWithReplay(
  sql: Sql,
  apiKeyId: string,
  address: string,
  family: 'evm' | 'utxo',
  hooks: { stream: string; aml?: string },
  fromBlock: bigint,
  networks: readonly ReplayNetwork[],
  limits: SubscriptionLimits = NO_SUBSCRIPTION_LIMITS,
): Promise<number> {
  return sql.begin(async (tx) => {
    const trackedId = await subscribe(tx, apiKeyId, address, family, hooks, limits);
    if (networks.length === 0) return 0;
    return enqueueEvents(
      tx,
      [...CHAIN_EVENT_COLUMNS, 'confirmation_done', 'replay'],
      tx`select 'stream', ${apiKeyId}::bigint, ${trackedId}::bigint, h.network, ${address}, h.tx_hash, h.block_number, h.block_hash,
          h.deep, h.deep, true
        from (
          select h.*, h.block_number <= c.block_number - n.confirmations + 1 as deep
          from (${addressHistory(tx, family, address)}) h
          join cursors c on c.network = h.network
          join unnest(${networks.map((n) => n.network)}::text[], ${networks.map((n) => n.confirmations)}::int[]) as n(network, confirmations)
            on n.network = h.network
          where h.block_number >= ${fromBlock.toString()} and h.block_number <= c.block_number
        ) h
        order by h.network, h.block_number, h.tx_index`,
      tx`cursors as (
        select network, block_number from indexer_cursors
        where network = any(${networks.map((n) => n.network)}::text[]) for share
      )`,
    );
  }) as Promise<number>;
}

const SUBSCRIPTION = {
  stream: {
    webhook: 'stream_webhook',
    created: 'stream_created_at',
    paused: 'stream_paused_at',
    other: 'aml_webhook',
    counted: 'streams',
    kind: 'stream',
  },
  aml: {
    webhook: 'aml_webhook',
    created: 'aml_created_at',
    paused: 'aml_paused_at',
    other: 'stream_webhook',
    counted: 'trackings',
    kind: 'liveaml',
  },
} as const;

/**
 * Ends one subscription of a key's address; the row goes when the other one is not there
 * either. False when the key has no such subscription (another key's are never touched). Its
 * events not delivered are cancelled now, held ones too (cancelSubscriptionEvents).
 */
export async function unsubscribe(
  sql: Sql,
  apiKeyId: string,
  address: string,
  which: 'stream' | 'aml',
): Promise<boolean> {
  return (await sql.begin(async (tx) => {
    const [row] = await tx<{ id: string; subscribed: boolean }[]>`
      select id::text, ${tx(SUBSCRIPTION[which].webhook)} is not null as subscribed
      from tracked_addresses where api_key_id = ${apiKeyId} and address = ${address} for update`;
    if (!row?.subscribed) return false;
    // Before the row may go (its events' tracked_id with it).
    await cancelSubscriptionEvents(tx, row.id, SUBSCRIPTION[which].kind);
    return removeSubscription(tx, apiKeyId, address, which);
  })) as boolean;
}

async function removeSubscription(
  sql: TransactionSql,
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
      update tracked_addresses set ${sql(c.webhook)} = null, ${sql(c.created)} = null, ${sql(c.paused)} = null, updated_at = now()
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
  const { total, rows } = await subscriptionPage(sql, apiKeyId, 'stream', page, limit);
  return {
    total,
    rows: rows.map((r) => ({
      address: r.address,
      stream_webhook: r.webhook,
      created_at: r.created_at,
      has_stream: true,
      paused: r.paused,
    })),
  };
}

/**
 * One page of a key's subscriptions of a kind, oldest first, and how many it has: one round
 * trip, the page read in order from its partial index and the count from subscription_counts
 * (kept by a trigger, sql/0037), never by counting the key's rows.
 */
export async function subscriptionPage(
  sql: Sql,
  apiKeyId: string,
  kind: 'stream' | 'aml',
  page: number,
  limit: number,
): Promise<{
  total: number;
  rows: {
    address: string;
    webhook: string;
    created_at: string;
    has_stream: boolean;
    paused: boolean;
  }[];
}> {
  const c = SUBSCRIPTION[kind];
  const webhook = sql(c.webhook);
  const created = sql(c.created);
  const rows = await sql<
    {
      total: number;
      address: string | null;
      webhook: string;
      created_at: string;
      has_stream: boolean;
      paused: boolean;
    }[]
  >`
    with total as (
      select coalesce(
        (select ${sql(c.counted)} from subscription_counts where api_key_id = ${apiKeyId}),
        0
      ) as n
    )
    select total.n as total, p.address, p.webhook, p.has_stream, p.paused,
      -- Formatted as JavaScript's toISOString() would, without a Date per row.
      to_char(p.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at
    from total left join lateral (
      select address, ${webhook} as webhook, ${created} as created, id,
        stream_webhook is not null as has_stream, ${sql(c.paused)} is not null as paused
      from tracked_addresses
      where api_key_id = ${apiKeyId} and ${webhook} is not null
      order by ${created}, id
      limit ${limit} offset ${(page - 1) * limit}
    ) p on true
    order by p.created, p.id`;
  return {
    total: rows[0]!.total,
    rows: rows
      .filter((r) => r.address !== null)
      .map(({ total: _total, ...r }) => ({ ...r, address: r.address! })),
  };
}
