import { decodeBase58Check } from './base58check.js';
import { accept, refuse, type AddressResult } from './result.js';

const TRON_VERSION = 0x41;

/**
 * Tron address: base58check (double-SHA-256 checksum) of version byte 0x41 and the 20-byte
 * account hash, so it starts with `T` and is 34 characters. Stored as typed. The hex form
 * (`41…`) is not accepted.
 */
export function validateTron(input: string): AddressResult {
  const decoded = decodeBase58Check(input);
  if (!decoded.ok) return decoded;
  if (decoded.payload.length !== 21) return refuse('Tron address payload must be 21 bytes');
  if (decoded.payload[0] !== TRON_VERSION)
    return refuse('not a Tron address: version byte must be 0x41 (T…)');
  return accept(input);
}
