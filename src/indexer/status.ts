import type { Sql } from '../db/index.js';

export interface IndexerStatus {
  network: string;
  head_block: string | null;
  indexed_block: string;
  lag_blocks: string | null;
  head_seen_at: string | null;
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

/** Per network: the node's head as last seen, the indexed block, the lag, the last reorg, a halt. */
export async function indexerStatus(sql: Sql): Promise<IndexerStatus[]> {
  const rows = await sql<IndexerStatus[]>`
    select network, head_number as head_block, block_number as indexed_block,
      case when head_number is null then null else greatest(head_number - block_number, 0) end as lag_blocks,
      head_seen_at, last_reorg_at, last_reorg_depth, reorg_count, halted_reason, node_behind,
      node_behind_since, history_from
    from indexer_cursors order by network`;
  return rows.map((r) => ({
    ...r,
    head_seen_at: r.head_seen_at ? new Date(r.head_seen_at).toISOString() : null,
    node_behind_since: r.node_behind_since ? new Date(r.node_behind_since).toISOString() : null,
    last_reorg_at: r.last_reorg_at ? new Date(r.last_reorg_at).toISOString() : null,
  }));
}

/** A head seen longer ago than this: no indexer follows the network now (as /readyz counts it). */
const HEAD_STALE_MS = 60_000;

/**
 * Whether no indexer follows the network now: its head never seen, or not for HEAD_STALE_MS. Its
 * figures are then only the last known (the operations page said "running" for a killed indexer;
 * found by an outside probe).
 */
export function notFollowed(r: Pick<IndexerStatus, 'head_seen_at'>, now = Date.now()): boolean {
  return r.head_seen_at === null || now - Date.parse(r.head_seen_at) > HEAD_STALE_MS;
}

export function formatStatusTable(
  rows: readonly IndexerStatus[],
  now: number = Date.now(),
): string {
  if (rows.length === 0) return 'No network indexed yet.\n';
  const header = ['network', 'head', 'indexed', 'lag', 'last reorg', 'state'];
  const lines = rows.map((r) => [
    r.network,
    r.head_block ?? '-',
    r.indexed_block,
    r.lag_blocks ?? '-',
    r.last_reorg_at ? `${r.last_reorg_at} (${r.last_reorg_depth} blocks)` : 'none',
    r.halted_reason
      ? `HALTED: ${r.halted_reason}`
      : r.node_behind
        ? `NODE BEHIND since ${r.node_behind_since}: ${r.node_behind}`
        : // The figures are the database's: with nobody following, they are only the last known.
          notFollowed(r, now)
          ? `NOT FOLLOWED: head last seen ${r.head_seen_at ?? 'never'} (is its indexer running?)`
          : 'running',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [fmt(header), ...lines.map(fmt)].join('\n') + '\n';
}
