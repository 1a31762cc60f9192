import { setTimeout as sleep } from 'node:timers/promises';
import type { Sql } from '../../db/index.js';
import type { EvmBlock, EvmBlockSource } from '../../chains/evm/client.js';
import { describeError } from '../../errors.js';
import { mapWithConcurrency } from '../../concurrency.js';
import { log } from '../../log.js';
import { type Cursor, CursorMovedError, clearHalt, ensureNetworkPartitions, recordHalt, initCursor, readCursor, recordHead, revertToAncestor, storeBlocks, storedBlockHash } from './store.js';

/** An error the indexer must stop on rather than retry (a reorg deeper than allowed, a wrong chain). */
export class IndexerHaltError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IndexerHaltError';
  }
}

export interface EvmIndexerOptions {
  network: string;
  confirmations: number;
  startBlock: 'head' | number;
  pollIntervalMs: number;
  maxAttempts: number;
  /** How far back a reorg may reach before the indexer stops instead of guessing. */
  maxReorgDepth: number;
  /** Blocks fetched in parallel and stored in one transaction while catching up (1 at the head). */
  batchBlocks?: number;
  /** Block fetches in flight at once (each is a block and its receipts). */
  fetchConcurrency?: number;
}

/**
 * Follows one EVM network: block by block from its cursor to the node's head, then polls.
 * Only one indexer per network works at a time (a Postgres advisory lock); a second one waits
 * as a standby and takes over when the first stops.
 */
const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** How often the indexer logs its progress (blocks/s, tx/s, lag) while it is indexing. */
const PROGRESS_LOG_INTERVAL_MS = 10_000;

export class EvmIndexer {
  private stopping = false;
  private progress = { since: performance.now(), blocks: 0, txs: 0, head: 0n };
  private wake: (() => void) | undefined;
  private done: Promise<void> | undefined;
  readonly log;

  constructor(private readonly sql: Sql, private readonly source: EvmBlockSource, private readonly opts: EvmIndexerOptions) {
    this.log = log.child({ network: opts.network, role: 'indexer' });
  }

  start(): void {
    this.done = this.run().catch((err) => {
      if (this.stopping) return;
      this.log.fatal({ error: describeError(err) }, 'indexer halted');
      if (err instanceof IndexerHaltError) {
        recordHalt(this.sql, this.opts.network, err.message).catch((e) => this.log.error({ error: describeError(e) }, 'could not record the halt'));
      }
    });
  }

  /** Finishes the block in hand, then returns. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.done;
  }

  private async pause(ms: number): Promise<void> {
    if (this.stopping) return;
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      this.wake = () => { clearTimeout(t); resolve(); };
    });
    this.wake = undefined;
  }

  private async run(): Promise<void> {
    const { network } = this.opts;
    await ensureNetworkPartitions(this.sql, network);
    const lockConn = await this.sql.reserve();
    try {
      let announced = false;
      while (!this.stopping) {
        const [got] = await lockConn`select pg_try_advisory_lock(hashtext(${'tollgate_indexer:' + network})) as ok`;
        if (got!.ok) break;
        if (!announced) this.log.info('another indexer holds this network; standing by');
        announced = true;
        await this.pause(2000);
      }
      if (this.stopping) return;
      this.log.info('indexer active');
      await this.follow();
    } finally {
      await lockConn`select pg_advisory_unlock_all()`.catch(() => {});
      lockConn.release();
      this.log.info('indexer stopped');
    }
  }

  private async ensureCursor(): Promise<Cursor> {
    const { network, startBlock } = this.opts;
    const existing = await readCursor(this.sql, network);
    const chainId = await this.source.chainId();
    if (existing) {
      if (Number(existing.chain_id) !== chainId) {
        throw new IndexerHaltError(`node for ${network} reports chain id ${chainId}, but this database indexed chain id ${existing.chain_id}`);
      }
      await clearHalt(this.sql, network);
      return existing;
    }
    const start = startBlock === 'head' ? await this.source.headNumber() : BigInt(startBlock);
    const below = start - 1n;
    const hash = below >= 0n ? (await this.source.blockHash(below)) ?? '' : '';
    this.log.info({ start_block: start.toString(), chain_id: chainId }, 'first start: indexing from block');
    return initCursor(this.sql, network, chainId, below, hash);
  }

  /**
   * With a ws(s):// node, a newHeads subscription wakes the loop the moment a block arrives;
   * polling goes on beside it as the fallback (and is all there is over http).
   */
  private subscribeHeads(): () => void {
    if (this.source.client.transport.type !== 'webSocket') return () => {};
    this.log.info('following newHeads over WebSocket');
    return this.source.client.watchBlockNumber({
      emitOnBegin: false,
      onBlockNumber: () => this.wake?.(),
      onError: (err) => this.log.warn({ error: describeError(err) }, 'newHeads subscription error; polling meanwhile'),
    });
  }

  private async follow(): Promise<void> {
    const cursor = await this.retrying(() => this.ensureCursor());
    const unsubscribe = this.subscribeHeads();
    try {
      await this.followFrom(cursor);
    } finally {
      unsubscribe();
    }
  }

  private async followFrom(start: Cursor): Promise<void> {
    let cursor = start;
    while (!this.stopping) {
      const head = await this.retrying(() => this.source.headNumber());
      await this.retrying(() => recordHead(this.sql, this.opts.network, head));
      this.progress.head = head;
      let advanced = false;
      while (!this.stopping && BigInt(cursor.block_number) < head) {
        const from = cursor;
        cursor = await this.retrying(() => this.step(from, head));
        advanced = true;
      }
      if (!advanced && BigInt(cursor.block_number) === head) cursor = await this.retrying(() => this.checkTip(cursor));
      if (!advanced) await this.pause(this.opts.pollIntervalMs);
    }
  }

