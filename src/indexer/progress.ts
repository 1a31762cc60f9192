/** How often an indexer logs its progress (blocks/s, tx/s, what is left, ETA). */
export const PROGRESS_LOG_INTERVAL_MS = 10_000;

/** What a progress log line says of the interval just ended. */
export interface ProgressFigures {
  blocks: number;
  blocks_per_s: number;
  tx_per_s: number;
  /** Seconds left at this interval's rate (0 when nothing is left or nothing moved). */
  eta_s: number;
}

/**
 * Blocks and transactions counted over an interval, for the progress logs of the live follower
 * and of a backfill: `add` answers the interval's rates and the time left once the interval has
 * passed (or when `now` is set: a last line), and starts the next interval.
 */
export class ProgressMeter {
  private since = performance.now();
  private blocks = 0;
  private txs = 0;

  constructor(private readonly intervalMs = PROGRESS_LOG_INTERVAL_MS) {}

  add(blocks: number, txs: number, remaining: bigint, now = false): ProgressFigures | undefined {
    this.blocks += blocks;
    this.txs += txs;
    const elapsedS = (performance.now() - this.since) / 1000;
    if (!now && elapsedS * 1000 < this.intervalMs) return undefined;
    const perS = elapsedS > 0 ? this.blocks / elapsedS : 0;
    const figures = {
      blocks: this.blocks,
      blocks_per_s: Math.round(perS * 10) / 10,
      tx_per_s: elapsedS > 0 ? Math.round((this.txs / elapsedS) * 10) / 10 : 0,
      eta_s: remaining > 0n && perS > 0 ? Math.round(Number(remaining) / perS) : 0,
    };
    this.since = performance.now();
    this.blocks = 0;
    this.txs = 0;
    return figures;
  }
}
