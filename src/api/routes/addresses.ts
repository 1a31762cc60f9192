import { validateAddress } from '../../chains/address/index.js';
import { ApiError, ErrorNumber } from '../../errors.js';

/**
 * The stored form of `network`'s address, or 5002. A test network's form (testnet, signet,
 * regtest) is one only where this appliance indexes the network (whose node may be a test
 * network's, followed under the network's symbol); elsewhere the network means its mainnet, which
 * has no such address (a tb1… address under bitcoin came back clean; found by an outside probe).
 */
export function addressOrThrow(network: string, input: string, indexed: readonly string[]): string {
  const result = validateAddress(network, input);
  if (!result.ok)
    throw new ApiError(400, ErrorNumber.INVALID_ADDRESS, `Invalid Address: ${result.reason}.`);
  if (result.testnet && !indexed.includes(network))
    throw new ApiError(
      400,
      ErrorNumber.INVALID_ADDRESS,
      `Invalid Address: a test network's address (testnet, signet or regtest); ${network} here is its mainnet, which has none (a test network is followed under the network's symbol only by an appliance that indexes it).`,
    );
  return result.address;
}
