import { BaseError } from 'viem';
import { NodeHttpError, NodeRpcError, NodeTimeoutError } from '../chains/evm/json-rpc.js';
import { RpcCallError } from '../chains/utxo/client.js';
import { NodeAnswerError } from '../errors.js';
import type { Sql } from '../db/index.js';

/**
 * A node's failures as its indexer sees them (sql/0034): recorded while they last, so that /readyz
 * in any process says which node does not answer and why, and removed when it answers again.
 */

/** scheme://host:port of a node URL: what logs and /readyz may show (no credentials, no path). */
export function nodeLabel(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return '(not a URL)';
  }
}

/** Whether a failure came from the node (its clients' errors, also as a cause), not the database. */
export function isNodeError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as Error).cause, depth++)
    if (
      e instanceof BaseError ||
      e instanceof RpcCallError ||
      e instanceof NodeRpcError ||
      e instanceof NodeHttpError ||
      e instanceof NodeTimeoutError ||
      e instanceof NodeAnswerError
    )
      return true;
  return false;
}

export async function recordNodeError(
  sql: Sql,
  network: string,
  node: string,
  error: string,
): Promise<void> {
  await sql`insert into indexer_node_errors (network, node, error)
    values (${network}, ${node}, ${error.slice(0, 500)})
    on conflict (network) do update set node = excluded.node, error = excluded.error, seen_at = now()`;
}

export async function clearNodeError(sql: Sql, network: string): Promise<void> {
  await sql`delete from indexer_node_errors where network = ${network}`;
}
