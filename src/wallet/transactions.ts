import type { Sql } from '../db/index.js';
import { type PageAnchors, SPACING } from './page-anchors.js';
import type { PageCache } from './page-cache.js';
import { reportedNetworkColumn } from './network-name.js';
import { type CursorReach, type HistoryReach, reachColumn, reachOf } from './history.js';

/**
 * A wallet's transaction history across every indexed EVM network, newest first. The page is
 * read from evm_tx_addresses through its (address, timestamp desc, network, block_number desc,
 * tx_hash) index, one partition per network merged in order, so page 1 of an address with
 * 100,000 transactions reads `limit` index entries; the transactions and their logs are then
 * fetched for that page only. A deep page starts from a mark of where it begins when the API
 * process has one for the address's current history (./page-anchors.ts).
 */

/** The most rows a page holds (the API's `limit` is 1 to 100). */
const MAX_LIMIT = 100;

export interface WalletTransaction {
  id: string;
  to_address: string;
  from_address: string;
  hash: string;
  gas: string;
  gas_price: string;
  timestamp: string;
  value: string;
  block_number: string;
  logs: { address: string; topics: string[]; data: string }[];
  network: string;
  /** Receipt status: 1 success, 0 reverted; null where the node gave none. An addition to the spec's shape. */
  status: 0 | 1 | null;
}

export interface PageOptions {
  /** Marks of where deep pages begin (./page-anchors.ts). */
  anchors?: PageAnchors;
  /** Pages answered lately (./page-cache.ts). */
  cache?: PageCache;
  /** Networks whose history's reach is read with the page, from the same snapshot. */
  reachNetworks?: readonly string[];
}

export async function walletTransactions(
  sql: Sql,
  address: string,
  page: number,
  limit: number,
  { anchors, cache, reachNetworks = [] }: PageOptions = {},
): Promise<{ json: string; total: number; reach: HistoryReach[] }> {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new RangeError(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  const offset = (page - 1) * limit;
  const found = offset >= SPACING ? anchors?.lookup(address, offset) : undefined;
  const cached = cache?.get(address, page, limit);
  // One statement, one snapshot: the total and version kept per address (sql/0033, 0044) and the
  // page. With a mark taken at the version read here, the page starts at the mark's block time
  // and walks only the rows between; otherwise (no mark, or the history changed since) it walks
  // the whole offset. Both give the same rows. With this page kept at the version read here, by
  // the same server (./page-cache.ts), the page is not built at all (its subquery never runs).
  // The limit is written into the statement (one statement per limit, at most MAX_LIMIT): with it
  // known, Postgres's generic plan is the custom one (50 index entries, then a lookup per row) and
  // the statement is planned once per connection; with the limit a parameter the generic plan
  // expects a tenth of the address's rows and hashes the whole transactions table (64 ms instead
  // of 0.5), so every execution was planned anew (0.45 ms of Postgres's time per page).
  // The page's items are written as JSON by Postgres, in the answer's own shape (row_to_json is
  // compact and keeps the columns' order): the API puts that text into its answer as it is, with
  // no rows to read, objects to build and serialize again (measured in bench/README.md: 20-30%
  // more answers a second, the API's thread no longer the limit).
  const [head] = await sql<
    {
      n: number | null;
      version: string | null;
      server: string;
      reach: CursorReach[] | null;
      json: string | null;
    }[]
  >`
    with kept as (select n, version from address_tx_counts where address = ${address}),
    at as (
      select coalesce(k.version = ${found?.version ?? null}::bigint and s.s = ${found?.server ?? null}::text, false) as marked,
        coalesce(k.version = ${cached?.version ?? null}::bigint and s.s = ${cached?.server ?? null}::text, false) as known,
        s.s as server
      from (select pg_postmaster_start_time()::text as s) s left join kept k on true
    ),
    page as (
      select network, tx_hash, block_number, timestamp from evm_tx_addresses
      where address = ${address}
        and timestamp <= (select case when marked then ${found?.mark.t ?? null}::bigint else ${Number.MAX_SAFE_INTEGER}::bigint end from at)
      order by timestamp desc, network, block_number desc, tx_hash
      limit ${sql.unsafe(String(limit))}
      offset (select case when marked then ${offset - (found?.mark.before ?? 0)}::bigint else ${offset}::bigint end from at)
    ),
    items as (
      select p.timestamp as t, p.network as n, p.block_number as b, p.tx_hash as h, row_to_json(i)::text as item
      from page p join evm_transactions x on x.network = p.network and x.hash = p.tx_hash,
      lateral (select
        x.network || ':' || x.hash as id,
        coalesce(x.to_address, x.contract_address, '') as to_address,
        x.from_address, x.hash, x.gas::text as gas, coalesce(x.gas_price, 0)::text as gas_price,
        p.timestamp::text as timestamp, x.value::text as value, x.block_number::text as block_number,
        coalesce((select json_agg(l) from (select l.address, l.topics, l.data from evm_logs l
                  where l.network = x.network and l.block_number = x.block_number and l.tx_hash = x.hash
                  order by l.log_index) l), '[]'::json) as logs,
        ${reportedNetworkColumn(sql, 'x.network')} as network, x.status) i
    )
    select (select n::int from kept) as n, (select version from kept) as version,
      (select server from at) as server,
      ${reachNetworks.length ? reachColumn(sql, reachNetworks) : sql`null::json`} as reach,
      case when (select known from at) then null
        else '[' || coalesce((select string_agg(item, ',' order by t desc, n, b desc, h) from items), '') || ']'
      end as json`;
  const { version, server } = head!;
  if (found && version === found.version && server === found.server) anchors!.hits++;
  else anchors?.afterPage(address, version, server, offset);
  let json = head!.json;
  if (json === null) {
    json = cached!.json;
    cache!.hits++;
  } else if (cache && version !== null) cache.put(address, page, limit, { server, version, json });
  return { total: head!.n ?? 0, reach: reachOf(reachNetworks, head!.reach ?? []), json };
}
