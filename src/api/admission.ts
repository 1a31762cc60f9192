import type { MiddlewareHandler } from 'hono';
import { whenDeadlinePasses } from './deadline.js';

/**
 * How many requests of a process may be at work at once (config api_max_concurrent_requests);
 * the others wait here, in arrival order, and one past its deadline while waiting leaves the
 * line with its 503 and never runs.
 *
 * Why: a request's statements go to postgres.js, which queues them and pipelines them onto its
 * connections. While the database does not answer (frozen, stalled on disk, a long lock), every
 * request that arrives adds statements there, and its deadline's 503 does not take them back: when
 * the database answered again it first ran the whole backlog, reads whose clients had long
 * gone and writes they had been told might still happen, while new requests waited behind it
 * (measured: 4,000 requests answered 503 during a freeze, 4,154 transactions run after it). With
 * the line, at most `limit` requests' statements are out; a freeze of any length leaves no more
 * than that to run, and the clients that retry are served at once instead of behind their own
 * abandoned requests.
 *
 * The faces that share the API's pool (the API, the operator API, the dashboard, TRP) share one
 * line per process. Health, readiness, metrics and the API reference do not wait in it.
 */
export class Admission {
  private running = 0;
  /** Waiting requests' wake-ups, oldest first (a Set keeps insertion order; removal is O(1)). */
  private readonly waiting = new Set<() => void>();
  private refused = 0;

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be ≥ 1');
  }

  /** Requests at work now, and waiting for their turn. */
  get inUse(): number {
    return this.running;
  }
  get queued(): number {
    return this.waiting.size;
  }
  /** Requests whose deadline passed while they waited (answered 503, never run), since start. */
  get expiredWaiting(): number {
    return this.refused;
  }

  /**
   * The middleware: runs the rest of the request when its turn comes. Mount it after the face's
   * requestDeadline, whose 503 takes a waiting request out of the line.
   */
  readonly middleware: MiddlewareHandler = async (c, next) => {
    if (this.running < this.limit) this.running++;
    else {
      const admitted = await new Promise<boolean>((resolve) => {
        const wake = () => resolve(true);
        this.waiting.add(wake);
        whenDeadlinePasses(c, () => {
          if (!this.waiting.delete(wake)) return false;
          this.refused++;
          resolve(false);
          return true;
        });
      });
      // Answered already (the deadline's 503): nothing of it runs.
      if (!admitted) return;
    }
    try {
      await next();
    } finally {
      this.release();
    }
  };

  /** A request done: its place goes to the oldest waiting one (the count stays), or is freed. */
  private release(): void {
    for (const wake of this.waiting) {
      this.waiting.delete(wake);
      wake();
      return;
    }
    this.running--;
  }
}
