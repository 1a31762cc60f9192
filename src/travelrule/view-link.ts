import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Keyring } from './crypto.js';

/**
 * The transaction view link e-mailed to a VASP without the travel rule protocol (spec: Travel
 * rule note 4): `{base_url}/travelrule/transaction/<transaction_uuid>?q=<token>`. Whoever holds
 * the link sees the IVMS101 data of that one transaction until the token expires.
 *
 * Token: `<expiry unix seconds>.<data key id>.<base64url HMAC-SHA256>`. The MAC key is derived
 * (HKDF-SHA256, info VIEW_LINK_INFO) from a data key of the keyring, so no new secret needs
 * configuring and rotating the data key rotates the links; links made with an old key keep
 * working while that key stays in the keyring. The MAC covers the transaction id and the expiry,
 * so neither can be changed; the key id only picks the key.
 */

const VIEW_LINK_INFO = 'tollgate-view-link-v1';
const VIEW_LINK_KEY_BYTES = 32;
/** base64url (no padding) of a 32-byte HMAC-SHA256. */
const MAC_CHARS = 43;
/** Expiry: seconds since the epoch, canonical decimal, at most 12 digits (year 33658). */
const EXPIRY = /^[1-9][0-9]{0,11}$/;
/** Data key ids are hex (crypto.ts keyId); a bound keeps a hostile token from costing anything. */
const KEY_ID = /^[0-9a-f]{1,64}$/;
const MAC = /^[A-Za-z0-9_-]+$/;

export type ViewTokenStatus = 'ok' | 'expired' | 'invalid';

/** The MAC key derived from data key `keyId` (default: the current key); undefined when the keyring lacks it. */
export function viewLinkKey(
  keyring: Keyring,
  keyId?: string,
): { id: string; key: Buffer } | undefined {
  const dataKey = keyId === undefined ? keyring.current : keyring.byId.get(keyId);
  if (!dataKey) return undefined;
  const key = Buffer.from(
    hkdfSync('sha256', dataKey.key, Buffer.alloc(0), VIEW_LINK_INFO, VIEW_LINK_KEY_BYTES),
  );
  return { id: dataKey.id, key };
}

function mac(key: Buffer, transactionId: string, expiry: string): string {
  return createHmac('sha256', key)
    .update(`view\0${transactionId}\0${expiry}`, 'utf8')
    .digest('base64url');
}

/** A token for `transactionId`, valid until `expiresAt` (rounded down to the second), signed with the current key. */
export function createViewToken(keyring: Keyring, transactionId: string, expiresAt: Date): string {
  const expiry = String(Math.floor(expiresAt.getTime() / 1000));
  if (!EXPIRY.test(expiry))
    throw new RangeError('view link expiry must be a time after 1970 and before year 33658');
  const { id, key } = viewLinkKey(keyring)!;
  return `${expiry}.${id}.${mac(key, transactionId, expiry)}`;
}

/**
 * 'ok' when `token` was made for `transactionId` by a key of the keyring and has not expired;
 * 'expired' when the MAC is right but the expiry has passed; 'invalid' for anything else
 * (malformed, tampered, another transaction, a key not in the keyring).
 */
export function verifyViewToken(
  keyring: Keyring,
  transactionId: string,
  token: string,
  now: Date = new Date(),
): ViewTokenStatus {
  if (typeof token !== 'string' || token.length > 200) return 'invalid';
  const parts = token.split('.');
  if (parts.length !== 3) return 'invalid';
  const [expiry, keyId, given] = parts as [string, string, string];
  if (!EXPIRY.test(expiry) || !KEY_ID.test(keyId) || given.length !== MAC_CHARS || !MAC.test(given))
    return 'invalid';
  const derived = viewLinkKey(keyring, keyId);
  if (!derived) return 'invalid';
  // Both strings are MAC_CHARS ASCII characters; comparing the canonical encoding also refuses
  // the non-canonical spellings of the last character.
  const expected = Buffer.from(mac(derived.key, transactionId, expiry), 'ascii');
  if (!timingSafeEqual(expected, Buffer.from(given, 'ascii'))) return 'invalid';
  return now.getTime() >= Number(expiry) * 1000 ? 'expired' : 'ok';
}

/** The link as e-mailed: `<base>/v2/travelrule/transaction/<id>?q=<token>`. */
export function viewLinkUrl(publicBaseUrl: string, transactionId: string, token: string): string {
  const base = publicBaseUrl.replace(/\/+$/, '');
  return `${base}/v2/travelrule/transaction/${encodeURIComponent(transactionId)}?q=${encodeURIComponent(token)}`;
}
