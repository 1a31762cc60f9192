import type { Sql } from '../../db/index.js';
import { type EvmBlock, type EvmBlockSource, TracesUnavailable } from '../../chains/evm/client.js';
import { watchNewHeads } from '../../chains/evm/heads.js';
import { networkInfo } from '../../config/networks.js';
import { describeError } from '../../errors.js';
import { Slots } from '../../concurrency.js';
import {
  BACKFILL_TRIES,
  BackfillFailed,
  ChainIndexer,
  IndexerHaltError,
  type ChainIndexerOptions,
} from '../chain-indexer.js';
import {
  type Cursor,
  CursorMovedError,
  clearHalt,
  initCursor,
  readCursor,
  recordHead,
} from '../cursor.js';
import {
  ensureNetworkPartitions,
  type RetracedBlock,
  revertToAncestor,
  storeBackfillBlocks,
  storeRetracedBlocks,
  storeBlocks,
  storedBlockHash,
  storedBlockTime,
  untracedBlocks,
} from './store.js';
import type { BackfillPosition } from '../backfill.js';
import { ProgressMeter } from '../progress.js';

export { IndexerHaltError };

export interface EvmIndexerOptions extends ChainIndexerOptions {
  /**
   * Blocks fetched in parallel and stored in one transaction while catching up (fewer near the
   * head: catchUpBatchSize).
   */
  batchBlocks?: number;
  /** Block fetches in flight at once (each is a block and its receipts). */
  fetchConcurrency?: number;
  /**
   * 'node': a reorg may not replace a block at or below the node's `finalized` block (besides
   * `maxReorgDepth`); 'depth': `maxReorgDepth` alone (dev nodes call every block final).
   */
  finality?: 'node' | 'depth';
  /** A ws(s):// URL of the node: new heads pushed over it wake the indexer (see heads.ts). */
  headsUrl?: string;
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * How many blocks the batch that starts `left` blocks below the head (itself included) takes while
 * catching up: `max`, but near the head half of what is left, and not under a fifth of `max`
 * unless less is left. The batch stored after the node's last answer is then a few blocks, not
 * `max` of them: catching up ends that much sooner after the last block arrives (measured in
 * bench/README, "The last batches of a catch-up"). Far from the head, and at the head (one block),
 * nothing changes.
 */
export function catchUpBatchSize(left: bigint, max: number): number {
  const half = Number((left + 1n) / 2n);
  const least = Math.ceil(max / 5);
  return Number(min(left, BigInt(Math.min(max, Math.max(least, half)))));
}

/**
 * Batches fetched ahead of the one being stored while catching up. Two: the fetches of a batch
 * share the node's slots (`fetchConcurrency`) with the next one's, which fill the slots its last
 * blocks leave, so the node always has that many calls to answer (with one batch ahead it had
 * fewer at each batch's end, and none between a batch's last answer and the next batch's start).
 */
const AHEAD_BATCHES = 2;

/** A batch being fetched ahead: `count` blocks from `from` (a null where the node had none). */
interface Prefetch {
  from: bigint;
  count: number;
  blocks: Promise<(EvmBlock | null)[]>;
  /** Set when the batch is dropped: its fetches not yet started are not made. */
  dropped: { on: boolean };
}

/**
 * Follows one EVM network: from its cursor to the node's head in batches, then block by block.
 * With a ws(s):// node a newHeads subscription wakes it; polling stays as the fallback.
 */
export class EvmIndexer extends ChainIndexer<EvmIndexerOptions> {
  /** The next batches, fetched while the current one is stored (catching up only), in order. */
  private ahead: Prefetch[] = [];
  /** The live follower's fetches in flight (a backfill has slots of its own). */
  private readonly slots = new Slots(this.opts.fetchConcurrency ?? 8);

  constructor(
    sql: Sql,
    private readonly source: EvmBlockSource,
    opts: EvmIndexerOptions,
  ) {
    super(sql, opts);
  }

  protected prepare(): Promise<void> {
    return ensureNetworkPartitions(this.sql, this.opts.network);
  }

  protected storedHash(height: bigint): Promise<string | undefined> {
    return storedBlockHash(this.sql, this.opts.network, height);
  }

