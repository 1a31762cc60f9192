import { RetryableError } from '../errors.js';
import type { Sql, TransactionSql } from '../db/index.js';
import { assertNetworkLock } from './network-lock.js';
import { recordAudit } from '../audit/index.js';

/**
 * The indexer_cursors row of a network: the last block whose rows are stored. It moves in the
 * same transaction as the rows it covers. Shared by the EVM and the Bitcoin-family indexers.
 */
export interface Cursor {
  network: string;
  chain_id: string;
  block_number: string;
  block_hash: string;
}

export async function readCursor(sql: Sql, network: string): Promise<Cursor | undefined> {
  const [row] = await sql<
    Cursor[]
  >`select network, chain_id, block_number, block_hash from indexer_cursors where network = ${network}`;
  return row;
}

/** First start: the cursor stands just below the start block (as if that block were next). */
export async function initCursor(
  sql: Sql,
  network: string,
  chainId: number,
  belowStart: bigint,
  hash: string,
): Promise<Cursor> {
  await sql`insert into indexer_cursors (network, chain_id, block_number, block_hash, history_from)
    values (${network}, ${chainId}, ${belowStart.toString()}, ${hash}, ${(belowStart + 1n).toString()})
    on conflict (network) do nothing`;
  return (await readCursor(sql, network))!;
}

export async function recordHead(sql: Sql, network: string, head: bigint): Promise<void> {
  await sql`update indexer_cursors set head_number = ${head.toString()}, head_seen_at = now() where network = ${network}`;
}

/**
 * Records whether the node is behind the network (`reason`) or not (null); `node_behind_since`
 * keeps the moment it was first found behind.
 */
export async function recordNodeBehind(
  sql: Sql,
  network: string,
  reason: string | null,
): Promise<void> {
  await sql`update indexer_cursors set node_behind = ${reason},
      node_behind_since = case when ${reason}::text is null then null else coalesce(node_behind_since, now()) end
    where network = ${network}`;
}

export class CursorMovedError extends RetryableError {
  constructor(network: string) {
    super(`the ${network} cursor moved under this indexer (another indexer is running?)`);
    this.name = 'CursorMovedError';
  }
}

export interface StoreOptions {
  confirmations: number;
  /** The backend pid of the session holding this indexer's network lock (network-lock.ts). */
  lockPid?: number;
}

/**
 * Locks the network's cursor row for the rest of the transaction and returns it, after checking
 * that this indexer still holds the network (when `lockPid` is given): every transaction that
 * writes chain data begins here, so one that lost its network lock never commits.
 */
export async function lockCursor(
  tx: TransactionSql,
  network: string,
  lockPid: number | undefined,
): Promise<Cursor | undefined> {
  if (lockPid !== undefined) await assertNetworkLock(tx, network, lockPid);
  const [cur] = await tx<
    Cursor[]
  >`select network, chain_id, block_number, block_hash from indexer_cursors where network = ${network} for update`;
  return cur;
}

/**
 * Records why a network's indexer stopped on purpose; /readyz fails while it is set. With
 * `needsResume` (history at stake: a reorg past finality, a node contradicting itself) it outlives
 * restarts until an operator runs `tollgate indexer resume`.
 */
export async function recordHalt(
  sql: Sql,
  network: string,
  reason: string,
  needsResume: boolean,
): Promise<void> {
  await sql`update indexer_cursors set halted_reason = ${reason}, halted_at = now(), halt_needs_resume = ${needsResume}
    where network = ${network}`;
}

/** Lifts a halt of the configuration at start (one that needs an operator's resume stays). */
/** Records the chain the network's node says it runs (sql/0060), or forgets it (null). */
export async function recordNodeChain(
  sql: Sql,
  network: string,
  chain: string | null,
): Promise<void> {
  await sql`update indexer_cursors set node_chain = ${chain} where network = ${network}`;
}

export async function clearHalt(sql: Sql, network: string): Promise<void> {
  await sql`update indexer_cursors set halted_reason = null, halted_at = null
    where network = ${network} and halted_reason is not null and not halt_needs_resume`;
}

/** The halt an operator must lift before the indexer goes on, if any. */
export async function haltAwaitingResume(sql: Sql, network: string): Promise<string | undefined> {
  const [row] = await sql<{ halted_reason: string }[]>`
    select halted_reason from indexer_cursors where network = ${network} and halt_needs_resume and halted_reason is not null`;
  return row?.halted_reason;
}

/**
 * The operator's resume: lifts the network's halt (the running indexer goes on within seconds).
 * With `allowDeepReorg`, its next reorg walk-back may pass the depth limit and the node's
 * finalized block once. Returns the reason of the halt lifted (undefined when it was not halted).
 * Audited as `actor`'s.
 */
export async function resumeIndexer(
  sql: Sql,
  network: string,
  allowDeepReorg: boolean,
  actor: string,
): Promise<{ found: boolean; reason?: string }> {
  const [row] = await sql<{ reason: string | null }[]>`
    update indexer_cursors c set halted_reason = null, halted_at = null, halt_needs_resume = false,
      deep_reorg_allowed = ${allowDeepReorg}
    from (select network, halted_reason from indexer_cursors where network = ${network} for update) old
    where c.network = old.network returning old.halted_reason as reason`;
  if (!row) return { found: false };
  await recordAudit(sql, {
    actor,
    action: 'indexer_resume',
    target: network,
    details: { was_halted: row.reason !== null, allow_deep_reorg: allowDeepReorg },
  });
  return { found: true, reason: row.reason ?? undefined };
}

/** Whether the operator allowed one deep reorg, and using it up. */
export async function takeDeepReorgAllowance(sql: Sql, network: string): Promise<boolean> {
  const rows = await sql`update indexer_cursors set deep_reorg_allowed = false
    where network = ${network} and deep_reorg_allowed returning 1`;
  return rows.length > 0;
}
