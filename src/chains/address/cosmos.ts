import { bech32 } from '@scure/base';
import { accept, refuse, type AddressResult } from './result.js';

const HRP = 'cosmos';

/**
 * Cosmos Hub account address: bech32 (BIP-173 checksum) with HRP `cosmos` of a 20-byte
 * (secp256k1 key hash) or 32-byte (module and interchain accounts) address. Validator operator
 * (`cosmosvaloper…`) and other HRPs are refused. Stored lower-case.
 */
export function validateCosmos(input: string): AddressResult {
  const lower = input.toLowerCase();
  // Mixed case is said only of what is written as a Cosmos address: any address with upper-case
  // letters (an EIP-55 one, base58) was refused as "mixed-case bech32" (found by an outside probe).
  if (lower.startsWith(`${HRP}1`) && input !== lower && input !== input.toUpperCase())
    return refuse('mixed-case bech32 address');
  const decoded = lower.includes('1')
    ? bech32.decodeUnsafe(lower as `${string}1${string}`)
    : undefined;
  if (!decoded) return refuse('not a Cosmos address: bech32 checksum mismatch or malformed bech32');
  if (decoded.prefix !== HRP) return refuse(`bech32 prefix must be ${HRP}`);
  const bytes = bech32.fromWordsUnsafe(decoded.words);
  if (!bytes || (bytes.length !== 20 && bytes.length !== 32))
    return refuse('Cosmos address must hold 20 or 32 bytes');
  return accept(lower);
}
