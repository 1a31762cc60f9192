import type { Sql } from '../db/index.js';
import {
  describeError,
  HistoryUnavailableError,
  NodeAnswerError,
  PermanentError,
} from '../errors.js';
import { log } from '../log.js';
import { anotherNetworksMainnet, networkInfo } from '../config/networks.js';
import {
  type Cursor,
  haltAwaitingResume,
  readCursor,
  recordHalt,
  recordHead,
  recordNodeBehind,
  takeDeepReorgAllowance,
} from './cursor.js';
import { LockLostError, NetworkLock } from './network-lock.js';
import { ProgressMeter } from './progress.js';
import { clearNodeError, isNodeError, recordNodeError } from './node-errors.js';
import { backfillPosition, type BackfillPosition, failBackfill } from './backfill.js';

/**
 * An error the indexer must stop on rather than retry. `history` halts (a reorg past the network's
 * finality, a node contradicting itself) wait for an operator's `tollgate indexer resume`, across
 * restarts; the others (a node of another chain) are lifted by a restart with the right
 * configuration.
 */
export class IndexerHaltError extends PermanentError {
  constructor(
    message: string,
    readonly needsResume = false,
  ) {
    super(message);
    this.name = 'IndexerHaltError';
  }
}

/** How often an idle indexer looks for a backfill to run (a new head also wakes it). */
const BACKFILL_POLL_MS = 2000;
/** Fetches of a block the node lacks, or of a range that is not a chain, before a backfill fails. */
export const BACKFILL_TRIES = 5;

/** A backfill that cannot go on (recorded as failed, with this message). */
export class BackfillFailed extends Error {
  constructor(
    readonly id: string,
    message: string,
  ) {
    super(message);
    this.name = 'BackfillFailed';
  }
}

/** How often a halted indexer looks whether an operator resumed it. */
const RESUME_POLL_MS = 2000;

const ZERO_HASH = /^(0x)?0+$/;

export interface ChainIndexerOptions {
  network: string;
  confirmations: number;
  /** Where the first start begins (undefined: not chosen; the first start refuses to guess). */
  startBlock: 'head' | number | undefined;
  pollIntervalMs: number;
  /** The database the network lock's own connection goes to (network-lock.ts). */
  databaseUrl: string;
  /** How far back a reorg may reach before the indexer stops instead of guessing. */
  maxReorgDepth: number;
  /** The node's URL as logs and /readyz show it (node-errors.ts: no credentials, no path). */
  node?: string;
  /**
   * How old (seconds) the node's newest block may be before the node counts as behind; 0: never.
   * Undefined: the network table's on the network's mainnet, 0 on any other chain.
   */
  nodeBehindS?: number;
}

/**
 * How old the node's newest block may be before the node counts as behind (0: never): the
 * operator's setting, else on the network's mainnet the network table's, else 0.
 */
export function nodeBehindLimitS(
  network: string,
  configured: number | undefined,
  mainnet: boolean,
): number {
  return configured ?? (mainnet ? (networkInfo(network)?.node_behind_s ?? 0) : 0);
}

/** A failing node's record is refreshed at most this often (and when its error changes). */
const NODE_ERROR_RECORD_MS = 5_000;

/**
 * While the live follower catches up, how often it reads the node's head again: a long catch-up
 * follows a head that moves on, and the head it records stays fresh (indexer/status.ts
 * HEAD_STALE_S: an indexer catching up is not one that cannot reach its node).
 */
const HEAD_REFRESH_MS = 5_000;

/**
 * What every chain's indexer shares: one active indexer per network (network-lock.ts: a second
 * one stands by and takes over; one that lost its lock with its connection steps down and stands
 * by too, and can never commit a block meanwhile), an orderly stop that finishes the block in hand,
 * retries with backoff, the reorg walk-back to the common ancestor, the tip check at the head,
 * progress logs, and a loud halt that /readyz reports. A chain family supplies its partitions,
 * its follow loop, and how to read and revert blocks.
 */
