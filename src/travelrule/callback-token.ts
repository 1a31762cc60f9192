import { secretHash } from '../ids.js';
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { DataKey, Keyring } from './crypto.js';

/**
 * The token in a transfer's callback URLs (/trp/v3/resolutions/<token>, /confirmations/<token>):
 * `<transaction id, 32 hex><data key id, 16 hex><HMAC-SHA256, 43 base64url>`. It is made from
 * the transaction id with a key derived from a data key (HKDF, info CALLBACK_INFO), so nothing
 * secret about it is stored: a copy of the database cannot make or read a callback URL. Tokens
 * made with an older data key keep working while that key stays in the keyring, and after it is
 * removed once `tollgate data-key rotate` has recorded their hashes (retired-tokens.ts).
 * Transfers begun before such tokens kept a random one, of which only a SHA-256 is stored now
 * (sql/0018); legacyTokenHash finds those.
 */

export const CALLBACK_INFO = 'tollgate-trp-callback-v1';
/** The same construction names a Travel Address we issue (travel-addresses.ts), under its own key. */
export const TRAVEL_ADDRESS_INFO = 'tollgate-travel-address-v1';
const ID_HEX = 32;
const KEY_ID_HEX = 16;
const MAC_CHARS = 43;
const FORM = /^([0-9a-f]{32})([0-9a-f]{16})([A-Za-z0-9_-]{43})$/;

function mac(key: Buffer, id: string, info: string): string {
  const derived = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), info, 32));
  return createHmac('sha256', derived).update(`${info}\0${id}`).digest('base64url');
}

const hex = (uuid: string) => uuid.replace(/-/g, '').toLowerCase();
const uuidOf = (h: string) =>
  `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;

/** The callback token of a transaction, made with the current data key. */
export function callbackToken(
  keyring: Keyring,
  transactionId: string,
  info = CALLBACK_INFO,
): string {
  return tokenWith(keyring.current, transactionId, info);
}

/** The token `dataKey` makes (made) for a row: what an older key handed out, for instance. */
export function tokenWith(dataKey: DataKey, rowId: string, info = CALLBACK_INFO): string {
  return `${hex(rowId)}${dataKey.id}${mac(dataKey.key, rowId, info)}`;
}

/** The transaction (or, with another info, the row) a token was made for; undefined when none. */
export function transactionOfToken(
  keyring: Keyring,
  token: string,
  info = CALLBACK_INFO,
): string | undefined {
  const m = FORM.exec(token);
  if (!m || m[1]!.length !== ID_HEX || m[2]!.length !== KEY_ID_HEX || m[3]!.length !== MAC_CHARS)
    return undefined;
  const dataKey = keyring.byId.get(m[2]!);
  if (!dataKey) return undefined;
  const transactionId = uuidOf(m[1]!);
  const expected = Buffer.from(mac(dataKey.key, transactionId, info), 'ascii');
  const given = Buffer.from(m[3]!, 'ascii');
  return timingSafeEqual(expected, given) ? transactionId : undefined;
}

/** How a transfer's random callback token of before is stored: its SHA-256, hex. */
export function legacyTokenHash(token: string): string {
  return secretHash(token);
}
