import { validateEip55 } from './evm.js';
import type { AddressResult } from './result.js';

/**
 * VeChain (VeChainThor) address: the EVM format, `0x` + 40 hex with an EIP-55 checksum when
 * mixed-case (thor-devkit checksums addresses the same way). Stored lower-case.
 */
export function validateVechain(input: string): AddressResult {
  return validateEip55(input, 'a VeChain');
}
