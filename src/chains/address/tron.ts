import { hexToBytes } from '@noble/hashes/utils';
import { decodeBase58Check, encodeBase58Check } from './base58check.js';
import { accept, refuse, type AddressResult } from './result.js';

const TRON_VERSION = 0x41;

/**
 * Tron address, in either of the two forms Tron documents for one account: base58check
 * (double-SHA-256 checksum) of version byte 0x41 and the 20-byte account hash, which starts with
 * `T` and is 34 characters; or the hex of those 21 bytes, `41` and 40 hex digits, as Tron's own
 * APIs answer (`owner_address`). Stored in the `T…` form either way, so that both name the same
 * account and its labels (the hex form was refused as "not base58"; found by an outside probe).
 * The hex form has no checksum.
 */
export function validateTron(input: string): AddressResult {
  if (/^41[0-9a-fA-F]{40}$/.test(input)) return accept(encodeBase58Check(hexToBytes(input)));
  if (/^0x/i.test(input))
    return refuse('not a Tron address: it starts with T (base58check) or 41 (hex, no 0x)');
  if (/^41[0-9a-fA-F]*$/.test(input))
    return refuse('a hex Tron address is 41 followed by 40 hex digits');
  const decoded = decodeBase58Check(input);
  if (!decoded.ok) return decoded;
  if (decoded.payload.length !== 21) return refuse('Tron address payload must be 21 bytes');
  if (decoded.payload[0] !== TRON_VERSION)
    return refuse('not a Tron address: version byte must be 0x41 (T…)');
  return accept(input);
}
