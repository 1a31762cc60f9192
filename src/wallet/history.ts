import type { Sql } from '../db/index.js';

/**
 * How far a network's indexed history reaches: every block from `from` to `to` is stored (the
 * live indexer's first block, lowered by backfills that joined it, up to its cursor). Null before
 * the network's first block is stored.
 */
export interface HistoryReach {
  network: string;
  from: string | null;
  to: string | null;
}

export async function historyReach(sql: Sql, networks: readonly string[]): Promise<HistoryReach[]> {
  const [row] = await sql<
    { reach: CursorReach[] }[]
  >`select ${reachColumn(sql, networks)} as reach`;
  return reachOf(networks, row!.reach);
}

/** A network's cursor as the history's reach is computed from (bigints as text). */
export interface CursorReach {
  network: string;
  history_from: string | null;
  block_number: string;
}

/**
 * The reach of each network from the cursors read (a network with no cursor: nothing indexed).
 * A statement that reads a wallet's rows can read the cursors itself (`reachColumn`), so that the
 * reach and the rows come from one snapshot: the reach never claims a block the rows lack.
 */
export function reachOf(networks: readonly string[], rows: readonly CursorReach[]): HistoryReach[] {
  return networks.map((network) => {
    const r = rows.find((x) => x.network === network);
    if (!r || r.history_from === null || BigInt(r.history_from) > BigInt(r.block_number))
      return { network, from: null, to: null };
    return { network, from: r.history_from, to: r.block_number };
  });
}

/** The cursors of `networks` as one json column (`CursorReach[]`), for a statement's select list. */
export function reachColumn(sql: Sql, networks: readonly string[]) {
  return sql`(select coalesce(json_agg(json_build_object('network', network, 'history_from', history_from::text,
      'block_number', block_number::text)), '[]'::json) from indexer_cursors where network = any(${networks as string[]}::text[]))`;
}

/** The X-Tollgate-History header: `eth=12000000-12345678, polygon=none` (none: nothing indexed yet). */
export function historyHeader(reach: readonly HistoryReach[]): string {
  return reach
    .map((r) => `${r.network}=${r.from === null ? 'none' : `${r.from}-${r.to}`}`)
    .join(', ');
}
