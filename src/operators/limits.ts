import { secretHash } from '../ids.js';

/**
 * Limits on login attempts, kept in this process's memory (with several API processes, each
 * keeps its own). They slow a guesser down without ever locking a login against its operator:
 * - per client address, failures of any login: ADDRESS_FAILURES_BURST at once, then
 *   ADDRESS_FAILURES_PER_MINUTE;
 * - per login and client address, failures of that login: LOGIN_FAILURES_BURST, then
 *   LOGIN_FAILURES_PER_MINUTE. A stranger elsewhere exhausts only their own buckets: the
 *   operator's address still gets in with the right password (and second factor);
 * - per client address, ADDRESS_IN_FLIGHT_MAX attempts at once (a client cannot fill the
 *   hashing queue of hashing.ts alone);
 * - a slowdown: once an address has used SLOWDOWN_AFTER_FAILURES of its bucket, each failure is
 *   answered after SLOWDOWN_STEP_MS, doubling to SLOWDOWN_MAX_MS, its attempt slot held meanwhile.
 * An attempt takes a token from both buckets before anything is checked and gives them back if
 * it succeeds, so parallel attempts cannot overspend. The login is the one typed, whether or
 * not it exists, so being limited says nothing about which logins exist; it is kept as its
 * SHA-256 (a password typed into the login field is not held in memory in clear).
 */

export const ADDRESS_FAILURES_BURST = 10;
export const ADDRESS_FAILURES_PER_MINUTE = 10;
export const LOGIN_FAILURES_BURST = 5;
export const LOGIN_FAILURES_PER_MINUTE = 1;
export const ADDRESS_IN_FLIGHT_MAX = 2;
export const SLOWDOWN_AFTER_FAILURES = 3;
export const SLOWDOWN_STEP_MS = 250;
export const SLOWDOWN_MAX_MS = 2000;
/** Buckets kept at most per kind; full (idle) ones are dropped first, then the oldest. */
export const MAX_TRACKED = 50_000;

export interface LoginLimits {
  addressBurst: number;
  addressPerMinute: number;
  loginBurst: number;
  loginPerMinute: number;
  inFlightMax: number;
  slowdownAfter: number;
  slowdownStepMs: number;
  slowdownMaxMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = {
  addressBurst: ADDRESS_FAILURES_BURST,
  addressPerMinute: ADDRESS_FAILURES_PER_MINUTE,
  loginBurst: LOGIN_FAILURES_BURST,
  loginPerMinute: LOGIN_FAILURES_PER_MINUTE,
  inFlightMax: ADDRESS_IN_FLIGHT_MAX,
  slowdownAfter: SLOWDOWN_AFTER_FAILURES,
  slowdownStepMs: SLOWDOWN_STEP_MS,
  slowdownMaxMs: SLOWDOWN_MAX_MS,
};

interface Bucket {
  tokens: number;
  at: number;
  inFlight: number;
}

/** An attempt that may go ahead: report how it ended (exactly once). */
export interface Attempt {
  /** The credentials were right: the tokens come back. */
  succeeded(): void;
  /** They were wrong: the tokens stay spent; resolves after the slowdown's delay. */
  failed(): Promise<void>;
  /** Nothing was checked (an error, a busy hashing queue): the tokens come back. */
  abandoned(): void;
}

export type Admission = { ok: true; attempt: Attempt } | { ok: false; retryAfterS: number };

class Buckets {
  private readonly map = new Map<string, Bucket>();
  constructor(
    private readonly burst: number,
    private readonly perMinute: number,
    private readonly now: () => number,
  ) {}

  get(key: string): Bucket {
    const t = this.now();
    let b = this.map.get(key);
    if (!b) {
      if (this.map.size >= MAX_TRACKED) this.sweep();
      b = { tokens: this.burst, at: t, inFlight: 0 };
      this.map.set(key, b);
    } else {
      b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) / 60_000) * this.perMinute);
      b.at = t;
    }
    return b;
  }

  /** Seconds until the bucket holds a whole token again. */
  wait(b: Bucket): number {
    return Math.max(1, Math.ceil(((1 - b.tokens) / this.perMinute) * 60));
  }

  used(b: Bucket): number {
    return this.burst - b.tokens;
  }

  give(b: Bucket): void {
    b.tokens = Math.min(this.burst, b.tokens + 1);
  }

  private sweep(): void {
    const t = this.now();
    for (const [key, b] of this.map) {
      const tokens = Math.min(this.burst, b.tokens + ((t - b.at) / 60_000) * this.perMinute);
      if (tokens >= this.burst && b.inFlight === 0) this.map.delete(key);
    }
    for (const key of this.map.keys()) {
      if (this.map.size < MAX_TRACKED) break;
      this.map.delete(key);
    }
  }

  get size(): number {
    return this.map.size;
  }
}

export class LoginLimiter {
  private readonly addresses: Buckets;
  private readonly logins: Buckets;

  constructor(
    readonly limits: LoginLimits = DEFAULT_LOGIN_LIMITS,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) =>
      new Promise((r) => setTimeout(r, ms)),
  ) {
    this.addresses = new Buckets(limits.addressBurst, limits.addressPerMinute, now);
    this.logins = new Buckets(limits.loginBurst, limits.loginPerMinute, now);
  }

  /**
   * Whether an attempt at `login` from `client` may be checked now. Refused: how many seconds
   * until it may (the same whether the login exists or not).
   */
  admit(client: string | undefined, login: string): Admission {
    const address = this.addresses.get(`a:${client ?? 'unknown'}`);
    const pair = this.logins.get(
      `l:${client ?? 'unknown'}:${secretHash(login.trim().toLowerCase().slice(0, 200))}`,
    );
    if (address.inFlight >= this.limits.inFlightMax) return { ok: false, retryAfterS: 1 };
    if (address.tokens < 1 || pair.tokens < 1)
      return {
        ok: false,
        retryAfterS: Math.max(
          address.tokens < 1 ? this.addresses.wait(address) : 0,
          pair.tokens < 1 ? this.logins.wait(pair) : 0,
        ),
      };
    address.tokens -= 1;
    pair.tokens -= 1;
    address.inFlight++;
    let settled = false;
    const settle = () => {
      if (settled) throw new Error('login attempt reported twice');
      settled = true;
    };
    const refund = () => {
      settle();
      address.inFlight--;
      this.addresses.give(address);
      this.logins.give(pair);
    };
    return {
      ok: true,
      attempt: {
        succeeded: refund,
        abandoned: refund,
        failed: async () => {
          settle();
          const over = this.addresses.used(address) - this.limits.slowdownAfter;
          const delay =
            over > 0
              ? Math.min(this.limits.slowdownMaxMs, this.limits.slowdownStepMs * 2 ** (over - 1))
              : 0;
          try {
            if (delay > 0) await this.sleep(delay);
          } finally {
            address.inFlight--;
          }
        },
      },
    };
  }

  /** Buckets held (for tests of the memory bound). */
  get tracked(): { addresses: number; logins: number } {
    return { addresses: this.addresses.size, logins: this.logins.size };
  }
}