  protected nodeHash(height: bigint): Promise<string | null> {
    return this.source.blockHash(height);
  }

  protected storedTime(height: bigint): Promise<number | undefined> {
    return storedBlockTime(this.sql, this.opts.network, height);
  }

  protected async finalizedHeight(): Promise<bigint | undefined> {
    return this.opts.finality === 'depth' ? undefined : this.source.finalizedNumber();
  }

  protected revert(ancestor: bigint, ancestorHash: string, depth: number): Promise<number> {
    return revertToAncestor(
      this.sql,
      this.opts.network,
      ancestor,
      ancestorHash,
      depth,
      this.lockPid,
    );
  }

  private async ensureCursor(): Promise<Cursor> {
    const { network } = this.opts;
    const existing = await readCursor(this.sql, network);
    const chainId = await this.source.chainId();
    this.refuseAnotherNetwork({ chainId }, `chain id ${chainId}`);
    this.setNodeBehindLimit(chainId === networkInfo(network)?.chain_id);
    if (existing) {
      if (Number(existing.chain_id) !== chainId) {
        throw new IndexerHaltError(
          `node for ${network} reports chain id ${chainId}, but this database indexed chain id ${existing.chain_id}`,
        );
      }
      await clearHalt(this.sql, network);
      return existing;
    }
    const start = await this.firstBlock(await this.source.headNumber());
    const below = start - 1n;
    const hash = below >= 0n ? ((await this.source.blockHash(below)) ?? '') : '';
    return initCursor(this.sql, network, chainId, below, hash);
  }

  private subscribeHeads(): () => void {
    if (!this.opts.headsUrl) return () => {};
    this.log.info('following newHeads over WebSocket');
    return watchNewHeads(this.opts.headsUrl, {
      onHead: () => this.wakeUp(),
      // A head may have come while the connection was down.
      onSubscribed: () => this.wakeUp(),
      onError: (err) =>
        this.log.warn(
          { error: describeError(err) },
          'newHeads subscription error; polling meanwhile',
        ),
    });
  }

  protected async follow(): Promise<void> {
    let cursor = await this.retrying(() => this.ensureCursor());
    const unsubscribe = this.subscribeHeads();
    // Backfills run beside the live follower while this indexer holds the network.
    const active = { on: true };
    const backfills = this.runBackfills(active);
    try {
      while (!this.stopping) {
        const woken = this.wakes;
        let head = await this.retrying(() => this.source.headNumber());
        await this.retrying(() => recordHead(this.sql, this.opts.network, head));
        this.noteHead(head);
        let advanced = false;
        while (!this.stopping && BigInt(cursor.block_number) < head) {
          const [from, to] = [cursor, head];
          cursor = await this.retrying(() => this.step(from, to));
          advanced = true;
          head = await this.refreshedHead(head, () => this.source.headNumber());
        }
        // At the head, or ahead of a node that is behind us (checkTip tells which).
        if (!advanced && BigInt(cursor.block_number) >= head) {
          const at = cursor;
          cursor = await this.retrying(() => this.checkTip(at));
        }
        await this.checkNodeBehindAtHead(cursor, head);
        if (!advanced) await this.pause(this.opts.pollIntervalMs, woken);
      }
    } finally {
      unsubscribe();
      active.on = false;
      this.wakeUp();
      await backfills;
    }
  }

  /**
   * Blocks lo..hi from the node through `slots` (a null where it has none; and for a block whose
   * fetch had not started when `dropped` was set).
   */
  private fetchBlocks(
    lo: bigint,
    hi: bigint,
    slots: Slots,
    dropped: { on: boolean } = { on: false },
  ): Promise<(EvmBlock | null)[]> {
    const numbers = Array.from({ length: Number(hi - lo + 1n) }, (_, i) => lo + BigInt(i));
    return Promise.all(
      numbers.map((n) =>
        slots.run(() => (dropped.on ? Promise.resolve(null) : this.source.fetchBlock(n))),
      ),
    );
  }

