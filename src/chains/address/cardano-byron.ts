import { crc32 } from 'node:zlib';
import { base58 } from '@scure/base';
import { accept, refuse, type AddressResult } from './result.js';

/**
 * Cardano Byron (bootstrap) address, base58 (Bitcoin alphabet) of the CBOR
 * `[tag 24(bytes payload), uint crc32(payload)]` (CIP-19 annex). The CRC-32 must match, and the
 * payload must open like `[bytes .size 28 root, {attributes}, type]` with type 0 (public key)
 * or 2 (redemption). Icarus (`Ae2…`), Daedalus (`DdzFF…`) and testnet forms all qualify.
 * Stored as typed.
 */
export function validateByron(input: string): AddressResult {
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(input);
  } catch {
    return refuse('not a Cardano address: neither bech32 (addr1…, stake1…) nor base58 (Byron)');
  }
  const outer = readOuter(bytes);
  if (!outer) return refuse('not a Cardano Byron address: bad CBOR envelope');
  if (crc32(outer.payload) >>> 0 !== outer.crc) return refuse('Byron address CRC-32 mismatch');
  const p = outer.payload;
  const type = p[p.length - 1];
  const opensWithRoot = p[0] === 0x83 && p[1] === 0x58 && p[2] === 28 && (p[31] ?? 0) >> 5 === 5;
  if (!opensWithRoot || (type !== 0 && type !== 2))
    return refuse('not a Cardano Byron address: bad payload');
  return accept(input);
}

/** Reads the array(2) [tag 24 bytestring, uint32] envelope; null unless it spans all the bytes. */
function readOuter(bytes: Uint8Array): { payload: Uint8Array; crc: number } | null {
  if (bytes[0] !== 0x82 || bytes[1] !== 0xd8 || bytes[2] !== 0x18) return null;
  const length = readHead(bytes, 3, 2);
  if (!length) return null;
  const payload = bytes.subarray(length.next, length.next + length.value);
  const crc = readHead(bytes, length.next + length.value, 0);
  if (payload.length !== length.value || !crc || crc.next !== bytes.length) return null;
  return { payload, crc: crc.value };
}

/** A CBOR head of the given major type with an argument of up to 4 bytes. */
function readHead(
  bytes: Uint8Array,
  at: number,
  major: number,
): { value: number; next: number } | null {
  const first = bytes[at];
  if (first === undefined || first >> 5 !== major) return null;
  const info = first & 0x1f;
  if (info < 24) return { value: info, next: at + 1 };
  const size = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : 0;
  if (size === 0 || at + 1 + size > bytes.length) return null;
  let value = 0;
  for (let i = 1; i <= size; i++) value = value * 256 + (bytes[at + i] ?? 0);
  return { value, next: at + 1 + size };
}
