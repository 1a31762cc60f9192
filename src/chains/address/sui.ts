import { accept, refuse, type AddressResult } from './result.js';

/**
 * Sui address: `0x` and 64 hex digits (32 bytes, BLAKE2b-256 of scheme flag and public key);
 * no checksum. Short forms (`0x2`) are refused: padding them is left to the caller, so an
 * address missing digits is not silently read as another one. Stored lower-case.
 */
export function validateSui(input: string): AddressResult {
  if (/^0x[0-9a-fA-F]{64}$/.test(input)) return accept(input.toLowerCase());
  if (/^0x[0-9a-fA-F]{1,63}$/.test(input))
    return refuse('short Sui address: write all 64 hex digits');
  return refuse('not a Sui address: expected 0x followed by 64 hex digits');
}
