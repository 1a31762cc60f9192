import { within } from '../concurrency.js';
import type { Sql } from '../db/index.js';
import { followColumns, NOT_HELD } from '../indexer/status.js';

export interface Readiness {
  ready: boolean;
  database: boolean;
  networks: Record<
    string,
    {
      ready: boolean;
      indexed_block: string | null;
      head_block: string | null;
      lag_blocks: number | null;
      reason?: string;
    }
  >;
}

/**
 * How long /readyz waits for the database: a frozen one (no statement fails, nothing answers)
 * counts as down after this, well within a probe's usual timeout, so the answer is a 503 that says
 * so rather than none.
 */
const DATABASE_ANSWER_MS = 5_000;

/** Ready: the database answers and every configured network's indexer is within its lag bound. */
export async function readiness(
  sql: Sql,
  networks: readonly string[],
  maxLagBlocks: number,
): Promise<Readiness> {
  const out: Readiness = { ready: true, database: true, networks: {} };
  let rows: {
    network: string;
    block_number: string;
    head_number: string | null;
    followed: boolean;
    head_stale: boolean;
    halted_reason: string | null;
    node_behind: string | null;
  }[];
  let nodeErrors: { network: string; node: string; error: string; since: Date }[];
  try {
    [rows, nodeErrors] = await within(
      Promise.all([
        sql<typeof rows>`select network, block_number, head_number, halted_reason,
        node_behind, ${followColumns(sql)}
      from indexer_cursors c where network = any(${networks as string[]})`,
        sql<typeof nodeErrors>`select network, node, error, since from indexer_node_errors
      where network = any(${networks as string[]})`,
      ]),
      DATABASE_ANSWER_MS,
    );
  } catch {
    return { ready: false, database: false, networks: {} };
  }
  for (const network of networks) {
    const row = rows.find((r) => r.network === network);
    const failing = nodeErrors.find((e) => e.network === network);
    const nodeDown = failing
      ? `node ${failing.node} failing since ${new Date(failing.since).toISOString()}: ${failing.error}`
      : undefined;
    if (!row) {
      out.networks[network] = {
        ready: false,
        indexed_block: null,
        head_block: null,
        lag_blocks: null,
        reason: nodeDown ? `not indexed yet: ${nodeDown}` : 'not indexed yet',
      };
      out.ready = false;
      continue;
    }
    // 0 when the node's head is below the indexed block (a node behind the one before it, after
    // a failover): as `indexer status` and the metrics count it, never a negative lag.
    const lag =
      row.head_number === null
        ? null
        : Math.max(Number(BigInt(row.head_number) - BigInt(row.block_number)), 0);
    const notFollowing = !row.followed
      ? NOT_HELD
      : row.head_stale
        ? `indexer has not reached its node recently${nodeDown ? `: ${nodeDown}` : ''}`
        : undefined;
    const reason = row.halted_reason
      ? `indexer halted: ${row.halted_reason}`
      : notFollowing
        ? notFollowing
        : row.node_behind
          ? row.node_behind
          : lag !== null && lag > maxLagBlocks
            ? `lag above ${maxLagBlocks} blocks`
            : undefined;
    out.networks[network] = {
      ready: !reason,
      indexed_block: row.block_number,
      head_block: row.head_number,
      lag_blocks: lag,
      ...(reason ? { reason } : {}),
    };
    if (reason) out.ready = false;
  }
  return out;
}