  /**
   * Blocks lo..hi from the node, retried; a block the node keeps not having fails the backfill.
   * Once `dropped` is set, whatever it has (nobody takes it).
   */
  private async fetchRange(
    id: string,
    lo: bigint,
    hi: bigint,
    slots: Slots,
    dropped: { on: boolean },
  ): Promise<EvmBlock[]> {
    const fetched = await this.readHistory(id, () => this.fetchBlocks(lo, hi, slots, dropped), {
      missing: (got) => {
        const gap = got.findIndex((b) => !b);
        return gap < 0
          ? undefined
          : `the ${this.opts.network} node has no block ${lo + BigInt(gap)}`;
      },
      abandoned: () => dropped.on,
    });
    return fetched as EvmBlock[];
  }

  /**
   * One backfill, from its next block down to its first, in batches: each batch is checked to be
   * a chain (every block on the one below it) whose top is the block the backfill expects (the
   * parent of the block above it), stored in one transaction, and the next batch is fetched while
   * this one is stored. A node whose chain does not lead to the stored block above fails it.
   */
  protected async backfill(start: BackfillPosition, active: { on: boolean }): Promise<void> {
    if (start.kind === 'traces') return this.retrace(start, active);
    const { network } = this.opts;
    const size = BigInt(this.opts.batchBlocks ?? 50);
    const bottom = (hi: bigint) => (hi - size + 1n > start.from ? hi - size + 1n : start.from);
    let at = start;
    // The batches below the one being stored, fetched through this backfill's own slots.
    const slots = new Slots(this.opts.fetchConcurrency ?? 8);
    let ahead: { hi: bigint; blocks: Promise<EvmBlock[]>; dropped: { on: boolean } }[] = [];
    const fetchAhead = (hi: bigint) => {
      const dropped = { on: false };
      const blocks = this.fetchRange(at.id, bottom(hi), hi, slots, dropped);
      blocks.catch(() => {}); // taken in its round, or dropped on a stop
      return { hi, blocks, dropped };
    };
    const dropAhead = () => {
      for (const a of ahead) a.dropped.on = true;
      ahead = [];
    };
    const progress = new ProgressMeter();
    this.log.info(
      { backfill_id: at.id, from_block: Number(at.from), next_block: Number(at.next) },
      'backfill running',
    );
    let relinks = 0;
    try {
      while (!this.stopping && active.on && at.next >= at.from) {
        const hi = at.next;
        const lo = bottom(hi);
        if (ahead[0]?.hi !== hi) dropAhead();
        const batch = ahead.shift() ?? fetchAhead(hi);
        for (let below = bottom(ahead.at(-1)?.hi ?? hi) - 1n; ; below = bottom(below) - 1n) {
          if (ahead.length >= AHEAD_BATCHES || below < at.from) break;
          ahead.push(fetchAhead(below));
        }
        const blocks = await batch.blocks;
        const top = blocks[blocks.length - 1]!;
        if (at.expectHash !== null && top.hash !== at.expectHash)
          throw this.notTheParent(at, hi, top.hash);
        if (blocks.some((b, i) => i > 0 && b.parentHash !== blocks[i - 1]!.hash)) {
          // A reorg while fetching (a range near the head): fetch again, a few times.
          if (++relinks >= BACKFILL_TRIES)
            throw new BackfillFailed(at.id, `blocks ${lo}–${hi} do not form a chain on the node`);
          dropAhead();
          await this.pause(1000);
          continue;
        }
        relinks = 0;
        const position = at;
        const stored = await this.retrying(() =>
          storeBackfillBlocks(this.sql, network, position, blocks, this.lockPid),
        );
        if (!stored) return; // cancelled, or moved by another runner: read it again
        at = { ...at, next: lo - 1n, expectHash: blocks[0]!.parentHash };
        const txs = blocks.reduce((n, b) => n + b.transactions.length, 0);
        this.backfillStored(progress, at, blocks.length, txs);
      }
    } finally {
      dropAhead();
    }
  }

