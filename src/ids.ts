import { randomBytes } from 'node:crypto';

/** A UUID in its text form (any version, either letter case): ids in paths, uids, TRP request-identifiers. */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A secret for a URL or a cookie: 32 random bytes, base64url (43 characters). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}
