import { expect } from 'vitest';
import type { Sql } from '../../src/db/index.js';

/** Every EVM chain table of two databases holds the same rows (order-independent). */
export async function compareChainTables(a: Sql, b: Sql): Promise<void> {
  const queries: TableQuery[] = [
    [
      'evm_blocks',
      (sql) =>
        sql`select network, number, hash, parent_hash, timestamp, tx_count from evm_blocks order by network, number`,
    ],
    [
      'evm_transactions',
      (sql) => sql`select * from evm_transactions order by network, block_number, tx_index`,
    ],
    ['evm_logs', (sql) => sql`select * from evm_logs order by network, block_number, log_index`],
    [
      'evm_tx_addresses',
      (sql) => sql`select * from evm_tx_addresses order by network, block_number, tx_hash, address`,
    ],
    [
      'evm_token_transfers',
      (sql) =>
        sql`select * from evm_token_transfers order by network, block_number, log_index, batch_index`,
    ],
    // The kept totals of /wallet/transactions (sql/0033).
    ['address_tx_counts', (sql) => sql`select address, n from address_tx_counts order by address`],
    // Counts are exact after reorgs; first/last seen may be wider than what remains (documented).
    [
      'address_edges',
      (sql) =>
        sql`select network, address, counterparty, tx_count from address_edges order by network, address, counterparty`,
    ],
  ];
  await compareQueries(a, b, queries);
}

/** Every Bitcoin-family chain table of two databases holds the same rows (order-independent). */
export async function compareUtxoTables(a: Sql, b: Sql): Promise<void> {
  const queries: TableQuery[] = [
    ['utxo_blocks', (sql) => sql`select * from utxo_blocks order by network, height`],
    [
      'utxo_transactions',
      (sql) => sql`select * from utxo_transactions order by network, block_height, tx_index`,
    ],
    [
      'utxo_inputs',
      (sql) => sql`select * from utxo_inputs order by network, block_height, txid, vin`,
    ],
    [
      'utxo_outputs',
      (sql) => sql`select * from utxo_outputs order by network, block_height, txid, vout`,
    ],
    [
      'utxo_tx_addresses',
      (sql) =>
        sql`select * from utxo_tx_addresses order by network, block_number, tx_hash, address`,
    ],
    // The Bitcoin-family networks' part of the counterparty graph.
    [
      'address_edges',
      (sql) =>
        sql`select network, address, counterparty, tx_count from address_edges
            where network in (select distinct network from utxo_blocks)
            order by network, address, counterparty`,
    ],
  ];
  await compareQueries(a, b, queries);
}

type TableQuery = [string, (sql: Sql) => PromiseLike<readonly unknown[]>];

async function compareQueries(a: Sql, b: Sql, queries: readonly TableQuery[]): Promise<void> {
  for (const [table, q] of queries) {
    const [left, right] = await Promise.all([q(a), q(b)]);
    expect(left.length, `${table} row count${differingRows(left, right)}`).toBe(right.length);
    expect(left, table).toEqual(right);
  }
}

/** The rows only one side has (at most 20 each), to say what differs when the counts do. */
function differingRows(left: readonly unknown[], right: readonly unknown[]): string {
  if (left.length === right.length) return '';
  const key = (r: unknown) => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
  const l = new Set(left.map(key));
  const r = new Set(right.map(key));
  const onlyLeft = [...l].filter((x) => !r.has(x)).slice(0, 20);
  const onlyRight = [...r].filter((x) => !l.has(x)).slice(0, 20);
  return ` (only in the first: ${onlyLeft.join(' ') || 'none'}; only in the second: ${onlyRight.join(' ') || 'none'})`;
}
