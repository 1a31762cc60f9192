import type { Sql } from '../../db/index.js';
import type { EvmBlock, EvmBlockSource } from '../../chains/evm/client.js';
import { watchNewHeads } from '../../chains/evm/heads.js';
import { describeError } from '../../errors.js';
import { mapWithConcurrency } from '../../concurrency.js';
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
  revertToAncestor,
  storeBackfillBlocks,
  storeBlocks,
  storedBlockHash,
} from './store.js';
import type { BackfillPosition } from '../backfill.js';
import { ProgressMeter } from '../progress.js';

export { IndexerHaltError };

export interface EvmIndexerOptions extends ChainIndexerOptions {
  /** Blocks fetched in parallel and stored in one transaction while catching up (1 at the head). */
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

/** A batch being fetched ahead: blocks `from`… (a null where the node had none). */
interface Prefetch {
  from: bigint;
  blocks: Promise<(EvmBlock | null)[]>;
}

/**
 * Follows one EVM network: from its cursor to the node's head in batches, then block by block.
 * With a ws(s):// node a newHeads subscription wakes it; polling stays as the fallback.
 */
export class EvmIndexer extends ChainIndexer<EvmIndexerOptions> {
  /** The next batch, fetched while the current one is stored (catching up only). */
  private ahead: Prefetch | undefined;

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
        const head = await this.retrying(() => this.source.headNumber());
        await this.retrying(() => recordHead(this.sql, this.opts.network, head));
        this.noteHead(head);
        let advanced = false;
        while (!this.stopping && BigInt(cursor.block_number) < head) {
          const from = cursor;
          cursor = await this.retrying(() => this.step(from, head));
          advanced = true;
        }
        if (!advanced && BigInt(cursor.block_number) === head) {
          const at = cursor;
          cursor = await this.retrying(() => this.checkTip(at));
        }
        if (!advanced) await this.pause(this.opts.pollIntervalMs, woken);
      }
    } finally {
      unsubscribe();
      active.on = false;
      this.wakeUp();
      await backfills;
    }
  }

  /** Blocks lo..hi from the node, `fetchConcurrency` at a time (a null where it has none). */
  private fetchBlocks(lo: bigint, hi: bigint): Promise<(EvmBlock | null)[]> {
    const numbers = Array.from({ length: Number(hi - lo + 1n) }, (_, i) => lo + BigInt(i));
    return mapWithConcurrency(numbers, this.opts.fetchConcurrency ?? 8, (n) =>
      this.source.fetchBlock(n),
    );
  }

  /** Blocks lo..hi from the node, retried; a block the node keeps not having fails the backfill. */
  private async fetchRange(id: string, lo: bigint, hi: bigint): Promise<EvmBlock[]> {
    for (let attempt = 1; ; attempt++) {
      const fetched = await this.retrying(() => this.fetchBlocks(lo, hi));
      const gap = fetched.findIndex((b) => !b);
      if (gap < 0) return fetched as EvmBlock[];
      const missing = lo + BigInt(gap);
      if (attempt >= BACKFILL_TRIES)
        throw new BackfillFailed(id, `the ${this.opts.network} node has no block ${missing}`);
      await this.pause(1000);
    }
  }

  /**
   * One backfill, from its next block down to its first, in batches: each batch is checked to be
   * a chain (every block on the one below it) whose top is the block the backfill expects (the
   * parent of the block above it), stored in one transaction, and the next batch is fetched while
   * this one is stored. A node whose chain does not lead to the stored block above fails it.
   */
  protected async backfill(start: BackfillPosition, active: { on: boolean }): Promise<void> {
    const { network } = this.opts;
    const size = BigInt(this.opts.batchBlocks ?? 50);
    const bottom = (hi: bigint) => (hi - size + 1n > start.from ? hi - size + 1n : start.from);
    let at = start;
    let ahead: { hi: bigint; blocks: Promise<EvmBlock[]> } | undefined;
    const progress = new ProgressMeter();
    this.log.info(
      { backfill_id: at.id, from_block: Number(at.from), next_block: Number(at.next) },
      'backfill running',
    );
    let relinks = 0;
    while (!this.stopping && active.on && at.next >= at.from) {
      const hi = at.next;
      const lo = bottom(hi);
      const pending = ahead?.hi === hi ? ahead.blocks : this.fetchRange(at.id, lo, hi);
      ahead = undefined;
      const blocks = await pending;
      const top = blocks[blocks.length - 1]!;
      if (at.expectHash !== null && top.hash !== at.expectHash)
        throw this.notTheParent(at, hi, top.hash);
      if (blocks.some((b, i) => i > 0 && b.parentHash !== blocks[i - 1]!.hash)) {
        // A reorg while fetching (a range near the head): fetch again, a few times.
        if (++relinks >= BACKFILL_TRIES)
          throw new BackfillFailed(at.id, `blocks ${lo}–${hi} do not form a chain on the node`);
        await this.pause(1000);
        continue;
      }
      relinks = 0;
      if (lo - 1n >= at.from) {
        const nextHi = lo - 1n;
        ahead = { hi: nextHi, blocks: this.fetchRange(at.id, bottom(nextHi), nextHi) };
        ahead.blocks.catch(() => {}); // taken next round, or dropped on a stop
      }
      const position = at;
      const stored = await this.retrying(() =>
        storeBackfillBlocks(this.sql, network, position, blocks, this.lockPid),
      );
      if (!stored) return; // cancelled, or moved by another runner: read it again
      at = { ...at, next: lo - 1n, expectHash: blocks[0]!.parentHash };
      const txs = blocks.reduce((n, b) => n + b.transactions.length, 0);
      this.backfillStored(progress, at, blocks.length, txs);
    }
  }

  /** Starts fetching up to `batchBlocks` blocks from `from` (at most to `head`). */
  private fetchBatch(from: bigint, head: bigint): Prefetch {
    const count = Number(min(head - from + 1n, BigInt(this.opts.batchBlocks ?? 50)));
    const blocks = this.fetchBlocks(from, from + BigInt(count) - 1n);
    blocks.catch(() => {}); // a prefetch nobody takes (a reorg, a stop) must not go unhandled
    return { from, blocks };
  }

  /** The batch from `from`: the one fetched ahead when it starts there, else a fresh fetch. */
  private takeBatch(from: bigint, head: bigint): Promise<(EvmBlock | null)[]> {
    const ahead = this.ahead;
    this.ahead = undefined;
    return (ahead?.from === from ? ahead : this.fetchBatch(from, head)).blocks;
  }

  /**
   * Indexes the blocks after the cursor, up to `batchBlocks` of them (fetched in parallel, stored
   * in one transaction), or walks back over a reorg. Returns the new cursor.
   * While this batch is stored, the next one is fetched; it is checked like any other (its first
   * block must sit on the cursor this store leaves), so a reorg in between is caught the same way.
   */
  private async step(cursor: Cursor, head: bigint): Promise<Cursor> {
    const next = BigInt(cursor.block_number) + 1n;
    const fetched = await this.takeBatch(next, head);
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
    const after = blocks[blocks.length - 1]!.number + 1n;
    if (after <= head && !this.stopping) this.ahead = this.fetchBatch(after, head);
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
      this.ahead = undefined;
      if (err instanceof CursorMovedError) {
        this.log.warn('cursor moved under this indexer; re-reading it');
        return this.currentCursor();
      }
      throw err;
    }
  }
}
