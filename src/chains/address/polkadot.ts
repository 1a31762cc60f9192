import { base58 } from '@scure/base';
import { blake2b } from '@noble/hashes/blake2';
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils';
import { equalBytes } from './checksum.js';
import { accept, refuse, type AddressResult } from './result.js';

const POLKADOT_PREFIX = 0;
const SUBSTRATE_PREFIX = 42;
const SS58PRE = utf8ToBytes('SS58PRE');

/** SS58 checksum: the first 2 bytes of BLAKE2b-512 over "SS58PRE", the prefix and the account ID. */
function ss58Checksum(prefixAndKey: Uint8Array): Uint8Array {
  return blake2b(concatBytes(SS58PRE, prefixAndKey), { dkLen: 64 }).subarray(0, 2);
}

/**
 * Polkadot address: SS58, base58 (Bitcoin alphabet) of a one-byte network prefix, the 32-byte
 * account ID and a 2-byte checksum (BLAKE2b-512 of "SS58PRE" + prefix + account ID). Prefix 0 is
 * Polkadot (`1…`). Prefix 42, the generic Substrate format (`5…`) that polkadot.js and most
 * signers show by default, names the same account key and is accepted too: it is re-encoded
 * and stored with prefix 0, so both spellings of one account store the same string. Other
 * prefixes (Kusama 2, parachains) are refused, as are short account indices.
 */
export function validatePolkadot(input: string): AddressResult {
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(input);
  } catch {
    return refuse('not SS58: contains a character outside the base58 alphabet');
  }
  if (bytes.length !== 35)
    return refuse('not a Polkadot account: SS58 address must hold a 32-byte account ID');
  const prefix = bytes[0];
  if (prefix !== POLKADOT_PREFIX && prefix !== SUBSTRATE_PREFIX) {
    return refuse('SS58 network prefix is neither Polkadot (0) nor generic Substrate (42)');
  }
  if (!equalBytes(bytes.subarray(33), ss58Checksum(bytes.subarray(0, 33))))
    return refuse('SS58 checksum mismatch');
  if (prefix === POLKADOT_PREFIX) return accept(input);
  const polkadot = concatBytes(new Uint8Array([POLKADOT_PREFIX]), bytes.subarray(1, 33));
  return accept(base58.encode(concatBytes(polkadot, ss58Checksum(polkadot))));
}
