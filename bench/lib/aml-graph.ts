/**
 * The AML benchmark graph, built with generate_series: a target address with 10,000
 * counterparties in an address_edges graph of about 1,000,000 rows (both directions), and 1,000
 * labelled addresses (none a counterparty of the target), vacuum-analysed as autovacuum would
 * leave it in production (statistics and the visibility map: index-only scans).
 */
import type { Sql } from '../../src/db/index.js';
import { rebuildExposure } from '../../src/aml/exposure-store.js';
import { ensureNetworkPartitions } from '../../src/indexer/evm/store.js';

export const AML_GRAPH = {
  counterparties: 10_000,
  pool: 200_000,
  randomPairs: 490_000,
  labels: 1_000,
};
export const AML_TARGET = `0x${'ff'.repeat(20)}`;

const addr = (n: string) => `'0x' || lpad(to_hex(${n}), 40, '0')`;

/**
 * Builds the graph on the eth network; returns the edge rows stored. `scale` multiplies the
 * random part (pool and pairs): 10 gives about 10,000,000 edge rows around the same target.
 */
export async function buildAmlGraph(sql: Sql, scale = 1): Promise<number> {
  const { counterparties, labels } = AML_GRAPH;
  const pool = AML_GRAPH.pool * scale;
  const randomPairs = AML_GRAPH.randomPairs * scale;
  await ensureNetworkPartitions(sql, 'eth');
  await sql.unsafe(
    `create table if not exists address_edges_eth partition of address_edges for values in ('eth')`,
  );
  // The target and its counterparties (pool addresses 1..10,000), both directions.
  await sql.unsafe(`insert into address_edges (network, address, counterparty, tx_count, first_seen, last_seen)
    select 'eth', '${AML_TARGET}', ${addr('g')}, 1 + g % 50, 1600000000, 1700000000 from generate_series(1, ${counterparties}) g
    union all select 'eth', ${addr('g')}, '${AML_TARGET}', 1 + g % 50, 1600000000, 1700000000 from generate_series(1, ${counterparties}) g`);
  // Pseudo-random pairs over the pool (the counterparties included), both directions.
  await sql.unsafe(`insert into address_edges (network, address, counterparty, tx_count, first_seen, last_seen)
    select 'eth', v.a, v.b, 1, 1600000000, 1700000000
    from generate_series(1, ${randomPairs}) g,
      lateral (select ${addr(`1 + abs(hashtext('x' || g)) % ${pool}`)} as x, ${addr(`1 + abs(hashtext('y' || g)) % ${pool}`)} as y) p,
      lateral (values (p.x, p.y), (p.y, p.x)) v(a, b)
    where p.x <> p.y
    on conflict do nothing`);
  // The graph's statistics before the labels, as autovacuum would have taken them by then. (The
  // labels' insert no longer depends on them: without them, at 10,000,000 edges, it once joined
  // the labels with every edge and filled the disk; sql/0053, bench/README.)
  await sql`analyze address_edges`;
  // Labelled addresses spread over the pool (none of them a counterparty of the target).
  await sql.unsafe(`insert into labels (network, address, category, source)
    select 'eth', ${addr(`${counterparties} + g * ${Math.floor((pool - counterparties) / labels)}`)}, 'mixer', 'bench' from generate_series(1, ${labels}) g
    on conflict do nothing`);
  // Written in SQL, not by the indexer: the stored exposure is computed once, as the migration
  // that introduced it does for an existing graph.
  await rebuildExposure(sql, 'eth');
  await sql`vacuum analyze address_edges`;
  await sql`vacuum analyze labels`;
  await sql`vacuum analyze address_exposure`;
  // The build's writes flushed now, not by a checkpoint spread over the minutes measured next.
  await sql`checkpoint`;
  const [counted] = await sql<
    { edges: number }[]
  >`select count(*)::int as edges from address_edges`;
  return counted!.edges;
}
