import type { Sql } from '../db/index.js';
import { type PageAnchors, SPACING } from './page-anchors.js';
import { reportedNetwork } from './network-name.js';
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
}

interface Row {
  network: string;
  hash: string;
  block_number: string;
  timestamp: string;
  from_address: string;
  to_address: string | null;
  contract_address: string | null;
  value: string;
  gas: string;
  gas_price: string | null;
  logs: { address: string; topics: string[]; data: string }[];
}

export async function walletTransactions(
  sql: Sql,
  address: string,
  page: number,
  limit: number,
  anchors?: PageAnchors,
  /** Networks whose history's reach is read with the page, from the same snapshot. */
  reachNetworks: readonly string[] = [],
): Promise<{ rows: WalletTransaction[]; total: number; reach: HistoryReach[] }> {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new RangeError(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  const offset = (page - 1) * limit;
  const found = offset >= SPACING ? anchors?.lookup(address, offset) : undefined;
  // One statement, one snapshot: the total and version kept per address (sql/0033, 0044) and the
  // page. With a mark taken at the version read here, the page starts at the mark's block time
  // and walks only the rows between; otherwise (no mark, or the history changed since) it walks
  // the whole offset. Both give the same rows.
  // The limit is written into the statement (one statement per limit, at most MAX_LIMIT): with it
  // known, Postgres's generic plan is the custom one (50 index entries, then a lookup per row) and
  // the statement is planned once per connection; with the limit a parameter the generic plan
  // expects a tenth of the address's rows and hashes the whole transactions table (64 ms instead
  // of 0.5), so every execution was planned anew (0.45 ms of Postgres's time per page).
  const rows = await sql<
    (Row & { n: number | null; version: string | null; reach: CursorReach[] | null })[]
  >`
    with kept as (select n, version from address_tx_counts where address = ${address}),
    at as (
      select coalesce((select version from kept) = ${found?.version ?? null}::bigint, false) as marked
    ),
    page as (
      select network, tx_hash, block_number, timestamp from evm_tx_addresses
      where address = ${address}
        and timestamp <= (select case when marked then ${found?.mark.t ?? null}::bigint else ${Number.MAX_SAFE_INTEGER}::bigint end from at)
      order by timestamp desc, network, block_number desc, tx_hash
      limit ${sql.unsafe(String(limit))}
      offset (select case when marked then ${offset - (found?.mark.before ?? 0)}::bigint else ${offset}::bigint end from at)
    )
    select (select n::int from kept) as n, (select version from kept) as version,
      ${reachNetworks.length ? reachColumn(sql, reachNetworks) : sql`null::json`} as reach,
      p.network, t.hash, t.block_number, p.timestamp, t.from_address, t.to_address, t.contract_address,
      t.value, t.gas, t.gas_price,
      coalesce((select json_agg(json_build_object('address', l.address, 'topics', l.topics, 'data', l.data) order by l.log_index)
                from evm_logs l where l.network = t.network and l.block_number = t.block_number and l.tx_hash = t.hash), '[]'::json) as logs
    from (select 1) one
    left join (page p join evm_transactions t on t.network = p.network and t.hash = p.tx_hash) on true
    order by p.timestamp desc, p.network, p.block_number desc, p.tx_hash`;
  const head = rows[0]!;
  if (found && head.version === found.version) anchors!.hits++;
  else anchors?.afterPage(address, head.version, offset);
  return {
    total: head.n ?? 0,
    reach: reachOf(reachNetworks, head.reach ?? []),
    rows: rows
      .filter((r) => r.hash !== null)
      .map((r) => ({
        id: `${r.network}:${r.hash}`,
        to_address: r.to_address ?? r.contract_address ?? '',
        from_address: r.from_address,
        hash: r.hash,
        gas: r.gas,
        gas_price: r.gas_price ?? '0',
        timestamp: r.timestamp,
        value: r.value,
        block_number: r.block_number,
        logs: r.logs,
        network: reportedNetwork(r.network),
      })),
  };
}
