import { bech32 } from '@scure/base';
import { validateByron } from './cardano-byron.js';
import { accept, refuse, type AddressResult } from './result.js';

/** Bech32 HRPs (CIP-5) with the network tag and header types (CIP-19) each allows. */
const PREFIXES: Readonly<Record<string, { networkTag: number; types: readonly number[] }>> = {
  addr: { networkTag: 1, types: [0, 1, 2, 3, 4, 5, 6, 7] },
  addr_test: { networkTag: 0, types: [0, 1, 2, 3, 4, 5, 6, 7] },
  stake: { networkTag: 1, types: [14, 15] },
  stake_test: { networkTag: 0, types: [14, 15] },
};

/**
 * Cardano address. Shelley (CIP-19): bech32 without the 90-character limit, HRP `addr`,
 * `addr_test`, `stake` or `stake_test`, a header byte (type in the high nibble, network tag in
 * the low one, which must match the HRP), then 28-byte credentials: base addresses (types 0–3)
 * carry two, pointer addresses (4–5) one and a chain pointer, enterprise (6–7) and stake
 * (14–15) addresses one. Stored lower-case. Byron base58 addresses go to validateByron.
 */
export function validateCardano(input: string): AddressResult {
  const lower = input.toLowerCase();
  if (!/^(addr|addr_test|stake|stake_test)1/.test(lower)) return validateByron(input);
  if (input !== lower && input !== input.toUpperCase()) return refuse('mixed-case bech32 address');
  const decoded = bech32.decodeUnsafe(lower as `${string}1${string}`, false);
  if (!decoded) return refuse('bech32 checksum mismatch or malformed bech32');
  const prefix = PREFIXES[decoded.prefix];
  const bytes = bech32.fromWordsUnsafe(decoded.words);
  if (!prefix || !bytes) return refuse('malformed Cardano bech32 address');
  const header = bytes[0] ?? 0;
  const type = header >> 4;
  if (!prefix.types.includes(type))
    return refuse(`header type ${type} is not allowed under the ${decoded.prefix} prefix`);
  if ((header & 0x0f) !== prefix.networkTag)
    return refuse(`network tag does not match the ${decoded.prefix} prefix`);
  if (!payloadFits(type, bytes.subarray(1)))
    return refuse(`wrong payload length for a type ${type} address`);
  return accept(lower, decoded.prefix.endsWith('_test'));
}

function payloadFits(type: number, payload: Uint8Array): boolean {
  if (type <= 3) return payload.length === 56;
  if (type <= 5) return payload.length > 28 && isChainPointer(payload.subarray(28));
  return payload.length === 28;
}

/** A chain pointer: exactly three variable-length naturals (7 bits a byte, high bit = more follows). */
function isChainPointer(bytes: Uint8Array): boolean {
  let naturals = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (((bytes[i] ?? 0) & 0x80) === 0) naturals++;
  }
  return naturals === 3 && ((bytes[bytes.length - 1] ?? 0x80) & 0x80) === 0;
}