  /**
   * At the head, the node's block at our tip must still be ours: a reorg onto a branch of the
   * same length shows nowhere else until the next block. (A node behind us is waited for.)
   */
  private async checkTip(cursor: Cursor): Promise<Cursor> {
    if (cursor.block_hash === '') return cursor;
    const hash = await this.source.blockHash(BigInt(cursor.block_number));
    if (hash === null || hash === cursor.block_hash) return cursor;
    this.log.warn({ block_number: Number(cursor.block_number), node_hash: hash, cursor_hash: cursor.block_hash }, 'tip replaced at the same height: reorg');
    await this.handleReorg(cursor);
    return (await readCursor(this.sql, this.opts.network))!;
  }

  /**
   * Indexes the blocks after the cursor, up to `batchBlocks` of them (fetched in parallel, stored
   * in one transaction), or walks back over a reorg. Returns the new cursor.
   */
  private async step(cursor: Cursor, head: bigint): Promise<Cursor> {
    const next = BigInt(cursor.block_number) + 1n;
    const count = Number(min(head - next + 1n, BigInt(this.opts.batchBlocks ?? 50)));
    const numbers = Array.from({ length: count }, (_, i) => next + BigInt(i));
    const fetched = await this.retrying(() => mapWithConcurrency(numbers, this.opts.fetchConcurrency ?? 8, (n) => this.source.fetchBlock(n)));
    const first = fetched[0];
    if (!first) return cursor; // the head moved back; the next poll sorts it out
    if (cursor.block_hash !== '' && first.parentHash !== cursor.block_hash) {
      this.log.warn({ block_number: Number(first.number), parent_hash: first.parentHash, cursor_hash: cursor.block_hash }, 'parent hash mismatch: reorg');
      await this.handleReorg(cursor);
      await this.pause(this.opts.pollIntervalMs); // a node that keeps contradicting itself must not make us spin
      return (await readCursor(this.sql, this.opts.network))!;
    }
    // Keep the linked run: a block missing or not on its predecessor (a reorg during the fetch)
    // ends it, and the next step starts there.
    const blocks: EvmBlock[] = [first];
    for (const b of fetched.slice(1)) {
      if (!b || b.parentHash !== blocks[blocks.length - 1]!.hash) break;
      blocks.push(b);
    }
    const started = performance.now();
    try {
      const moved = await storeBlocks(this.sql, this.opts.network, blocks, cursor, { confirmations: this.opts.confirmations, maxAttempts: this.opts.maxAttempts });
      const txCount = blocks.reduce((n, b) => n + b.transactions.length, 0);
      this.log.debug({ block_number: Number(blocks[blocks.length - 1]!.number), blocks: blocks.length, tx_count: txCount, duration_ms: Math.round(performance.now() - started) }, 'indexed blocks');
      this.noteProgress(blocks[blocks.length - 1]!.number, blocks.length, txCount);
      return moved;
    } catch (err) {
      if (err instanceof CursorMovedError) {
        this.log.warn('cursor moved under this indexer; re-reading it');
        return (await readCursor(this.sql, this.opts.network))!;
      }
      throw err;
    }
  }

  private noteProgress(blockNumber: bigint, blockCount: number, txCount: number): void {
    const p = this.progress;
    p.blocks += blockCount;
    p.txs += txCount;
    const elapsed = performance.now() - p.since;
    if (elapsed < PROGRESS_LOG_INTERVAL_MS) return;
    const lag = p.head > blockNumber ? p.head - blockNumber : 0n;
    const blocksPerS = p.blocks / (elapsed / 1000);
    this.log.info({
      block_number: Number(blockNumber),
      blocks: p.blocks,
      blocks_per_s: Math.round(blocksPerS * 10) / 10,
      tx_per_s: Math.round((p.txs / (elapsed / 1000)) * 10) / 10,
      lag_blocks: Number(lag),
      eta_s: lag > 0n && blocksPerS > 0 ? Math.round(Number(lag) / blocksPerS) : 0,
    }, 'indexer progress');
    this.progress = { since: performance.now(), blocks: 0, txs: 0, head: p.head };
  }

  private async handleReorg(cursor: Cursor): Promise<void> {
    const { network, maxReorgDepth } = this.opts;
    let n = BigInt(cursor.block_number);
    for (let depth = 1; depth <= maxReorgDepth; depth++) {
      n -= 1n;
      if (n < 0n) break;
      const stored = await storedBlockHash(this.sql, network, n);
      const canonical = await this.retrying(() => this.source.blockHash(n));
      this.log.debug({ block_number: Number(n), stored_hash: stored ?? null, canonical_hash: canonical }, 'reorg walk-back');
      if (stored === undefined || stored === canonical) {
        // Common ancestor found (or the start of what we hold, which the node agrees on by construction).
        const hash = stored ?? canonical ?? '';
        const retractions = await revertToAncestor(this.sql, network, n, hash, depth, this.opts.maxAttempts);
        this.log.warn({ ancestor_block: Number(n), depth_blocks: depth, retractions }, 'reorg: reverted to common ancestor');
        return;
      }
    }
    throw new IndexerHaltError(`reorg on ${network} deeper than ${maxReorgDepth} blocks; refusing to continue`);
  }

  /** Retries RPC and database failures with backoff until they pass or the indexer stops. */
  private async retrying<T>(fn: () => Promise<T>): Promise<T> {
    let delay = 250;
    for (;;) {
      try {
        return await fn();
      } catch (err) {
        if (this.stopping || err instanceof IndexerHaltError) throw err;
        this.log.warn({ error: describeError(err), retry_in_ms: delay }, 'indexer call failed; retrying');
        await sleep(delay);
        delay = Math.min(delay * 2, 10_000);
      }
    }
  }
}
