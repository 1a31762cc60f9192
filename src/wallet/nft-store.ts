import type { Sql } from '../db/index.js';
import { JOBS } from '../db/jobs.js';
import type { Holding } from './nft-item.js';
import type { NftMetadata } from './nft-metadata.js';

/** SQL of NFT holdings (from evm_token_transfers) and their metadata cache (nft_metadata). */

/** A failed fetch (or one enqueued but never finished) is tried again on a request after this long. */
export const REFETCH_FAILED_AFTER = '30 minutes';

export interface NftKey {
  network: string;
  token: string;
  token_id: string;
  standard: 'ERC721' | 'ERC1155';
}

/**
 * The NFTs `address` holds on `networks` now: per (network, token, token_id), the amount received
 * minus the amount sent, over every ERC-721/1155 transfer indexed, kept when above zero. So a token
 * sent away or burned (sent to 0x0) is gone, and ERC-1155 amounts add up. Set-based: two index-only
 * range scans (migration 0004) and one aggregate, whatever the number of transfers.
 */
export async function listNftHoldings(
  sql: Sql,
  address: string,
  networks: readonly string[],
): Promise<Holding[]> {
  if (networks.length === 0) return [];
  return sql<Holding[]>`
    with moves as (
      select network, token, token_id, standard, value as delta
        from evm_token_transfers
       where to_address = ${address} and network = any(${networks as string[]}) and standard <> 'ERC20'
      union all
      select network, token, token_id, standard, -value
        from evm_token_transfers
       where from_address = ${address} and network = any(${networks as string[]}) and standard <> 'ERC20'
    ), held as (
      select network, token, token_id, max(standard) as standard, sum(delta) as amount
        from moves
       group by network, token, token_id
      having sum(delta) > 0
    )
    select h.network, c.chain_id::text as chain_id, h.token, h.token_id::text as token_id, h.standard,
           case when h.standard = 'ERC721' then '1' else h.amount::text end as amount,
           t.name as contract_name, t.symbol as contract_symbol, m.metadata,
           coalesce(m.status, 'pending') as metadata_status,
           (m.network is null
             or (m.status = 'failed' and m.fetched_at < now() - ${REFETCH_FAILED_AFTER}::interval)
             or (m.status = 'pending' and m.requested_at < now() - ${REFETCH_FAILED_AFTER}::interval)) as fetch_due
      from held h
      join indexer_cursors c on c.network = h.network
      left join evm_tokens t on t.network = h.network and t.address = h.token
      left join nft_metadata m on m.network = h.network and m.token = h.token and m.token_id = h.token_id
     order by h.network, h.token, h.token_id`;
}

/**
 * Waits until none of `keys` has a fetch on its way, or `ms` have passed (looking every 50 ms,
 * then less often). Returns whether every one has settled (fetched or failed).
 */
export async function waitForMetadata(
  sql: Sql,
  keys: readonly NftKey[],
  ms: number,
): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (let pause = 50; ; pause = Math.min(pause * 2, 200)) {
    const [row] = await sql<{ pending: number }[]>`
      select count(*)::int as pending
        from nft_metadata m
        join unnest(${keys.map((k) => k.network)}::text[], ${keys.map((k) => k.token)}::text[],
                    ${keys.map((k) => k.token_id)}::numeric[]) as u(network, token, token_id)
          on m.network = u.network and m.token = u.token and m.token_id = u.token_id
       where m.status = 'pending'`;
    if (row!.pending === 0) return true;
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await new Promise((r) => setTimeout(r, Math.min(pause, left)));
  }
}

/**
 * Fetches of one contract's tokens at one priority step: a contract with more tokens asked for at
 * once has its later ones queued behind every other contract's first ones.
 */
export const FETCHES_PER_PRIORITY_STEP = 50;

/**
 * Enqueues one metadata fetch per token, in one statement. The job key per token means a token
 * asked for again while its fetch waits is fetched once. Returns how many jobs were added or kept.
 * Fair between contracts: the first FETCHES_PER_PRIORITY_STEP tokens of each contract get the
 * task's priority, the next ones one step lower, and so on. One airdrop of thousands of tokens
 * whose metadata server never answers (10 s each) held up every other wallet's metadata for
 * many minutes (found by an outside probe); now it holds up only its own.
 */
export async function requestMetadataFetches(sql: Sql, keys: readonly NftKey[]): Promise<number> {
  if (keys.length === 0) return 0;
  const rows = await sql`
    with want as (
      select * from unnest(${keys.map((k) => k.network)}::text[], ${keys.map((k) => k.token)}::text[],
        ${keys.map((k) => k.token_id)}::numeric[], ${keys.map((k) => k.standard)}::text[]) as u(network, token, token_id, standard)
    ), marked as (
      insert into nft_metadata (network, token, token_id, standard)
      select network, token, token_id, standard from want
      on conflict (network, token, token_id) do update set requested_at = now(), standard = excluded.standard
      returning network, token, token_id, standard
    )
    select graphile_worker.add_job(${JOBS.fetch_nft_metadata.task},
        json_build_object('network', network, 'token', token, 'token_id', token_id::text, 'standard', standard),
        max_attempts => ${JOBS.fetch_nft_metadata.maxAttempts}::int,
        priority => ${JOBS.fetch_nft_metadata.priority}::int
          + least((row_number() over (partition by network, token order by token_id) - 1) / ${FETCHES_PER_PRIORITY_STEP}, 1000)::int,
        job_key => 'nft:' || network || ':' || token || ':' || token_id::text, job_key_mode => 'preserve_run_at')
      from marked`;
  return rows.length;
}

export type FetchOutcome =
  | { status: 'ok'; tokenUri: string; metadata: NftMetadata }
  | { status: 'failed'; tokenUri: string | null; error: string };

/** Records how a fetch went. A failure keeps the last good metadata (a failed refresh loses nothing). */
export async function recordFetch(sql: Sql, key: NftKey, outcome: FetchOutcome): Promise<void> {
  // Sent as text and cast: a parameter typed jsonb would be JSON.stringify'd again by postgres.js.
  const metadata = outcome.status === 'ok' ? JSON.stringify(outcome.metadata) : null;
  const error = outcome.status === 'failed' ? outcome.error.slice(0, 300) : null;
  await sql`
    insert into nft_metadata (network, token, token_id, standard, token_uri, metadata, status, error, fetched_at)
    values (${key.network}, ${key.token}, ${key.token_id}::numeric, ${key.standard}, ${outcome.tokenUri?.slice(0, 4096) ?? null},
      ${metadata}::text::jsonb, ${outcome.status}, ${error}, now())
    on conflict (network, token, token_id) do update set
      token_uri = coalesce(excluded.token_uri, nft_metadata.token_uri),
      metadata = coalesce(excluded.metadata, nft_metadata.metadata),
      status = excluded.status, error = excluded.error, fetched_at = excluded.fetched_at`;
}
