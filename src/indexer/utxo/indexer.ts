import { setTimeout as sleep } from 'node:timers/promises';
import type { Sql } from '../../db/index.js';
import { parseBlock } from '../../chains/utxo/block.js';
import type { UtxoRpc } from '../../chains/utxo/client.js';
import { networkInfo } from '../../config/networks.js';
import { describeError } from '../../errors.js';
import { log } from '../../log.js';
import { IndexerHaltError } from '../evm/indexer.js';
import { type Cursor, CursorMovedError, clearHalt, initCursor, readCursor, recordHalt, recordHead } from '../evm/store.js';
import { resolvePrevouts } from './prevouts.js';
import { ensureUtxoPartitions, revertUtxoToAncestor, storedUtxoBlockHash, storeUtxoBlock } from './store.js';

export interface UtxoIndexerOptions {
  network: string;
  confirmations: number;
  startBlock: 'head' | number;
  pollIntervalMs: number;
  maxAttempts: number;
  /** How far back a reorg may reach before the indexer stops instead of guessing. */
  maxReorgDepth: number;
}

/** How often the indexer logs its progress (blocks/s, lag) while it is catching up. */
const PROGRESS_LOG_INTERVAL_MS = 10_000;

/** UTXO networks have no chain id; their cursor row carries 0. */
const UTXO_CHAIN_ID = 0;

/**
 * Follows one Bitcoin-family network (bitcoin, litecoin, doge) block by block from its cursor
 * to the node's head, then polls. As with EVM, one indexer per network works at a time (a
 * Postgres advisory lock) and a second one stands by; a reorg deeper than maxReorgDepth halts it.
 */
export class UtxoIndexer {
  private stopping = false;
  private wake: (() => void) | undefined;
  private progress = { since: performance.now(), blocks: 0, txs: 0 };
  private done: Promise<void> | undefined;
  private readonly decimals: number;
  readonly log;

  constructor(private readonly sql: Sql, private readonly rpc: UtxoRpc, private readonly opts: UtxoIndexerOptions) {
    this.log = log.child({ network: opts.network, role: 'indexer' });
    this.decimals = networkInfo(opts.network)?.decimals ?? 8;
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
    await ensureUtxoPartitions(this.sql, network);
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
    if ((await this.rpc.hasTxIndex()) === false) this.log.warn('the node runs without -txindex: coins spent from before the start block cannot be resolved');
    const existing = await readCursor(this.sql, network);
    if (existing) {
      await clearHalt(this.sql, network);
      return existing;
    }
    const start = startBlock === 'head' ? await this.rpc.headHeight() : BigInt(startBlock);
    const below = start - 1n;
    const hash = below >= 0n ? (await this.rpc.blockHash(below)) ?? '' : '';
    this.log.info({ start_block: start.toString() }, 'first start: indexing from block');
    return initCursor(this.sql, network, UTXO_CHAIN_ID, below, hash);
  }

  private async follow(): Promise<void> {
    let cursor = await this.retrying(() => this.ensureCursor());
    while (!this.stopping) {
      const head = await this.retrying(() => this.rpc.headHeight());
      await this.retrying(() => recordHead(this.sql, this.opts.network, head));
      let advanced = false;
      while (!this.stopping && BigInt(cursor.block_number) < head) {
        const from = cursor;
        cursor = await this.retrying(() => this.step(from));
        if (cursor === from) break; // the node has no block there after all: poll again
        advanced = true;
        this.noteProgress(BigInt(cursor.block_number), head);
      }
      // A branch that is as long as ours, not longer, shows only as another block at our tip.
      if (!advanced && !this.stopping && (await this.retrying(() => this.tipReplaced(cursor)))) {
        const from = cursor;
        cursor = await this.retrying(async () => {
          await this.handleReorg(from);
          return (await readCursor(this.sql, this.opts.network))!;
        });
        advanced = true;
      }
      if (!advanced) await this.pause(this.opts.pollIntervalMs);
    }
  }

  /** The node has another block at the cursor's height. (No block there: a node behind us; wait.) */
  private async tipReplaced(cursor: Cursor): Promise<boolean> {
    if (cursor.block_hash === '' || BigInt(cursor.block_number) < 0n) return false;
    const hash = await this.rpc.blockHash(BigInt(cursor.block_number));
    return hash !== null && hash !== cursor.block_hash;
  }

  /** Indexes the block after the cursor, or walks back over a reorg. Returns the new cursor. */
  private async step(cursor: Cursor): Promise<Cursor> {
    const next = BigInt(cursor.block_number) + 1n;
    const hash = await this.rpc.blockHash(next);
    const raw = hash === null ? null : await this.rpc.block(hash);
    if (!raw) return cursor; // the head moved back; the next poll sorts it out
    if (cursor.block_hash !== '' && (raw.previousblockhash ?? '') !== cursor.block_hash) {
      await this.handleReorg(cursor);
      return (await readCursor(this.sql, this.opts.network))!;
    }
    const started = performance.now();
    const block = await resolvePrevouts(this.sql, this.rpc, this.opts.network, parseBlock(raw, this.decimals), this.decimals);
    try {
      const moved = await storeUtxoBlock(this.sql, this.opts.network, block, cursor, { confirmations: this.opts.confirmations, maxAttempts: this.opts.maxAttempts });
      this.log.debug({ block_number: Number(block.height), hash: block.hash, tx_count: block.transactions.length, duration_ms: Math.round(performance.now() - started) }, 'indexed block');
      this.progress.blocks += 1;
      this.progress.txs += block.transactions.length;
      return moved;
    } catch (err) {
      if (err instanceof CursorMovedError) {
        this.log.warn('cursor moved under this indexer; re-reading it');
        return (await readCursor(this.sql, this.opts.network))!;
      }
      throw err;
    }
  }

  private noteProgress(height: bigint, head: bigint): void {
    const p = this.progress;
    const elapsed_s = (performance.now() - p.since) / 1000;
    if (elapsed_s * 1000 < PROGRESS_LOG_INTERVAL_MS) return;
    const round = (x: number) => Math.round(x * 10) / 10;
    this.log.info({ block_number: Number(height), blocks: p.blocks, blocks_per_s: round(p.blocks / elapsed_s), tx_per_s: round(p.txs / elapsed_s), lag_blocks: Number(head > height ? head - height : 0n) }, 'indexer progress');
    this.progress = { since: performance.now(), blocks: 0, txs: 0 };
  }

  /** Walks back from the cursor to the highest block the node still has; halts past maxReorgDepth. */
  private async handleReorg(cursor: Cursor): Promise<void> {
    const { network, maxReorgDepth } = this.opts;
    let n = BigInt(cursor.block_number);
    for (let depth = 1; depth <= maxReorgDepth; depth++) {
      n -= 1n;
      if (n < 0n) break;
      const stored = await storedUtxoBlockHash(this.sql, network, n);
      const canonical = await this.retrying(() => this.rpc.blockHash(n));
      if (stored === undefined || stored === canonical) {
        // Common ancestor found (or the start of what we hold, which the node agrees on by construction).
        const hash = stored ?? canonical ?? '';
        const retractions = await revertUtxoToAncestor(this.sql, network, n, hash, depth, this.opts.maxAttempts);
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
