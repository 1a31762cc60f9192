import { getAddress } from 'viem';
import { accept, refuse, type AddressResult } from './result.js';

const HEX_40 = /^0x[0-9a-fA-F]{40}$/;

/**
 * A 20-byte hex address with an optional EIP-55 checksum (keccak-256 of the lower-case hex
 * decides the case of each letter). All-lower and all-upper hex carry no checksum and are taken
 * as typed; a mixed-case address must carry a valid one, so a typo is refused rather than
 * streamed. Stored lower-case. `chain` names the chain in the reason.
 */
export function validateEip55(input: string, chain: string): AddressResult {
  if (!HEX_40.test(input))
    return refuse(`not ${chain} address: expected 0x followed by 40 hex digits`);
  const hex = input.slice(2);
  const mixedCase = hex !== hex.toLowerCase() && hex !== hex.toUpperCase();
  if (mixedCase && getAddress(input) !== input)
    return refuse('EIP-55 checksum mismatch in a mixed-case address');
  return accept(input.toLowerCase());
}

/** EVM address (eth, bsc, polygon, avalanche, arb, op): `0x` + 40 hex, EIP-55 checksum when mixed-case. */
export function validateEvm(input: string): AddressResult {
  return validateEip55(input, 'an EVM');
}
