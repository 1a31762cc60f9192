import type { Sql } from '../db/index.js';

/** The spec's wallet queries report Polygon items as `matic`; every other network by its symbol. */
const REPORTED: Readonly<Record<string, string>> = { polygon: 'matic' };

export function reportedNetwork(symbol: string): string {
  return REPORTED[symbol] ?? symbol;
}

/**
 * `reportedNetwork` as an expression of a statement, on `column` (a column name the caller
 * writes, never input), which holds the network's symbol. Constant text: the statement is
 * planned once per connection.
 */
export function reportedNetworkColumn(sql: Sql, column: string) {
  const cases = Object.entries(REPORTED)
    .map(([symbol, reported]) => `when '${symbol}' then '${reported}'`)
    .join(' ');
  return sql.unsafe(`case ${column} ${cases} else ${column} end`);
}
