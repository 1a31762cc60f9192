import { sha512_256 } from '@noble/hashes/sha2';
import { decodeBase32Canonical } from './base32.js';
import { equalBytes } from './checksum.js';
import { accept, refuse, type AddressResult } from './result.js';

/**
 * Algorand address: 58 characters of RFC 4648 base32 without padding, upper case, of the
 * 32-byte public key followed by a 4-byte checksum, the last 4 bytes of SHA-512/256 of the key.
 * The string must re-encode to itself (no set padding bits). Stored as typed.
 */
export function validateAlgorand(input: string): AddressResult {
  if (!/^[A-Z2-7]{58}$/.test(input))
    return refuse('not an Algorand address: expected 58 upper-case base32 characters');
  const bytes = decodeBase32Canonical(input);
  if (bytes?.length !== 36) return refuse('not a canonical Algorand address encoding');
  const key = bytes.subarray(0, 32);
  if (!equalBytes(bytes.subarray(32), sha512_256(key).subarray(28)))
    return refuse('Algorand address checksum mismatch');
  return accept(input);
}
