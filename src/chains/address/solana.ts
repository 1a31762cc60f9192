import { base58 } from '@scure/base';
import { accept, refuse, type AddressResult } from './result.js';

const BASE58_32_BYTES = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/**
 * Solana address: base58 (Bitcoin alphabet) of a 32-byte public key or program-derived
 * address, 32–44 characters. There is no checksum, so only the alphabet and the decoded
 * length are checked. Stored as typed (base58 has one spelling per byte string).
 */
export function validateSolana(input: string): AddressResult {
  if (!BASE58_32_BYTES.test(input))
    return refuse('not a Solana address: expected 32 to 44 base58 characters');
  if (base58.decode(input).length !== 32) return refuse('Solana address must decode to 32 bytes');
  return accept(input);
}
