import { isAddress } from 'viem';
import type { NetworkFamily } from '../config/networks.js';

/**
 * Address validation and normalisation at the edge. EVM addresses are stored lower-case; a
 * mixed-case address must carry a valid EIP-55 checksum (a typo is caught, not stored).
 * Other families join here with the chain-data work.
 */
export interface NormalizedAddress {
  address: string;
  family: NetworkFamily;
}

export function normalizeEvmAddress(input: string): string | null {
  const value = input.trim();
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) return null;
  const hex = value.slice(2);
  const mixed = hex !== hex.toLowerCase() && hex !== hex.toUpperCase();
  if (mixed && !isAddress(value, { strict: true })) return null;
  return value.toLowerCase();
}

/** The address in its stored form and its family, or null when no supported family accepts it. */
export function normalizeStreamAddress(input: string): NormalizedAddress | null {
  const evm = normalizeEvmAddress(input);
  if (evm) return { address: evm, family: 'evm' };
  return null;
}