export abstract class ChainIndexer<O extends ChainIndexerOptions = ChainIndexerOptions> {
  protected stopping = false;
  /** Whoever sleeps in pause() (the follow loop, a backfill): a stop or a new head wakes them. */
  private readonly sleepers = new Set<() => void>();
  /** How many times the indexer was woken (pause's `unlessWokenSince`). */
  protected wakes = 0;
  private done: Promise<void> | undefined;
  private lock: NetworkLock | undefined;
  /** The backend pid of this indexer's lock session: every write checks it still holds the lock. */
  protected lockPid: number | undefined;
  private readonly progress = new ProgressMeter();
  private head = 0n;
  /** When noteHead was last given the node's head (ms). */
  private headReadAt = 0;
  /** The limit of checkNodeBehind, set once the node's chain is known (setNodeBehindLimit). */
  private nodeBehindLimitS = 0;
  /** What checkNodeBehind last recorded (undefined: nothing yet in this run). */
  private nodeBehind: { reason: string | null; height: bigint } | undefined;
  /** The tip block checkNodeBehind last read the time of. */
  private tip: { hash: string; time: number | undefined } | undefined;
  readonly log;

  constructor(
    protected readonly sql: Sql,
    protected readonly opts: O,
  ) {
    this.log = log.child({
      network: opts.network,
      role: 'indexer',
      ...(opts.node ? { node: opts.node } : {}),
    });
  }

  /** Creates the network's table partitions. */
  protected abstract prepare(): Promise<void>;
  /** Indexes from the cursor to the head and on, until `stopping`. */
  protected abstract follow(): Promise<void>;
  /** Our stored block hash at a height (undefined below what we hold). */
  protected abstract storedHash(height: bigint): Promise<string | undefined>;
  /** The node's block hash at a height (null when it has none). */
  protected abstract nodeHash(height: bigint): Promise<string | null>;
  /** Deletes everything above the ancestor and moves the cursor there; returns retractions enqueued. */
  protected abstract revert(ancestor: bigint, ancestorHash: string, depth: number): Promise<number>;
  /** The node's finalized block (undefined where the node or the chain has no such notion). */
  protected abstract finalizedHeight(): Promise<bigint | undefined>;
  /** Our stored block's time at a height (Unix seconds; undefined when not stored). */
  protected abstract storedTime(height: bigint): Promise<number | undefined>;
  /**
   * One range backfill (src/indexer/backfill.ts), from its next block down to its first, while
   * `active`: each block checked to be the parent the block above it names, stored with the
   * backfill's position in one transaction. Throws BackfillFailed when it cannot go on.
   */
  protected abstract backfill(at: BackfillPosition, active: { on: boolean }): Promise<void>;

  /**
   * A backfill's read of history from the node: retried as any call, except that history the
   * node does not serve (HistoryUnavailableError), and an answer `missing` finds lacking, are
   * asked for again BACKFILL_TRIES times a second apart and then fail backfill `id` with the
   * reason. `abandoned`: nobody waits for the read any more (it is given up at once).
   */
  protected async readHistory<T>(
    id: string,
    read: () => Promise<T>,
    opts: { missing: (got: T) => string | undefined; where?: string; abandoned?: () => boolean },
  ): Promise<T> {
    const { network } = this.opts;
    for (let attempt = 1; ; attempt++) {
      let got: T;
      try {
        got = await this.retrying(read, (err) => err instanceof HistoryUnavailableError);
      } catch (err) {
        if (!(err instanceof HistoryUnavailableError) || opts.abandoned?.()) throw err;
        if (attempt >= BACKFILL_TRIES)
          throw new BackfillFailed(
            id,
            `${opts.where ?? ''}${err.message}: the ${network} node does not serve history this far back (${err.advice})`,
          );
        this.log.warn(
          { backfill_id: id, error: err.message, attempt },
          'backfill: the node does not serve this history; asking again',
        );
        await this.pause(1000);
        continue;
      }
      const lacking = opts.abandoned?.() ? undefined : opts.missing(got);
      if (lacking === undefined) return got;
      if (attempt >= BACKFILL_TRIES) throw new BackfillFailed(id, lacking);
      await this.pause(1000);
    }
  }

