import { randomBytes, timingSafeEqual } from 'node:crypto';
import { HashingBusyError, queuedScrypt } from './hashing.js';

/**
 * Operator passwords, stored as scrypt hashes (node:crypto, no extra dependency):
 *   scrypt$<N>$<r>$<p>$<salt base64>$<hash base64>
 * The parameters travel with each hash, so they can be raised later without breaking old ones.
 * Every hash goes through the process's bounded scrypt queue (hashing.ts).
 */

const SCRYPT_N = 2 ** 15;
const SCRYPT_R = 8;
const SCRYPT_P = 1;
const SALT_BYTES = 16;
const HASH_BYTES = 32;

/** Bounds on the parameters read back from a stored hash: a bad row must not exhaust memory. */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

/** scrypt needs 128·N·r bytes; the default maxmem (32 MiB) is just too small for N=2^15, r=8. */
function maxmemFor(n: number, r: number): number {
  return 128 * n * r * 2 + 1024 * 1024;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await queuedScrypt(password, salt, HASH_BYTES, {
    N: SCRYPT_N,
    r: SCRYPT_R,
    p: SCRYPT_P,
    maxmem: maxmemFor(SCRYPT_N, SCRYPT_R),
  });
  return `scrypt$${SCRYPT_N}$${SCRYPT_R}$${SCRYPT_P}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function parseStored(
  stored: string,
): { n: number; r: number; p: number; salt: Buffer; hash: Buffer } | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [n, r, p] = parts.slice(1, 4).map((v) => (/^\d{1,8}$/.test(v!) ? Number(v) : NaN)) as [
    number,
    number,
    number,
  ];
  if (
    !(n >= 2 && n <= MAX_N && (n & (n - 1)) === 0) ||
    !(r >= 1 && r <= MAX_R) ||
    !(p >= 1 && p <= MAX_P)
  )
    return undefined;
  if (!BASE64.test(parts[4]!) || !BASE64.test(parts[5]!)) return undefined;
  const salt = Buffer.from(parts[4]!, 'base64');
  const hash = Buffer.from(parts[5]!, 'base64');
  if (salt.length < 8 || hash.length < 16 || hash.length > 64) return undefined;
  return { n, r, p, salt, hash };
}

/**
 * True when the password matches the stored hash; false for a malformed one. Throws only
 * HashingBusyError (the queue is full: nothing was checked).
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStored(stored);
  if (!parsed) return false;
  try {
    const candidate = await queuedScrypt(password, parsed.salt, parsed.hash.length, {
      N: parsed.n,
      r: parsed.r,
      p: parsed.p,
      maxmem: maxmemFor(parsed.n, parsed.r),
    });
    return timingSafeEqual(candidate, parsed.hash);
  } catch (err) {
    if (err instanceof HashingBusyError) throw err;
    return false;
  }
}

/** A new password: 24 random bytes, base64url (32 characters). */
export function generatePassword(): string {
  return randomBytes(24).toString('base64url');
}