  /**
   * One retrace (backfill.ts, requestRetrace), from its next block down to its first: per batch,
   * up to `batchBlocks` stored blocks left untraced, the call traces of each with transactions
   * read from the node (traceBlock, through the retrace's own slots) and stored in one transaction
   * with the retrace's move (storeRetracedBlocks). The node's block must be the stored one (same
   * hash): where it is not (a reorg the live follower has not taken yet, a node on another chain),
   * the batch is read again a few times a second apart, then the retrace fails naming the block.
   * A block the node cannot trace (no call traces, not the state for it, traces off) fails it too:
   * the blocks above it in the batch are stored first, so what it did stays done.
   */
  private async retrace(start: BackfillPosition, active: { on: boolean }): Promise<void> {
    const { network } = this.opts;
    const size = this.opts.batchBlocks ?? 50;
    const slots = new Slots(this.opts.fetchConcurrency ?? 8);
    const progress = new ProgressMeter();
    let at = start;
    let transfers = 0;
    let mismatches = 0;
    this.log.info(
      { backfill_id: at.id, from_block: Number(at.from), next_block: Number(at.next) },
      'retrace running',
    );
    while (!this.stopping && active.on && at.next >= at.from) {
      const position = at;
      const rows = await this.retrying(() =>
        untracedBlocks(this.sql, network, position.from, position.next, size),
      );
      const reads = await Promise.allSettled(
        rows.map((r) =>
          r.txCount === 0
            ? Promise.resolve(null)
            : slots.run(() =>
                this.retrying(
                  () => this.source.traceBlock(r.number),
                  (err) => err instanceof TracesUnavailable,
                ),
              ),
        ),
      );
      // The highest block the node could not trace ends the batch (and the retrace).
      const stop = reads.findIndex((r) => r.status === 'rejected');
      const usable = stop < 0 ? rows : rows.slice(0, stop);
      const traced: RetracedBlock[] = [];
      let other: string | undefined;
      for (const [i, row] of usable.entries()) {
        const read = (
          reads[i] as PromiseFulfilledResult<Awaited<ReturnType<EvmBlockSource['traceBlock']>>>
        ).value;
        if (row.txCount === 0) continue;
        if (!read || read.hash !== row.hash) {
          other ??= `block ${row.number} is stored as ${row.hash}, but the ${network} node has ${read ? read.hash : 'no such block'}`;
          continue;
        }
        traced.push({ number: row.number, ...read });
      }
      if (other !== undefined) {
        if (++mismatches >= BACKFILL_TRIES)
          throw new BackfillFailed(
            at.id,
            `${other}: the node follows another chain, or the chain reorganised there; blocks above it are traced`,
          );
        await this.pause(1000);
        continue;
      }
      mismatches = 0;
      const failed = stop < 0 ? undefined : (reads[stop] as PromiseRejectedResult).reason;
      if (failed !== undefined && !(failed instanceof TracesUnavailable)) throw failed;
      // Down to the lowest block read; all the way down when no untraced block is left below.
      const lo =
        failed !== undefined
          ? rows[stop]!.number + 1n
          : rows.length < size
            ? at.from
            : rows[rows.length - 1]!.number;
      if (lo <= at.next) {
        const done = await this.retrying(() =>
          storeRetracedBlocks(
            this.sql,
            network,
            position,
            { lo, hi: position.next },
            traced,
            this.lockPid,
          ),
        );
        if (!done) return; // cancelled, or moved by another runner: read it again
        at = { ...at, next: lo - 1n };
        transfers += done.transfers;
        this.backfillStored(
          progress,
          at,
          done.blocks,
          traced.reduce((n, b) => n + b.transactions.length, 0),
        );
      }
      if (failed !== undefined)
        throw new BackfillFailed(at.id, this.untraceable(failed, rows[stop]!.number));
    }
    if (at.next < at.from)
      this.log.info(
        { backfill_id: at.id, internal_transfers: transfers },
        'retrace: internal transfers added',
      );
  }

  /** Why a retrace stops at `block`, for the operator. */
  private untraceable(err: TracesUnavailable, block: bigint): string {
    const { network } = this.opts;
    if (err.reason === 'off')
      return `internal transfers are off for ${network} (TOLLGATE_INTERNAL_TRANSFERS_${network.toUpperCase()}=off): set it to auto to retrace`;
    if (err.reason === 'unsupported')
      return `the ${network} node has no call traces (${err.message}): retrace with a node that has trace_block or debug_traceBlockByNumber`;
    return `the ${network} node cannot trace block ${block} (${err.message}): blocks this old need an archive node; blocks above it are traced`;
  }