  /** The failure of a backfill whose block at `height` (`hash`) is not the parent it expects. */
  protected notTheParent(at: BackfillPosition, height: bigint, hash: string): BackfillFailed {
    return new BackfillFailed(
      at.id,
      `block ${height} from the ${this.opts.network} node (${hash}) is not the parent the stored block above it names (${at.expectHash}): the node is on another chain, or it reorged below the indexed history`,
    );
  }

  /**
   * After a backfill stored `blocks` blocks (`txs` transactions) and now stands at `at`: its
   * progress log line (blocks/s, tx/s, remaining, ETA) every 10 s, and the line that it is done.
   */
  protected backfillStored(
    meter: ProgressMeter,
    at: BackfillPosition,
    blocks: number,
    txs: number,
  ): void {
    const done = at.next < at.from;
    const remaining = done ? 0n : at.next - at.from + 1n;
    const figures = meter.add(blocks, txs, remaining, done);
    if (figures)
      this.log.info(
        {
          backfill_id: at.id,
          next_block: Number(at.next),
          remaining_blocks: Number(remaining),
          ...figures,
        },
        `${at.kind === 'traces' ? 'retrace' : 'backfill'} ${done ? 'done' : 'progress'}`,
      );
  }

  /**
   * The network's backfills one after another, beside the follow loop, while `active` (the
   * follow loop holds the network). A failed one is recorded with its reason; anything else is
   * retried after a pause.
   */
  protected async runBackfills(active: { on: boolean }): Promise<void> {
    const { network } = this.opts;
    while (!this.stopping && active.on) {
      try {
        const at = await backfillPosition(this.sql, network);
        if (!at) {
          await this.pause(BACKFILL_POLL_MS);
          continue;
        }
        await this.backfill(at, active);
      } catch (err) {
        if (this.stopping || err instanceof LockLostError) return;
        if (err instanceof BackfillFailed) {
          this.log.error({ backfill_id: err.id, error: err.message }, 'backfill failed');
          await failBackfill(this.sql, err.id, err.message).catch(() => {});
          continue;
        }
        this.log.warn({ error: describeError(err) }, 'backfill interrupted; going on shortly');
        await this.pause(BACKFILL_POLL_MS);
      }
    }
  }

  /**
   * Runs the indexer until stopped. It halts (and /readyz says why) only on an IndexerHaltError;
   * any other failure is logged and the indexer starts over from its cursor after a pause, in
   * this process: no outside supervisor is needed to bring it back.
   */
  start(): void {
    this.done = (async () => {
      for (let restarts = 0; !this.stopping; restarts++) {
        try {
          await this.run();
          return;
        } catch (err) {
          if (this.stopping) return;
          if (err instanceof IndexerHaltError) {
            this.log.fatal(
              { error: describeError(err), needs_resume: err.needsResume },
              'indexer halted',
            );
            await this.retrying(() =>
              recordHalt(this.sql, this.opts.network, err.message, err.needsResume),
            ).catch(() => {});
            if (!err.needsResume) return;
            restarts = -1; // resumed by the operator: a fresh start
            continue; // run() waits for the resume
          }
          const delayMs = Math.min(30_000, 1000 * 2 ** Math.min(restarts, 5));
          this.log.error(
            { error: describeError(err), restart_in_ms: delayMs },
            'indexer failed; starting it again',
          );
          await this.pause(delayMs);
        }
      }
    })();
  }

