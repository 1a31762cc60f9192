import { base58xrp } from '@scure/base';
import { decodeBase58Check } from './base58check.js';
import { accept, refuse, type AddressResult } from './result.js';

const ACCOUNT_ID_VERSION = 0x00;

/**
 * XRP Ledger classic address: base58check in the Ripple alphabet (double-SHA-256 checksum) of
 * version byte 0x00 and the 20-byte account ID, so it starts with `r`. Stored as typed.
 * X-addresses (XLS-5d, account and destination tag in one string) are not accepted.
 */
export function validateXrp(input: string): AddressResult {
  const decoded = decodeBase58Check(input, base58xrp);
  if (!decoded.ok) return decoded;
  if (decoded.payload.length !== 21)
    return refuse('XRP address payload must be a version byte and a 20-byte account ID');
  if (decoded.payload[0] !== ACCOUNT_ID_VERSION)
    return refuse('not a classic XRP address: version byte must be 0x00 (r…)');
  return accept(input);
}
