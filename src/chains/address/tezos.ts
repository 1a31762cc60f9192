import { decodeBase58Check } from './base58check.js';
import { accept, refuse, type AddressResult } from './result.js';

/** Base58check prefixes of Tezos account and contract addresses (Octez lib_crypto/base58.ml). */
const PREFIXES: readonly (readonly [string, readonly number[]])[] = [
  ['tz1', [6, 161, 159]], // ed25519 public key hash
  ['tz2', [6, 161, 161]], // secp256k1
  ['tz3', [6, 161, 164]], // p256
  ['tz4', [6, 161, 166]], // bls12-381
  ['KT1', [2, 90, 121]], // originated contract
];

/**
 * Tezos address: base58check (double-SHA-256 checksum) of a 3-byte prefix and a 20-byte hash,
 * 36 characters: implicit accounts tz1, tz2, tz3, tz4 and originated contracts KT1. Stored as
 * typed. Smart-rollup (`sr1…`) and other Tezos hashes are refused.
 */
export function validateTezos(input: string): AddressResult {
  const decoded = decodeBase58Check(input);
  if (!decoded.ok) return decoded;
  const { payload } = decoded;
  const known = PREFIXES.find(([, prefix]) => prefix.every((byte, i) => payload[i] === byte));
  if (!known) return refuse('not a Tezos address: expected a tz1, tz2, tz3, tz4 or KT1 prefix');
  if (payload.length !== 23) return refuse('Tezos address must hold a 20-byte hash');
  return accept(input);
}
