import { scrypt, type ScryptOptions } from 'node:crypto';
import { RetryableError } from '../errors.js';

/**
 * The one door to scrypt in the process. crypto.scrypt runs on libuv's thread pool, which DNS
 * lookups (every webhook URL check), file reads and zlib share: four threads by default. A flood
 * of login attempts that each ran scrypt there filled all four and made every lookup wait behind
 * them (measured: webhook URL checks from 4 to 841 ms at 14 wrong guesses a second). Here at
 * most SCRYPT_CONCURRENCY hashes run at once, so the other threads stay free whatever arrives,
 * and at most SCRYPT_QUEUE_MAX wait; beyond that a new hash is refused at once (HashingBusy),
 * costing nothing. Process-wide, as the thread pool is.
 */

/** Hashes running at once: one of libuv's four threads (UV_THREADPOOL_SIZE) at most. */
export const SCRYPT_CONCURRENCY = 1;
/** Hashes waiting at most (about 80 ms each on this machine: a second and a half of work). */
export const SCRYPT_QUEUE_MAX = 16;

/** The hashing queue is full: the login is refused before any work; a retry later can succeed. */
export class HashingBusyError extends RetryableError {
  constructor() {
    super('password hashing is busy');
    this.name = 'HashingBusyError';
  }
}

interface Waiting {
  start: () => void;
}

let running = 0;
const waiting: Waiting[] = [];

/** Counters for tests and metrics: how much scrypt work was done and how full the queue got. */
export const hashingStats = {
  /** scrypt computations started (a verification of a dummy hash counts like any other). */
  computed: 0,
  /** scrypt computations finished. */
  finished: 0,
  /** Refused because the queue was full. */
  refused: 0,
  /** Highest number running at once, and waiting at once, since the last reset. */
  maxRunning: 0,
  maxWaiting: 0,
};

/** For tests: the high-water marks from now on. */
export function resetHashingHighWater(): void {
  hashingStats.maxRunning = running;
  hashingStats.maxWaiting = waiting.length;
}

function next(): void {
  while (running < SCRYPT_CONCURRENCY && waiting.length > 0) waiting.shift()!.start();
}

/** scrypt through the queue; rejects with HashingBusyError at once when SCRYPT_QUEUE_MAX wait. */
export function queuedScrypt(
  password: string,
  salt: Buffer,
  keylen: number,
  options: ScryptOptions,
): Promise<Buffer> {
  if (running >= SCRYPT_CONCURRENCY && waiting.length >= SCRYPT_QUEUE_MAX) {
    hashingStats.refused++;
    return Promise.reject(new HashingBusyError());
  }
  return new Promise<Buffer>((resolve, reject) => {
    const start = () => {
      running++;
      hashingStats.computed++;
      hashingStats.maxRunning = Math.max(hashingStats.maxRunning, running);
      scrypt(password.normalize('NFC'), salt, keylen, options, (err, key) => {
        running--;
        hashingStats.finished++;
        next();
        if (err) reject(err);
        else resolve(key);
      });
    };
    waiting.push({ start });
    hashingStats.maxWaiting = Math.max(
      hashingStats.maxWaiting,
      waiting.length - (running < SCRYPT_CONCURRENCY ? 1 : 0),
    );
    next();
  });
}