  /** Starts fetching up to `batchBlocks` blocks from `from` (at most to `head`; catchUpBatchSize). */
  private fetchBatch(from: bigint, head: bigint): Prefetch {
    const count = catchUpBatchSize(head - from + 1n, this.opts.batchBlocks ?? 50);
    const dropped = { on: false };
    const blocks = this.fetchBlocks(from, from + BigInt(count) - 1n, this.slots, dropped);
    blocks.catch(() => {}); // a prefetch nobody takes (a reorg, a stop) must not go unhandled
    return { from, count, blocks, dropped };
  }

  /** The batch from `from`: the one fetched ahead when it starts there, else a fresh fetch. */
  private takeBatch(from: bigint, head: bigint): Prefetch {
    if (this.ahead[0]?.from === from) return this.ahead.shift()!;
    this.dropAhead();
    return this.fetchBatch(from, head);
  }

  /** Keeps AHEAD_BATCHES batches from `after` (at most to `head`) fetched ahead. */
  private fetchAhead(after: bigint, head: bigint): void {
    if (this.ahead[0] && this.ahead[0].from !== after) this.dropAhead();
    const last = this.ahead.at(-1);
    let from = last ? last.from + BigInt(last.count) : after;
    while (this.ahead.length < AHEAD_BATCHES && from <= head && !this.stopping) {
      const batch = this.fetchBatch(from, head);
      this.ahead.push(batch);
      from += BigInt(batch.count);
    }
  }

  private dropAhead(): void {
    for (const batch of this.ahead) batch.dropped.on = true;
    this.ahead = [];
  }

  /**
   * Indexes the blocks after the cursor, up to `batchBlocks` of them (fetched in parallel, stored
   * in one transaction), or walks back over a reorg. Returns the new cursor.
   * While this batch is stored, the next ones are fetched; each is checked like any other (its
   * first block must sit on the cursor the store before it leaves), so a reorg in between is
   * caught the same way.
   */
  private async step(cursor: Cursor, head: bigint): Promise<Cursor> {
    const next = BigInt(cursor.block_number) + 1n;
    const batch = this.takeBatch(next, head);
    this.fetchAhead(next + BigInt(batch.count), head);
    const fetched = await batch.blocks;
    const first = fetched[0];
    if (!first) return cursor; // the head moved back; the next poll sorts it out
    if (cursor.block_hash !== '' && first.parentHash !== cursor.block_hash)
      return this.parentMismatch(cursor, first.number, first.parentHash);
    // Keep the linked run: a block missing or not on its predecessor (a reorg during the fetch)
    // ends it, and the next step starts there.
    const blocks: EvmBlock[] = [first];
    for (const b of fetched.slice(1)) {
      if (!b || b.parentHash !== blocks[blocks.length - 1]!.hash) break;
      blocks.push(b);
    }
    // Ahead from where this run ends: the batches fetched ahead are dropped when it ends early.
    this.fetchAhead(blocks[blocks.length - 1]!.number + 1n, head);
    const started = performance.now();
    try {
      const moved = await storeBlocks(this.sql, this.opts.network, blocks, cursor, {
        confirmations: this.opts.confirmations,
        lockPid: this.lockPid,
      });
      const txCount = blocks.reduce((n, b) => n + b.transactions.length, 0);
      this.log.debug(
        {
          block_number: Number(blocks[blocks.length - 1]!.number),
          blocks: blocks.length,
          tx_count: txCount,
          duration_ms: Math.round(performance.now() - started),
        },
        'indexed blocks',
      );
      this.noteProgress(blocks[blocks.length - 1]!.number, blocks.length, txCount);
      return moved;
    } catch (err) {
      this.dropAhead();
      if (err instanceof CursorMovedError) {
        this.log.warn('cursor moved under this indexer; re-reading it');
        return this.currentCursor();
      }
      throw err;
    }
  }
}
