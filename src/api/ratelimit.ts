import type { MiddlewareHandler } from 'hono';
import { ApiError, ErrorNumber } from '../errors.js';
import type { AuthEnv } from './auth.js';

/**
 * Rate limit per API key: a token bucket per key id that holds at most `burst` requests and
 * refills at `perMinute / 60` requests a second. Runs after the API key check (it needs the key).
 *
 * The buckets live in this process's memory. With several API processes behind one address each
 * enforces the limit on its own, so the effective limit is per process: N processes let a key
 * make up to N × the configured rate. That is accepted and documented (README, configuration).
 */

export interface RateLimitOptions {
  /** Sustained requests per minute per API key; 0 turns the limit off. */
  perMinute: number;
  /** Requests a key may make at once after being idle: the bucket's capacity. */
  burst: number;
}

export interface TakeResult {
  ok: boolean;
  /** Whole requests left in the bucket after this one. */
  remaining: number;
  /** When refused: whole seconds until one request is allowed again (≥ 1). */
  retryAfterS: number;
}

interface Bucket {
  tokens: number;
  at_ms: number;
}

/** Buckets beyond this many trigger a sweep of full (idle) ones; then the least recently used go. */
export const MAX_BUCKETS = 10_000;

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;
  /** Time after which an untouched bucket is full again, i.e. the same as no bucket. */
  private readonly fullAfterMs: number;

  constructor(
    private readonly opts: RateLimitOptions,
    private readonly now: () => number = () => performance.now(),
    private readonly maxBuckets = MAX_BUCKETS,
  ) {
    this.perMs = opts.perMinute / 60_000;
    this.fullAfterMs = opts.burst / this.perMs;
  }

  get size(): number {
    return this.buckets.size;
  }

  take(key: string): TakeResult {
    const now = this.now();
    const old = this.buckets.get(key);
    const tokens = old
      ? Math.min(this.opts.burst, old.tokens + (now - old.at_ms) * this.perMs)
      : this.opts.burst;
    // Delete and set again: the Map's order is then least recently used first.
    this.buckets.delete(key);
    if (tokens >= 1) {
      this.buckets.set(key, { tokens: tokens - 1, at_ms: now });
      this.evict(now);
      return { ok: true, remaining: Math.floor(tokens - 1), retryAfterS: 0 };
    }
    this.buckets.set(key, { tokens, at_ms: now });
    return {
      ok: false,
      remaining: 0,
      retryAfterS: Math.max(1, Math.ceil((1 - tokens) / this.perMs / 1000)),
    };
  }

  /**
   * Keeps the Map bounded. A bucket idle long enough to have refilled is dropped first: that
   * changes nothing. Only if the Map is still too big are the least recently used dropped
   * (which resets them to full; there are as many buckets as valid API keys in use, so this
   * needs more than MAX_BUCKETS keys active at once).
   */
  private evict(now: number): void {
    if (this.buckets.size <= this.maxBuckets) return;
    for (const [key, b] of this.buckets) {
      if (now - b.at_ms >= this.fullAfterMs) this.buckets.delete(key);
    }
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= this.maxBuckets) break;
      this.buckets.delete(key);
    }
  }
}

/** The middleware for /v2 routes, after requireApiKey. 429 with Retry-After when over the limit. */
export function rateLimit(opts: RateLimitOptions): MiddlewareHandler<AuthEnv> {
  if (opts.perMinute <= 0)
    return async (_c, next) => {
      await next();
    };
  const buckets = new TokenBuckets(opts);
  return async (c, next) => {
    const result = buckets.take(c.get('apiKey').id);
    c.header('ratelimit-limit', String(opts.burst));
    c.header('ratelimit-remaining', String(result.remaining));
    if (!result.ok) {
      c.header('retry-after', String(result.retryAfterS));
      throw new ApiError(
        429,
        ErrorNumber.RATE_LIMITED,
        `Rate limit exceeded: ${opts.perMinute} requests per minute per API key (bursts of ${opts.burst}); retry after ${result.retryAfterS} s.`,
      );
    }
    await next();
  };
}
