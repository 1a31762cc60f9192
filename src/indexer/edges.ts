import type { Fragment } from 'postgres';
import type { TransactionSql } from '../db/index.js';
import { exposureEdgesChanged } from '../aml/index.js';

/**
 * Counterparty edges (address_edges): per network and direction, how many transactions two
 * addresses shared. The indexers add a batch's edges in the block's transaction and subtract
 * them, computed by SQL from the rows about to be deleted, when a reorg removes the blocks. Both
 * sides count a transaction once per ordered pair: the pair set of a transaction is built
 * the same way in JS (adding) and in SQL (subtracting).
 */

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/**
 * A Bitcoin-family transaction links every address it spends from with every address it pays;
 * above this many pairs (a consolidation or a payout batch) it adds no edges, so one transaction
 * cannot flood the graph. The same cap holds when edges are subtracted.
 */
export const MAX_UTXO_PAIRS_PER_TX = 2500;

export interface TxPairs {
  /** Block time of the transaction (Unix seconds). */
  timestamp: bigint;
  /** Ordered pairs as they appear; reversed pairs, duplicates and self-pairs are handled here. */
  pairs: readonly (readonly [string, string])[];
}

interface Edge {
  count: number;
  first: bigint;
  last: bigint;
}

/** Both directions of every pair, each transaction once per ordered pair, counted. */
export function edgesOf(txs: readonly TxPairs[]): Map<string, Edge> {
  const out = new Map<string, Edge>();
  for (const tx of txs) {
    const seen = new Set<string>();
    for (const [a, b] of tx.pairs) {
      if (a === b || a === ZERO_ADDRESS || b === ZERO_ADDRESS) continue;
      for (const key of [`${a}\n${b}`, `${b}\n${a}`]) {
        if (seen.has(key)) continue;
        seen.add(key);
        const e = out.get(key);
        if (e) {
          e.count += 1;
          if (tx.timestamp < e.first) e.first = tx.timestamp;
          if (tx.timestamp > e.last) e.last = tx.timestamp;
        } else {
          out.set(key, { count: 1, first: tx.timestamp, last: tx.timestamp });
        }
      }
    }
  }
  return out;
}

export async function addEdges(
  tx: TransactionSql,
  network: string,
  txs: readonly TxPairs[],
): Promise<void> {
  const edgesMap = edgesOf(txs);
  const edges = [...edgesMap];
  if (edges.length === 0) return;
  const split = edges.map(([k]) => k.split('\n') as [string, string]);
  const rows = await tx<{ a: string; b: string; tx_count: string }[]>`
    insert into address_edges (network, address, counterparty, tx_count, first_seen, last_seen)
    select ${network}, u.a, u.b, u.n, u.first, u.last
    from unnest(${split.map((s) => s[0])}::text[], ${split.map((s) => s[1])}::text[], ${edges.map(([, e]) => e.count)}::bigint[],
      ${edges.map(([, e]) => e.first.toString())}::bigint[], ${edges.map(([, e]) => e.last.toString())}::bigint[]) as u(a, b, n, first, last)
    on conflict (network, address, counterparty) do update set
      tx_count = address_edges.tx_count + excluded.tx_count,
      first_seen = least(address_edges.first_seen, excluded.first_seen),
      last_seen = greatest(address_edges.last_seen, excluded.last_seen)
    returning address as a, counterparty as b, tx_count`;
  // A new row holds just this batch's count; a row that was there holds more (it had at least 1).
  // (xmax = 0 cannot be read from a partitioned table.)
  const added = rows.filter(
    (r) => BigInt(r.tx_count) === BigInt(edgesMap.get(`${r.a}\n${r.b}`)!.count),
  );
  await exposureEdgesChanged(tx, network, added, 1);
}

/**
 * Subtracts the edges of the rows `pairs` selects (columns tx, a, b: one row per ordered pair as
 * it appears, per transaction) and drops the edges left at zero.
 */
export async function subtractEdges(
  tx: TransactionSql,
  network: string,
  pairs: Fragment,
): Promise<void> {
  await tx`
    with pairs as (${pairs}),
    both_ways as (
      select tx, a, b from pairs union select tx, b, a from pairs
    ), d as (
      select a, b, count(*) as n from both_ways
      where a <> b and a <> ${ZERO_ADDRESS} and b <> ${ZERO_ADDRESS}
      group by a, b
    )
    update address_edges e set tx_count = e.tx_count - d.n
    from d where e.network = ${network} and e.address = d.a and e.counterparty = d.b`;
  const gone = await tx<{ a: string; b: string }[]>`
    delete from address_edges where network = ${network} and tx_count <= 0
    returning address as a, counterparty as b`;
  await exposureEdgesChanged(tx, network, gone, -1);
}
