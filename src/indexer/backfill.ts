import type { Sql, TransactionSql } from '../db/index.js';
import { PermanentError } from '../errors.js';
import { networkInfo } from '../config/networks.js';
import { recordAudit } from '../audit/index.js';
import { assertNetworkLock } from './network-lock.js';

/**
 * Range backfills (table indexer_backfills, sql/0030): history below where the live indexer
 * began, stored by the network's active indexer beside its live follower (ChainIndexer's
 * runBackfills; evm/indexer.ts in batches, utxo/indexer.ts block by block), from the top of the
 * range down, each batch linked to the block above it. Blocks a
 * backfill stores are history: they feed wallet data, the counterparty graph (AML exposure) and
 * new_wallet, and never fire stream or live AML webhooks.
 */

export interface Backfill {
  id: string;
  network: string;
  from_block: string;
  to_block: string;
  /** The highest block still to store (from_block - 1 once done). */
  next_block: string;
  status: 'running' | 'done' | 'failed' | 'cancelled';
  error: string | null;
  blocks_done: string;
  txs_done: string;
  requested_by: string;
  /** 'blocks': a range backfill; 'traces': a retrace of stored blocks (requestRetrace). */
  kind: BackfillKind;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

/** What a request to backfill got wrong; its message is for the operator as it stands. */
export class BackfillRefused extends PermanentError {
  constructor(message: string) {
    super(message);
    this.name = 'BackfillRefused';
  }
}

export type BackfillKind = 'blocks' | 'traces';

const COLUMNS =
  'id, network, from_block, to_block, next_block, status, error, blocks_done, txs_done, requested_by, kind, created_at, updated_at, finished_at';

export interface BackfillRequest {
  network: string;
  from: bigint;
  to?: bigint;
  requestedBy: string;
}

/**
 * Checks a backfill request against the network's history and node, and records it for the
 * network's active indexer to run. The range ends below the history the network holds
 * (`history_from`): `to` defaults to the block just under it, and a `to` reaching into it is
 * lowered to there (the answer's `note` says so). Refused, with the reason: a network that is not
 * an indexed EVM or Bitcoin-family network or whose indexer never started, `from` beyond the node's head (as the
 * indexer last saw it), nothing left to backfill, and a second backfill of a network while one
 * runs. Needs the database only (the CLI, the dashboard), not the node. Audited as
 * `requestedBy`'s.
 */
export async function requestBackfill(
  sql: Sql,
  req: BackfillRequest,
): Promise<{ backfill: Backfill; note?: string }> {
  const { network } = req;
  const family = networkInfo(network)?.family;
  if (family === undefined) throw new BackfillRefused(`unknown network ${network}`);
  if (family !== 'evm' && family !== 'utxo')
    throw new BackfillRefused(`${network} has no blocks to backfill (labels only)`);
  if (req.from < 0n)
    throw new BackfillRefused(`the first block must be a block number (0 or more)`);
  if (req.to !== undefined && req.to < req.from)
    throw new BackfillRefused(`to block ${req.to} is below from block ${req.from}`);
  const [cursor] = await sql<{ history_from: string | null; head_number: string | null }[]>`
    select history_from, head_number from indexer_cursors where network = ${network}`;
  if (!cursor || cursor.history_from === null || cursor.head_number === null)
    throw new BackfillRefused(
      `the ${network} indexer has not started yet: start it once (it records where its history begins), then backfill below that`,
    );
  const head = BigInt(cursor.head_number);
  if (req.from > head)
    throw new BackfillRefused(
      `from block ${req.from} is beyond the ${network} node's head ${head}`,
    );
  const historyFrom = BigInt(cursor.history_from);
  const top = historyFrom - 1n;
  if (req.from > top)
    throw new BackfillRefused(
      `nothing to backfill: ${network}'s indexed history already reaches block ${historyFrom}`,
    );
  let to = req.to ?? top;
  let note: string | undefined;
  if (to > top) {
    note = `blocks from ${historyFrom} on are indexed already: backfilling ${req.from}–${top}`;
    to = top;
  }
  // The hash block `to` must have: the parent the stored block above it names (none: a gap).
  const [above] = await sql<{ parent_hash: string }[]>`${
    family === 'evm'
      ? sql`select parent_hash from evm_blocks where network = ${network} and number = ${(to + 1n).toString()}`
      : sql`select prev_hash as parent_hash from utxo_blocks where network = ${network} and height = ${(to + 1n).toString()}`
  }`;
  const expect = above?.parent_hash ?? null;
  return recordJob(
    sql,
    req,
    'indexer_backfill',
    () => sql<Backfill[]>`
      insert into indexer_backfills (network, from_block, to_block, next_block, expect_hash, requested_by)
      values (${network}, ${req.from.toString()}, ${to.toString()}, ${to.toString()}, ${expect}, ${req.requestedBy})
      returning ${sql.unsafe(COLUMNS)}`,
    note,
  );
}

/**
 * Inserts a job (`insert`) and audits it as `action` of `req.requestedBy`, or refuses it where
 * another job of the network runs.
 */
async function recordJob(
  sql: Sql,
  req: { network: string; requestedBy: string },
  action: 'indexer_backfill' | 'indexer_retrace',
  insert: () => Promise<Backfill[]>,
  note: string | undefined,
): Promise<{ backfill: Backfill; note?: string }> {
  try {
    const [job] = await insert();
    await recordAudit(sql, {
      actor: req.requestedBy,
      action,
      target: req.network,
      details: { backfill_id: job!.id, from_block: job!.from_block, to_block: job!.to_block },
    });
    return { backfill: job!, ...(note ? { note } : {}) };
  } catch (err) {
    throw await refusedBeside(sql, req.network, err);
  }
}

/**
 * One job per network runs at a time (a backfill or a retrace; sql/0030's unique index): the
 * refusal of a second one, naming the one that runs. Any other error as it was.
 */
async function refusedBeside(sql: Sql, network: string, err: unknown): Promise<unknown> {
  if ((err as { code?: string }).code !== '23505') return err;
  const [running] = await runningBackfills(sql, network);
  const what = running?.kind === 'traces' ? 'retrace' : 'backfill';
  return new BackfillRefused(
    running
      ? `a ${what} of ${network} is running (#${running.id}, blocks ${running.from_block}–${running.to_block}, next ${running.next_block}): wait for it, or cancel it (tollgate indexer backfill cancel ${running.id})`
      : `a backfill or retrace of ${network} is running: wait for it, or cancel it`,
  );
}

export interface RetraceRequest {
  network: string;
  /** Default: the lowest stored block. */
  from?: bigint;
  /** Default: the indexed head (the cursor's block). */
  to?: bigint;
  requestedBy: string;
}

/**
 * Records a retrace for the network's active indexer to run: the stored blocks of from..to that
 * were stored untraced (the node had no call traces, or not the state for the block, or traces
 * were off; or stored before sql/0063) get their call traces read and their internal transfers
 * added, as history (evm/indexer.ts's retrace). For after a move to a node that has traces (an
 * archive node for old blocks). Refused, with the reason: a network that is not an indexed EVM
 * network, from above to, a range with no stored block left untraced, and a second job of the
 * network while one runs. A `to` above the indexed head is lowered to it (the `note` says so).
 * Needs the database only; audited as `requestedBy`'s.
 */
export async function requestRetrace(
  sql: Sql,
  req: RetraceRequest,
): Promise<{ backfill: Backfill; note?: string }> {
  const { network } = req;
  const family = networkInfo(network)?.family;
  if (family === undefined) throw new BackfillRefused(`unknown network ${network}`);
  if (family !== 'evm')
    throw new BackfillRefused(
      `${network} has no call traces to read (internal transfers are read on EVM networks)`,
    );
  if ((req.from ?? 0n) < 0n || (req.to ?? 0n) < 0n)
    throw new BackfillRefused(`blocks are numbered from 0`);
  const [cursor] = await sql<{ block_number: string; lowest: string | null }[]>`
    select block_number, (select min(number) from evm_blocks where network = ${network}) as lowest
    from indexer_cursors where network = ${network}`;
  if (!cursor || cursor.lowest === null)
    throw new BackfillRefused(`the ${network} indexer has stored no block yet: nothing to retrace`);
  const top = BigInt(cursor.block_number);
  const from = req.from ?? BigInt(cursor.lowest);
  let to = req.to ?? top;
  let note: string | undefined;
  if (to > top) {
    note = `the indexed head is block ${top}: retracing ${from}–${top}`;
    to = top;
  }
  if (from > to)
    throw new BackfillRefused(
      req.to !== undefined && req.to < from
        ? `to block ${req.to} is below from block ${from}`
        : `from block ${from} is above the indexed head ${top}`,
    );
  const [untraced] = await sql<{ number: string }[]>`
    select number from evm_blocks where network = ${network} and number between ${from.toString()} and ${to.toString()}
      and traced is not true order by number desc limit 1`;
  if (!untraced)
    throw new BackfillRefused(
      `nothing to retrace: every stored ${network} block in ${from}–${to} has its call traces read`,
    );
  return recordJob(
    sql,
    req,
    'indexer_retrace',
    () => sql<Backfill[]>`
      insert into indexer_backfills (network, kind, from_block, to_block, next_block, requested_by)
      values (${network}, 'traces', ${from.toString()}, ${to.toString()}, ${untraced.number}, ${req.requestedBy})
      returning ${sql.unsafe(COLUMNS)}`,
    note,
  );
}

export /** Blocks done of a backfill, its rate since it began and the time left at that rate. */
function backfillProgress(b: Backfill) {
  const total = BigInt(b.to_block) - BigInt(b.from_block) + 1n;
  const left = BigInt(b.next_block) - BigInt(b.from_block) + 1n;
  const done = total - (left > 0n ? left : 0n);
  const seconds = (new Date(b.updated_at).getTime() - new Date(b.created_at).getTime()) / 1000;
  const perS = seconds > 0 ? Number(b.blocks_done) / seconds : 0;
  const etaS =
    b.status === 'running' && perS > 0 && left > 0n ? Math.round(Number(left) / perS) : undefined;
  return { total, done, perS, etaS };
}

export async function listBackfills(sql: Sql, limit = 50): Promise<Backfill[]> {
  return sql<Backfill[]>`
    select ${sql.unsafe(COLUMNS)} from indexer_backfills order by id desc limit ${limit}`;
}

export async function runningBackfills(sql: Sql, network?: string): Promise<Backfill[]> {
  return network
    ? sql<
        Backfill[]
      >`select ${sql.unsafe(COLUMNS)} from indexer_backfills where status = 'running' and network = ${network}`
    : sql<
        Backfill[]
      >`select ${sql.unsafe(COLUMNS)} from indexer_backfills where status = 'running' order by id`;
}

export async function getBackfill(sql: Sql, id: string): Promise<Backfill | undefined> {
  if (!/^\d{1,18}$/.test(id)) return undefined;
  const [row] = await sql<Backfill[]>`
    select ${sql.unsafe(COLUMNS)} from indexer_backfills where id = ${id}`;
  return row;
}

/** Stops a running backfill after the batch in hand (what it stored stays); audited as `actor`'s. */
export async function cancelBackfill(
  sql: Sql,
  id: string,
  actor: string,
): Promise<Backfill | undefined> {
  if (!/^\d{1,18}$/.test(id)) return undefined;
  const [row] = await sql<Backfill[]>`
    update indexer_backfills set status = 'cancelled', finished_at = now(), updated_at = now()
    where id = ${id} and status = 'running' returning ${sql.unsafe(COLUMNS)}`;
  if (row)
    await recordAudit(sql, {
      actor,
      action: 'indexer_backfill',
      target: row.network,
      details: { backfill_id: row.id, cancelled: true },
    });
  return row;
}

export async function failBackfill(sql: Sql, id: string, error: string): Promise<void> {
  await sql`update indexer_backfills set status = 'failed', error = ${error}, finished_at = now(), updated_at = now()
    where id = ${id} and status = 'running'`;
}

/** A running backfill as its runner holds it: where it stands and what the next block must be. */
export interface BackfillPosition {
  id: string;
  from: bigint;
  next: bigint;
  /** Null: the block above is not stored (a gap), the node's block is taken. */
  expectHash: string | null;
  kind: BackfillKind;
}

export async function backfillPosition(
  sql: Sql,
  network: string,
): Promise<BackfillPosition | undefined> {
  const [row] = await sql<
    {
      id: string;
      from_block: string;
      next_block: string;
      expect_hash: string | null;
      kind: BackfillKind;
    }[]
  >`
    select id, from_block, next_block, expect_hash, kind from indexer_backfills where network = ${network} and status = 'running'`;
  return row
    ? {
        id: row.id,
        from: BigInt(row.from_block),
        next: BigInt(row.next_block),
        expectHash: row.expect_hash,
        kind: row.kind,
      }
    : undefined;
}

/** What a backfill's batch stored: blocks lo..hi, the parent of lo, and what was new. */
export interface BackfillBatch {
  lo: bigint;
  hi: bigint;
  /** Null for a retrace (its blocks are stored already; nothing is expected below). */
  parentHash: string | null;
  blocks: number;
  txs: number;
}

/**
 * A backfill's batch in one transaction (every family's): the network lock still held by this
 * indexer (`lockPid`), the backfill still where its runner left it (not cancelled, not moved by
 * another runner), then `store` writes what is not stored yet and says what the batch was, and
 * the backfill moves below it. False: cancelled or moved meanwhile, nothing stored.
 */
export async function storeBackfillBatch(
  sql: Sql,
  network: string,
  at: BackfillPosition,
  lockPid: number | undefined,
  store: (tx: TransactionSql) => Promise<BackfillBatch>,
): Promise<boolean> {
  return sql.begin(async (tx) => {
    if (lockPid !== undefined) await assertNetworkLock(tx, network, lockPid);
    const [row] = await tx<{ next_block: string; status: string }[]>`
      select next_block, status from indexer_backfills where id = ${at.id} for update`;
    if (row?.status !== 'running' || BigInt(row.next_block) !== at.next) return false;
    await advanceBackfill(tx, network, at, await store(tx));
    return true;
  }) as Promise<boolean>;
}

/**
 * In the batch's transaction, after its blocks lo..hi are stored: moves the backfill below them
 * and, when they join the network's indexed history (hi is just under `history_from`), lowers
 * `history_from` to lo, and on through earlier backfills' stored ranges that now join it.
 */
async function advanceBackfill(
  tx: TransactionSql,
  network: string,
  at: BackfillPosition,
  batch: BackfillBatch,
): Promise<void> {
  const done = batch.lo <= at.from;
  await tx`update indexer_backfills set next_block = ${(batch.lo - 1n).toString()}, expect_hash = ${batch.parentHash},
      blocks_done = blocks_done + ${batch.blocks}, txs_done = txs_done + ${batch.txs}, updated_at = now(),
      status = ${done ? 'done' : 'running'}, finished_at = ${done ? tx`now()` : null}
    where id = ${at.id}`;
  // A retrace reads blocks already stored: the history's reach is as it was.
  if (at.kind === 'traces') return;
  const joined = await tx`update indexer_cursors set history_from = ${batch.lo.toString()}
    where network = ${network} and history_from = ${(batch.hi + 1n).toString()} returning 1`;
  if (joined.length === 0) return;
  for (let from = batch.lo; ; ) {
    // An earlier backfill's stored range [next_block + 1, to_block] just under the history.
    const [below] = await tx<{ low: string }[]>`
      select next_block + 1 as low from indexer_backfills
      where network = ${network} and to_block = ${(from - 1n).toString()} and next_block < to_block
      order by next_block limit 1`;
    if (!below) return;
    from = BigInt(below.low);
    await tx`update indexer_cursors set history_from = ${from.toString()} where network = ${network}`;
  }
}
