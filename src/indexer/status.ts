import type { Fragment, Sql } from '../db/index.js';
import { networkFollowed } from './network-lock.js';

export interface IndexerStatus {
  network: string;
  head_block: string | null;
  indexed_block: string;
  lag_blocks: string | null;
  head_seen_at: string | null;
  /** The head was never read, or not for HEAD_STALE_S (by the database's clock). */
  head_stale: boolean;
  /** An indexer holds the network now (its lock session is open); false for a killed or stopped one. */
  followed: boolean;
  last_reorg_at: string | null;
  last_reorg_depth: number | null;
  /** Reorgs followed since the cursor was created (a forgotten dev chain starts again at 0). */
  reorg_count: string;
  halted_reason: string | null;
  /** Why the node counts as behind the network (its newest block too old), and since when. */
  node_behind: string | null;
  node_behind_since: string | null;
  /** The first block of the indexed history (every block from it to indexed_block is stored). */
  history_from: string | null;
}

/**
 * Seconds after which a head not read again counts as stale: the indexer holds its network but
 * cannot reach its node (it reads the head at every poll, and every few seconds while it catches
 * up).
 */
export const HEAD_STALE_S = 60;

/**
 * SQL over indexer_cursors (as `c`): whether an indexer follows the network (`followed`) and
 * whether its head is stale (`head_stale`). One rule for `indexer status`, the operations page
 * and /readyz.
 */
export function followColumns(sql: Sql): Fragment {
  return sql`${networkFollowed(sql, sql`c.network`)} as followed,
    coalesce(c.head_seen_at < now() - make_interval(secs => ${HEAD_STALE_S}), true) as head_stale`;
}

/** Per network: the node's head as last seen, the indexed block, the lag, the last reorg, a halt. */
export async function indexerStatus(sql: Sql): Promise<IndexerStatus[]> {
  const rows = await sql<IndexerStatus[]>`
    select network, head_number as head_block, block_number as indexed_block,
      case when head_number is null then null else greatest(head_number - block_number, 0) end as lag_blocks,
      head_seen_at, ${followColumns(sql)}, last_reorg_at, last_reorg_depth, reorg_count, halted_reason,
      node_behind, node_behind_since, history_from
    from indexer_cursors c order by network`;
  return rows.map((r) => ({
    ...r,
    head_seen_at: r.head_seen_at ? new Date(r.head_seen_at).toISOString() : null,
    node_behind_since: r.node_behind_since ? new Date(r.node_behind_since).toISOString() : null,
    last_reorg_at: r.last_reorg_at ? new Date(r.last_reorg_at).toISOString() : null,
  }));
}

/** Said of a network no indexer holds (/readyz, `indexer status`, the operations page). */
/** The chain each Bitcoin-family network's node said it runs, as its indexer recorded it (sql/0060). */
export async function nodeChains(sql: Sql): Promise<Map<string, string>> {
  const rows = await sql<{ network: string; node_chain: string }[]>`
    select network, node_chain from indexer_cursors where node_chain is not null`;
  return new Map(rows.map((r) => [r.network, r.node_chain]));
}

export const NOT_HELD = 'no indexer holds this network (is its indexer running?)';

/**
 * Why no indexer follows the network now, or undefined while one does: none holds it (not
 * running, or its database session ended), or the one that holds it has not read its node's head
 * for HEAD_STALE_S. The figures are then only the last known (the operations page said "running"
 * for a killed indexer; found by an outside probe).
 */
export function notFollowed(
  r: Pick<IndexerStatus, 'followed' | 'head_stale' | 'head_seen_at'>,
): string | undefined {
  if (!r.followed) return NOT_HELD;
  if (r.head_stale)
    return `its indexer has not read the node's head since ${r.head_seen_at ?? 'it started'} (can it reach its node?)`;
  return undefined;
}

export function formatStatusTable(rows: readonly IndexerStatus[]): string {
  if (rows.length === 0) return 'No network indexed yet.\n';
  const header = ['network', 'head', 'indexed', 'lag', 'last reorg', 'state'];
  const lines = rows.map((r) => {
    // The figures are the database's: with nobody following, they are only the last known.
    const unfollowed = notFollowed(r);
    return [
      r.network,
      r.head_block ?? '-',
      r.indexed_block,
      r.lag_blocks ?? '-',
      r.last_reorg_at ? `${r.last_reorg_at} (${r.last_reorg_depth} blocks)` : 'none',
      r.halted_reason
        ? `HALTED: ${r.halted_reason}`
        : r.node_behind
          ? `NODE BEHIND since ${r.node_behind_since}: ${r.node_behind}`
          : unfollowed
            ? `NOT FOLLOWED: ${unfollowed}`
            : 'running',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [fmt(header), ...lines.map(fmt)].join('\n') + '\n';
}
