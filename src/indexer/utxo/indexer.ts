import type { Sql } from '../../db/index.js';
import { parseBlock } from '../../chains/utxo/block.js';
import type { RawBlock, UtxoRpc } from '../../chains/utxo/client.js';
import { networkInfo } from '../../config/networks.js';
import { BackfillFailed, ChainIndexer, type ChainIndexerOptions } from '../chain-indexer.js';
import type { BackfillPosition } from '../backfill.js';
import { ProgressMeter } from '../progress.js';
import {
  type Cursor,
  CursorMovedError,
  clearHalt,
  initCursor,
  readCursor,
  recordHead,
  recordNodeChain,
} from '../cursor.js';
import { resolvePrevouts } from './prevouts.js';
import {
  ensureUtxoPartitions,
  revertUtxoToAncestor,
  storedUtxoBlockHash,
  storedUtxoBlockTime,
  storeUtxoBackfillBlock,
  storeUtxoBlock,
} from './store.js';

export type UtxoIndexerOptions = ChainIndexerOptions;

/** UTXO networks have no chain id; their cursor row carries 0. */
const UTXO_CHAIN_ID = 0;

/**
 * Follows one Bitcoin-family network (bitcoin, litecoin, doge) block by block from its cursor
 * to the node's head, then polls. Lifecycle, reorg walk-back and halting as for every chain
 * (ChainIndexer); prevouts are resolved before a block is stored.
 */
export class UtxoIndexer extends ChainIndexer<UtxoIndexerOptions> {
  private readonly decimals: number;

  constructor(
    sql: Sql,
    private readonly rpc: UtxoRpc,
    opts: UtxoIndexerOptions,
  ) {
    super(sql, opts);
    this.decimals = networkInfo(opts.network)?.decimals ?? 8;
  }

  protected prepare(): Promise<void> {
    return ensureUtxoPartitions(this.sql, this.opts.network);
  }

  protected storedHash(height: bigint): Promise<string | undefined> {
    return storedUtxoBlockHash(this.sql, this.opts.network, height);
  }

  protected nodeHash(height: bigint): Promise<string | null> {
    return this.rpc.blockHash(height);
  }

  protected storedTime(height: bigint): Promise<number | undefined> {
    return storedUtxoBlockTime(this.sql, this.opts.network, height);
  }

  /** Bitcoin-family chains have no finalized block: `maxReorgDepth` is the wall. */
  protected async finalizedHeight(): Promise<bigint | undefined> {
    return undefined;
  }