  /** Finishes the block (or batch) in hand, then returns. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeUp();
    await this.done;
  }

  /**
   * Sleeps, unless stopped or woken (a new head arrived) first; with `unlessWokenSince` (a
   * `wakes` count taken before the head was read), not at all when a wake came since: a head
   * pushed while the loop was busy is not lost for a whole poll interval.
   */
  protected async pause(ms: number, unlessWokenSince?: number): Promise<void> {
    if (this.stopping) return;
    if (unlessWokenSince !== undefined && unlessWokenSince !== this.wakes) return;
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(t);
        this.sleepers.delete(wake);
        resolve();
      };
      const t = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }

  protected wakeUp(): void {
    this.wakes += 1;
    for (const wake of [...this.sleepers]) wake();
  }

  /**
   * While the network carries a halt only an operator may lift, waits (an error log once, then a
   * look every RESUME_POLL_MS) and nothing else runs.
   */
  private async awaitResume(): Promise<void> {
    let announced = false;
    while (!this.stopping) {
      const reason = await this.retrying(() => haltAwaitingResume(this.sql, this.opts.network));
      if (reason === undefined) {
        if (announced) this.log.warn('indexer resumed by an operator');
        return;
      }
      if (!announced)
        this.log.error(
          { reason },
          `indexer halted; after checking the node, resume it with: tollgate indexer resume --network ${this.opts.network}`,
        );
      announced = true;
      await this.pause(RESUME_POLL_MS);
    }
  }

  private async run(): Promise<void> {
    await this.awaitResume();
    await this.retrying(() => this.prepare());
    while (!this.stopping) {
      const lock = await this.acquire();
      if (!lock) return;
      this.lock = lock;
      this.lockPid = lock.pid;
      this.log.info('indexer active');
      try {
        await this.follow();
      } catch (err) {
        if (!(err instanceof LockLostError)) throw err;
        this.log.warn(
          'indexer lost its network lock with its database session; standing by to take it again',
        );
      } finally {
        this.lock = undefined;
        this.lockPid = undefined;
        await lock.release();
      }
    }
    this.log.info('indexer stopped');
  }

  /** Waits until this indexer holds the network's lock (undefined when stopped first). */
  private async acquire(): Promise<NetworkLock | undefined> {
    let announced = false;
    while (!this.stopping) {
      const lock = await this.retrying(() =>
        NetworkLock.tryAcquire(this.opts.databaseUrl, this.opts.network, this.log),
      );
      if (lock && this.stopping) await lock.release();
      else if (lock) return lock;
      if (!announced) this.log.info('another indexer holds this network; standing by');
      announced = true;
      await this.pause(2000);
    }
    return undefined;
  }

  /**
   * The first start's block, as the operator chose it (`startBlock`), with the choice in the log.
   * A block beyond the node's head is refused: the node is not there yet (or it is the wrong node).
   */
  protected async firstBlock(head: bigint): Promise<bigint> {
    const { network, startBlock } = this.opts;
    if (startBlock === undefined)
      throw new IndexerHaltError(
        `no start block chosen for ${network}: set TOLLGATE_START_BLOCK_${network.toUpperCase()} to "head" or a block number`,
      );
    const start = startBlock === 'head' ? head : BigInt(startBlock);
    if (start > head + 1n)
      throw new IndexerHaltError(
        `start block ${start} of ${network} is beyond the node's head ${head}; is this the right node?`,
      );
    this.log.info(
      {
        start_block: start.toString(),
        head: head.toString(),
        chosen: startBlock === 'head' ? 'head: no history before it' : 'a block number',
      },
      startBlock === 'head'
        ? 'first start: indexing from the head (older history: tollgate indexer backfill)'
        : 'first start: indexing from the configured block',
    );
    return start;
  }

  protected async currentCursor(): Promise<Cursor> {
    return (await readCursor(this.sql, this.opts.network))!;
  }

  /**
   * Reverts to the common ancestor, then waits one poll interval (a node that keeps contradicting
   * itself must not make us spin). Returns the cursor now stored.
   */
  protected async reorg(cursor: Cursor): Promise<Cursor> {
    await this.walkBack(cursor);
    await this.pause(this.opts.pollIntervalMs);
    return this.currentCursor();
  }

  /**
   * The cursor's block is not on the node's chain: walk back to the highest block that is. A
   * reorg deeper than `maxReorgDepth`, or one that would replace a block at or below the node's
   * finalized block, halts instead (finality is a wall), unless the operator allowed one.
   */
  private async walkBack(cursor: Cursor): Promise<void> {
    const { network, maxReorgDepth } = this.opts;
    const finalized = await this.retrying(() => this.finalizedHeight());
    let n = BigInt(cursor.block_number);
    let allowed: boolean | undefined;
    const mayPass = async () =>
      (allowed ??= await this.retrying(() => takeDeepReorgAllowance(this.sql, network)));
    for (let depth = 1; ; depth++) {
      n -= 1n;
      if (n < -1n) break;
      if (finalized !== undefined && n + 1n <= finalized && !(await mayPass()))
        throw new IndexerHaltError(
          `reorg on ${network} would replace block ${n + 1n}, at or below the node's finalized block ${finalized}; refusing to rewrite final history`,
          true,
        );
      if (depth > maxReorgDepth && !(await mayPass()))
        throw new IndexerHaltError(
          `reorg on ${network} deeper than ${maxReorgDepth} blocks; refusing to continue`,
          true,
        );
      const stored = n >= 0n ? await this.storedHash(n) : undefined;
      const canonical = n >= 0n ? await this.retrying(() => this.nodeHash(n)) : null;
      this.log.debug(
        { block_number: Number(n), stored_hash: stored ?? null, canonical_hash: canonical },
        'reorg walk-back',
      );
      if (stored === undefined || stored === canonical) {
        // Common ancestor found (or the start of what we hold, which the node agrees on by construction).
        const retractions = await this.revert(n, stored ?? canonical ?? '', depth);
        this.log.warn(
          { ancestor_block: Number(n), depth_blocks: depth, retractions },
          'reorg: reverted to common ancestor',
        );
        return;
      }
    }
    throw new IndexerHaltError(`reorg on ${network} reaches below block 0`, true);
  }

  /**
   * The next block's parent is not the cursor's block. A zero parent hash, or a node whose own
   * block at the cursor's height is still the cursor's (so its next block contradicts it), is a
   * node reporting nonsense: the indexer halts rather than loop (seen on Hardhat after
   * `hardhat_mine` with a count). Otherwise it is a reorg.
   */
  protected async parentMismatch(
    cursor: Cursor,
    blockNumber: bigint,
    parentHash: string,
  ): Promise<Cursor> {
    const { network } = this.opts;
    this.log.warn(
      {
        block_number: Number(blockNumber),
        parent_hash: parentHash,
        cursor_hash: cursor.block_hash,
      },
      'parent hash mismatch: reorg',
    );
    if (ZERO_HASH.test(parentHash))
      throw new IndexerHaltError(
        `the ${network} node reports block ${blockNumber} with a zero parent hash; not indexing it`,
        true,
      );
    const own = await this.retrying(() => this.nodeHash(BigInt(cursor.block_number)));
    if (own === cursor.block_hash)
      throw new IndexerHaltError(
        `the ${network} node contradicts itself: its block ${blockNumber} names parent ${parentHash}, but its block ${cursor.block_number} is ${own}`,
        true,
      );
    return this.reorg(cursor);
  }

  /**
   * At the head, the node's block at our tip must still be ours: a reorg onto a branch of the
   * same length shows nowhere else until the next block. A node behind us is waited for while
   * its head block is ours; one whose head block is not is on a branch that is not longer than
   * ours (yet): a reorg now, not once that branch passes our tip (found by an outside probe:
   * after `invalidateblock`, the orphaned blocks were served, and their events not retracted,
   * until the node had mined past them).
   */
  protected async checkTip(cursor: Cursor): Promise<Cursor> {
    if (cursor.block_hash === '' || BigInt(cursor.block_number) < 0n) return cursor;
    const hash = await this.nodeHash(BigInt(cursor.block_number));
    if (hash === null) {
      const head = this.head;
      if (head < 0n || head >= BigInt(cursor.block_number)) return cursor;
      const ours = await this.storedHash(head);
      const theirs = await this.nodeHash(head);
      if (ours === undefined || theirs === null || ours === theirs) return cursor;
      this.log.warn(
        {
          block_number: Number(head),
          indexed_block: Number(cursor.block_number),
          node_hash: theirs,
          stored_hash: ours,
        },
        'the node is on another branch, not longer than ours: reorg',
      );
      return this.reorg(cursor);
    }
    if (hash === cursor.block_hash) return cursor;
    this.log.warn(
      {
        block_number: Number(cursor.block_number),
        node_hash: hash,
        cursor_hash: cursor.block_hash,
      },
      'tip replaced at the same height: reorg',
    );
    return this.reorg(cursor);
  }

  protected noteHead(head: bigint): void {
    this.head = head;
    this.headReadAt = Date.now();
  }

  /**
   * The node's head read again (with `read`) and recorded, once HEAD_REFRESH_MS passed since it
   * was last; else `head` as it is. Called between the steps of a catch-up.
   */
  protected async refreshedHead(head: bigint, read: () => Promise<bigint>): Promise<bigint> {
    if (Date.now() - this.headReadAt < HEAD_REFRESH_MS) return head;
    const now = await this.retrying(read);
    await this.retrying(() => recordHead(this.sql, this.opts.network, now));
    this.noteHead(now);
    return now;
  }

  /**
   * Refuses a node that is another network's mainnet (`what`: what gave it away): its blocks
   * would be served as this network's, its addresses never matching a stream, its history wrong.
   * Thrown as a wrong answer of the node, before any block is read: retried, and shown in /readyz
   * (`not indexed yet: node … failing …`) until the node answers as this network's (the right
   * TOLLGATE_RPC_<NETWORK>, or the name it has pointed at the right node).
   */
  protected refuseAnotherNetwork(
    node: { chainId?: number; genesisHash?: string | null },
    what: string,
  ): void {
    const { network } = this.opts;
    const other = anotherNetworksMainnet(network, node);
    if (other)
      throw new NodeAnswerError(
        `the node for ${network} follows ${other.name}'s mainnet (${other.symbol}; ${what}), not ${networkInfo(network)?.name ?? network}: set TOLLGATE_RPC_${network.toUpperCase()} to a node of ${network}`,
      );
  }

  /**
   * The limit of checkNodeBehind once the node's chain is known: the operator's, else on the
   * network's mainnet the network table's (a block every few seconds or minutes), else none (a
   * dev chain makes blocks only when asked; a testnet's rhythm is its own).
   */
  protected setNodeBehindLimit(mainnet: boolean): void {
    this.nodeBehindLimitS = nodeBehindLimitS(this.opts.network, this.opts.nodeBehindS, mainnet);
  }

  /** Once the follow loop has reached the node's head: checkNodeBehind, retried. */
  protected async checkNodeBehindAtHead(cursor: Cursor, head: bigint): Promise<void> {
    if (this.stopping || BigInt(cursor.block_number) < head) return;
    await this.retrying(() => this.checkNodeBehind(cursor));
  }

  /**
   * With the indexer at the node's head: whether the node is behind the network, its newest block
   * older than the limit. A node that lost its peers, or stopped (its disk, its process), still
   * answers with the head it has; one syncing from an old state answers with old heads. Either
   * way Tollgate would be caught up with nothing new to index, and say so. Recorded for /readyz,
   * `tollgate indexer status`, /metrics and the operations page, and logged when it changes.
   */
  protected async checkNodeBehind(tip: Cursor): Promise<void> {
    const height = BigInt(tip.block_number);
    if (this.tip?.hash !== tip.block_hash)
      this.tip = { hash: tip.block_hash, time: await this.storedTime(height) };
    const limit = this.nodeBehindLimitS;
    const time = this.tip.time;
    const ageS = time === undefined ? 0 : Math.floor(Date.now() / 1000) - time;
    const behind = limit > 0 && time !== undefined && ageS > limit;
    const was = this.nodeBehind;
    // Recorded when it changes, and while behind when the node's head moves (a syncing node).
    if (was && (was.reason !== null) === behind && (!behind || was.height === height)) return;
    const at = time === undefined ? undefined : new Date(time * 1000).toISOString();
    const info = networkInfo(this.opts.network);
    const rhythm = info?.block_time_ms ? `, a block every ~${info.block_time_ms / 1000} s` : '';
    const reason = behind
      ? `the node's newest block ${height} is from ${at}, more than ${limit} s ago (TOLLGATE_NODE_BEHIND_S_${this.opts.network.toUpperCase()}${rhythm}): the node is behind the network (still syncing, or no longer following it: its peers, its disk, its process); newer blocks are indexed when the node has them`
      : null;
    await recordNodeBehind(this.sql, this.opts.network, reason);
    this.nodeBehind = { reason, height };
    const fields = { block_number: Number(height), block_time: at, age_s: ageS, limit_s: limit };
    if (behind && was?.reason == null)
      this.log.error(fields, 'the node is behind the network: its newest block is too old');
    else if (!behind && was?.reason) this.log.info(fields, 'the node follows the network again');
  }

  protected noteProgress(blockNumber: bigint, blockCount: number, txCount: number): void {
    const lag = this.head > blockNumber ? this.head - blockNumber : 0n;
    const figures = this.progress.add(blockCount, txCount, lag);
    if (figures)
      this.log.info(
        { block_number: Number(blockNumber), ...figures, lag_blocks: Number(lag) },
        'indexer progress',
      );
  }

  /**
   * Retries RPC and database failures with backoff until they pass or the indexer stops. A node
   * failure is recorded for /readyz (node-errors.ts) while it lasts, and cleared when the call
   * passes. An error `passOn` picks is thrown at once, for the caller to count.
   */
  protected async retrying<T>(
    fn: () => Promise<T>,
    passOn: (err: unknown) => boolean = () => false,
  ): Promise<T> {
    let delay = 250;
    for (;;) {
      try {
        const result = await fn();
        if (this.nodeFailingSince !== undefined) {
          // Said as the failure was (the warning per retry): an on-call engineer sees it end.
          this.log.info(
            { down_ms: Date.now() - this.nodeFailingSince },
            'node answers again; indexing goes on',
          );
          this.nodeFailingSince = undefined;
        }
        if (this.nodeError || this.nodeErrorOfEarlier) {
          this.nodeError = undefined;
          await clearNodeError(this.sql, this.opts.network).then(
            () => (this.nodeErrorOfEarlier = false),
            () => {},
          );
        }
        return result;
      } catch (err) {
        if (
          this.stopping ||
          err instanceof IndexerHaltError ||
          err instanceof LockLostError ||
          passOn(err)
        )
          throw err;
        if (this.lock?.lost) throw new LockLostError(this.opts.network);
        const fromNode = isNodeError(err);
        this.log.warn(
          { error: describeError(err), retry_in_ms: delay, ...(fromNode ? { from: 'node' } : {}) },
          fromNode ? 'node call failed; retrying' : 'indexer call failed; retrying',
        );
        if (fromNode) {
          this.nodeFailingSince ??= Date.now();
          await this.noteNodeError(describeError(err));
        }
        await this.pause(delay); // a stop cuts the wait short
        delay = Math.min(delay * 2, 10_000);
      }
    }
  }

  private nodeError: { error: string; at: number } | undefined;
  /** When the node's calls began to fail (their first failure since the last call that passed). */
  private nodeFailingSince: number | undefined;
  /**
   * A failure an earlier process recorded (killed while the node failed) may still be stored:
   * cleared at the first call that passes, or /readyz named it, and a later failure kept its
   * `since` (found by an outside probe: a 75 s outage shown as failing for 4 minutes).
   */
  private nodeErrorOfEarlier = true;

  private async noteNodeError(error: string): Promise<void> {
    const last = this.nodeError;
    if (last && last.error === error && Date.now() - last.at < NODE_ERROR_RECORD_MS) return;
    this.nodeError = { error, at: Date.now() };
    await recordNodeError(this.sql, this.opts.network, this.opts.node ?? '', error).catch(() => {});
  }
}
