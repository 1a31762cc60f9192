import { createHash, randomBytes } from 'node:crypto';

/** A UUID in its text form (any version, either letter case): ids in paths, uids, TRP request-identifiers. */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A secret for a URL or a cookie: 32 random bytes, base64url (43 characters). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * How a secret is stored where it must be found again (API keys, session tokens, VASP inbound
 * tokens): its SHA-256, hex. The secrets are 32 random bytes, so no slow hash is needed.
 */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * ISO 17442: 20 characters, letters and digits, the last two check digits such that the whole,
 * letters read as 10 to 35, is 1 modulo 97 (ISO 7064 MOD 97-10).
 */
export function isValidLei(value: string): boolean {
  if (!/^[0-9A-Z]{18}[0-9]{2}$/.test(value)) return false;
  let rest = 0;
  for (const ch of value) {
    const digits = /[0-9]/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}
