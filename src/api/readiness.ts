import { within } from '../concurrency.js';
import type { Sql } from '../db/index.js';

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

/** Seconds after which an indexer that has not looked at its node's head counts as stalled. */
const HEAD_STALE_S = 60;

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
    stale: boolean;
    halted_reason: string | null;
    node_behind: string | null;
  }[];
  let nodeErrors: { network: string; node: string; error: string; since: Date }[];
  try {
    [rows, nodeErrors] = await within(
      Promise.all([
        sql<typeof rows>`select network, block_number, head_number, halted_reason, node_behind,
        coalesce(head_seen_at < now() - make_interval(secs => ${HEAD_STALE_S}), true) as stale
      from indexer_cursors where network = any(${networks as string[]})`,
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
    const lag =
      row.head_number === null ? null : Number(BigInt(row.head_number) - BigInt(row.block_number));
    const reason = row.halted_reason
      ? `indexer halted: ${row.halted_reason}`
      : row.stale
        ? `indexer has not reached its node recently${nodeDown ? `: ${nodeDown}` : ''}`
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
