import type { Sql } from '../../db/index.js';
import type { EvmBlock, EvmBlockSource } from '../../chains/evm/client.js';
import { describeError } from '../../errors.js';
import { mapWithConcurrency } from '../../concurrency.js';
import { ChainIndexer, IndexerHaltError, type ChainIndexerOptions } from '../chain-indexer.js';
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
  storeBlocks,
  storedBlockHash,
} from './store.js';

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
    const { network, startBlock } = this.opts;
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
    const start = startBlock === 'head' ? await this.source.headNumber() : BigInt(startBlock);
    const below = start - 1n;
    const hash = below >= 0n ? ((await this.source.blockHash(below)) ?? '') : '';
    this.log.info(
      { start_block: start.toString(), chain_id: chainId },
      'first start: indexing from block',
    );
    return initCursor(this.sql, network, chainId, below, hash);
  }

  private subscribeHeads(): () => void {
    if (this.source.client.transport.type !== 'webSocket') return () => {};
    this.log.info('following newHeads over WebSocket');
    return this.source.client.watchBlockNumber({
      emitOnBegin: false,
      onBlockNumber: () => this.wakeUp(),
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
    try {
      while (!this.stopping) {
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
        if (!advanced) await this.pause(this.opts.pollIntervalMs);
      }
    } finally {
      unsubscribe();
    }
  }

  /** Starts fetching up to `batchBlocks` blocks from `from` (at most to `head`). */
  private fetchBatch(from: bigint, head: bigint): Prefetch {
    const count = Number(min(head - from + 1n, BigInt(this.opts.batchBlocks ?? 50)));
    const numbers = Array.from({ length: count }, (_, i) => from + BigInt(i));
    const blocks = mapWithConcurrency(numbers, this.opts.fetchConcurrency ?? 8, (n) =>
      this.source.fetchBlock(n),
    );
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