  protected revert(ancestor: bigint, ancestorHash: string, depth: number): Promise<number> {
    return revertUtxoToAncestor(
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
    if ((await this.rpc.hasTxIndex()) === false)
      this.log.warn(
        'the node runs without -txindex: coins spent from before the start block can be resolved only if its getblock gives them (verbosity 3, Bitcoin Core 23+)',
      );
    // A node that does not say its chain is taken for the mainnet: a false alarm on a test chain
    // (which the setting silences) costs less than silence on the mainnet.
    const genesisHash = await this.rpc.blockHash(0n);
    this.refuseAnotherNetwork({ genesisHash }, `block 0 ${genesisHash}`);
    const chain = (await this.rpc.chainInfo())?.chain;
    this.setNodeBehindLimit(chain === undefined || chain === 'main');
    const existing = await readCursor(this.sql, network);
    let cursor: Cursor;
    if (existing) {
      await clearHalt(this.sql, network);
      cursor = existing;
    } else {
      const start = await this.firstBlock(await this.rpc.headHeight());
      const below = start - 1n;
      const hash = below >= 0n ? ((await this.rpc.blockHash(below)) ?? '') : '';
      cursor = await initCursor(this.sql, network, UTXO_CHAIN_ID, below, hash);
    }
    // Which addresses its streams can see (a testnet address never appears on the mainnet).
    await recordNodeChain(this.sql, network, chain ?? null);
    return cursor;
  }

  protected async follow(): Promise<void> {
    const cursor = await this.retrying(() => this.ensureCursor());
    // Backfills run beside the live follower while this indexer holds the network.
    const active = { on: true };
    const backfills = this.runBackfills(active);
    try {
      await this.followFrom(cursor);
    } finally {
      active.on = false;
      this.wakeUp();
      await backfills;
    }
  }

  private async followFrom(start: Cursor): Promise<void> {
    let cursor = start;
    while (!this.stopping) {
      const woken = this.wakes;
      let head = await this.retrying(() => this.rpc.headHeight());
      await this.retrying(() => recordHead(this.sql, this.opts.network, head));
      this.noteHead(head);
      let advanced = false;
      while (!this.stopping && BigInt(cursor.block_number) < head) {
        const from = cursor;
        cursor = await this.retrying(() => this.step(from));
        if (cursor === from) break; // the node has no block there after all: poll again
        advanced = true;
        head = await this.refreshedHead(head, () => this.rpc.headHeight());
      }
      if (!advanced && !this.stopping) {
        const at = cursor;
        cursor = await this.retrying(() => this.checkTip(at));
        advanced = cursor !== at;
      }
      await this.checkNodeBehindAtHead(cursor, head);
      if (!advanced) await this.pause(this.opts.pollIntervalMs, woken);
    }
  }

  /**
   * One backfill, block by block from its next block down to its first: each block must be the
   * one the stored block above names as its parent, its coins are resolved (from blocks stored
   * below it, else the node), and it is stored with the backfill's position in one transaction
   * while the node is asked for the next one.
   */
  protected async backfill(start: BackfillPosition, active: { on: boolean }): Promise<void> {
    const { network } = this.opts;
    // requestRetrace refuses these; a row written by hand is failed, not run as a backfill.
    if (start.kind === 'traces')
      throw new BackfillFailed(start.id, `${network} has no call traces to read`);
    let at = start;
    const progress = new ProgressMeter();
    this.log.info(
      { backfill_id: at.id, from_block: Number(at.from), next_block: Number(at.next) },
      'backfill running',
    );
    let ahead: { height: bigint; raw: Promise<RawBlock> } | undefined;
    while (!this.stopping && active.on && at.next >= at.from) {
      const height = at.next;
      const pending = ahead?.height === height ? ahead.raw : this.backfillBlock(at.id, height);
      ahead = undefined;
      const raw = await pending;
      if (at.expectHash !== null && raw.hash !== at.expectHash)
        throw this.notTheParent(at, height, raw.hash);
      if (height - 1n >= at.from) {
        ahead = { height: height - 1n, raw: this.backfillBlock(at.id, height - 1n) };
        ahead.raw.catch(() => {}); // taken next round, or dropped on a stop
      }
      const block = await this.retrying(() =>
        resolvePrevouts(this.sql, this.rpc, network, parseBlock(raw, this.decimals), this.decimals),
      );
      const position = at;
      const stored = await this.retrying(() =>
        storeUtxoBackfillBlock(this.sql, network, position, block, this.lockPid),
      );
      if (!stored) return; // cancelled, or moved by another runner: read it again
      at = { ...at, next: height - 1n, expectHash: block.prevHash };
      this.backfillStored(progress, at, 1, block.transactions.length);
    }
  }

  /** The node's block at a height, retried; a height the node keeps not having fails the backfill. */
  private async backfillBlock(id: string, height: bigint): Promise<RawBlock> {
    const raw = await this.readHistory(
      id,
      async () => {
        const hash = await this.rpc.blockHash(height);
        return hash === null ? null : this.rpc.block(hash);
      },
      {
        missing: (got) =>
          got ? undefined : `the ${this.opts.network} node has no block ${height}`,
        where: `block ${height}: `,
      },
    );
    return raw!;
  }

  /** Indexes the block after the cursor, or walks back over a reorg. Returns the new cursor. */
  private async step(cursor: Cursor): Promise<Cursor> {
    const next = BigInt(cursor.block_number) + 1n;
    const hash = await this.rpc.blockHash(next);
    const raw = hash === null ? null : await this.rpc.block(hash);
    if (!raw) return cursor; // the head moved back; the next poll sorts it out
    if (cursor.block_hash !== '' && (raw.previousblockhash ?? '') !== cursor.block_hash)
      return this.parentMismatch(cursor, next, raw.previousblockhash ?? '');
    const started = performance.now();
    const block = await resolvePrevouts(
      this.sql,
      this.rpc,
      this.opts.network,
      parseBlock(raw, this.decimals),
      this.decimals,
    );
    try {
      const moved = await storeUtxoBlock(this.sql, this.opts.network, block, cursor, {
        confirmations: this.opts.confirmations,
        lockPid: this.lockPid,
      });
      this.log.debug(
        {
          block_number: Number(block.height),
          hash: block.hash,
          tx_count: block.transactions.length,
          duration_ms: Math.round(performance.now() - started),
        },
        'indexed block',
      );
      this.noteProgress(block.height, 1, block.transactions.length);
      return moved;
    } catch (err) {
      if (err instanceof CursorMovedError) {
        this.log.warn('cursor moved under this indexer; re-reading it');
        return this.currentCursor();
      }
      throw err;
    }
  }
}
