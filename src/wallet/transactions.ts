import type { Sql } from '../db/index.js';
import { reportedNetwork } from './network-name.js';

/**
 * A wallet's transaction history across every indexed EVM network, newest first. The page is
 * read from evm_tx_addresses through its (address, timestamp desc, network, block_number desc,
 * tx_hash) index, one partition per network merged in order, so page 1 of an address with
 * 100,000 transactions reads `limit` index entries; the transactions and their logs are then
 * fetched for that page only.
 */

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
): Promise<{ rows: WalletTransaction[]; total: number }> {
  // The total is kept per address (sql/0033), not counted here; read beside the page.
  const counted = sql<
    { n: number }[]
  >`select coalesce((select n::int from address_tx_counts where address = ${address}), 0) as n`;
  const paged = sql<Row[]>`
    with page as (
      select network, tx_hash, block_number, timestamp from evm_tx_addresses
      where address = ${address}
      order by timestamp desc, network, block_number desc, tx_hash
      limit ${limit} offset ${(page - 1) * limit}
    )
    select p.network, t.hash, t.block_number, p.timestamp, t.from_address, t.to_address, t.contract_address,
      t.value, t.gas, t.gas_price,
      coalesce((select json_agg(json_build_object('address', l.address, 'topics', l.topics, 'data', l.data) order by l.log_index)
                from evm_logs l where l.network = t.network and l.block_number = t.block_number and l.tx_hash = t.hash), '[]'::json) as logs
    from page p
    join evm_transactions t on t.network = p.network and t.hash = p.tx_hash
    order by p.timestamp desc, p.network, p.block_number desc, p.tx_hash`;
  const [[count], rows] = await Promise.all([counted, paged]);
  return {
    total: count!.n,
    rows: rows.map((r) => ({
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
