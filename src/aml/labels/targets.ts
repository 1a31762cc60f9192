import { EVM_NETWORKS, networkInfo } from '../../config/networks.js';
import { inferFamily, validateAddress, type AddressResult } from '../../chains/address/index.js';
import { EVM_SCOPE } from './types.js';

/**
 * Validates an address for a label target: a network symbol, or EVM_SCOPE (every EVM network
 * shares one address format, so any EVM symbol's rules do).
 */
export function validateForTarget(target: string, input: string): AddressResult {
  return validateAddress(target === EVM_SCOPE ? (EVM_NETWORKS[0] ?? 'eth') : target, input);
}

/** True for a target labels can be stored under: a network symbol or EVM_SCOPE. */
export function isLabelTarget(target: string): boolean {
  return target === EVM_SCOPE || networkInfo(target) !== undefined;
}

/**
 * The reason an address fits none of `targets`: the validator's own reason for a single target,
 * and a hint when the address is valid on networks the list does not cover (an OFAC list can
 * carry an address of another chain by mistake; it is reported, not moved to that chain).
 */
export function notForTargets(targets: readonly string[], input: string, listName: string): string {
  const only = targets.length === 1 ? validateForTarget(targets[0]!, input) : undefined;
  const reason =
    only && !only.ok
      ? `not a valid ${targets[0]} address: ${only.reason}`
      : `not a valid address of any of ${targets.join(', ')}`;
  const elsewhere = inferFamily(input);
  if (!elsewhere) return reason;
  const where = elsewhere.family === 'evm' ? EVM_SCOPE : elsewhere.networks.join(', ');
  return `${reason} (it is a valid ${where} address, which ${listName} does not cover)`;
}
