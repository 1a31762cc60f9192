import { accept, refuse, type AddressResult } from './result.js';

/**
 * Aptos address per AIP-40: the LONG form `0x` + 64 hex digits, or the SHORT form of a special
 * address `0x0`–`0xf` (the framework accounts); no checksum. Other short forms are refused, as
 * AIP-40 requires (a dropped leading zero would name another account), and so are forms without
 * `0x`. Stored in the LONG form, lower-case, so each account has one stored spelling.
 */
export function validateAptos(input: string): AddressResult {
  if (/^0x[0-9a-fA-F]{64}$/.test(input)) return accept(input.toLowerCase());
  if (/^0x[0-9a-fA-F]$/.test(input))
    return accept(`0x${input.slice(2).toLowerCase().padStart(64, '0')}`);
  if (/^0x[0-9a-fA-F]{2,63}$/.test(input))
    return refuse('short Aptos address: only 0x0–0xf may be short (AIP-40)');
  return refuse('not an Aptos address: expected 0x followed by 64 hex digits');
}
