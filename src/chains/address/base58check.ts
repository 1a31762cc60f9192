import { base58, type BytesCoder } from '@scure/base';
import { equalBytes, sha256d } from './checksum.js';

export type Base58CheckResult = { ok: true; payload: Uint8Array } | { ok: false; reason: string };

/**
 * Base58check: base58 (Bitcoin alphabet unless another coder is given, e.g. Ripple's) of a
 * payload followed by the first 4 bytes of sha256(sha256(payload)). Returns the payload
 * (version bytes included) or why the string is not base58check.
 */
export function decodeBase58Check(input: string, coder: BytesCoder = base58): Base58CheckResult {
  let bytes: Uint8Array;
  try {
    bytes = coder.decode(input);
  } catch {
    return { ok: false, reason: 'not base58: contains a character outside the base58 alphabet' };
  }
  if (bytes.length < 5) return { ok: false, reason: 'too short for base58check' };
  const payload = bytes.subarray(0, bytes.length - 4);
  const checksum = bytes.subarray(bytes.length - 4);
  if (!equalBytes(checksum, sha256d(payload).subarray(0, 4))) {
    return { ok: false, reason: 'base58check checksum mismatch' };
  }
  return { ok: true, payload };
}

/** The base58check string of a payload (version bytes included): decodeBase58Check's inverse. */
export function encodeBase58Check(payload: Uint8Array, coder: BytesCoder = base58): string {
  const bytes = new Uint8Array(payload.length + 4);
  bytes.set(payload);
  bytes.set(sha256d(payload).subarray(0, 4), payload.length);
  return coder.encode(bytes);
}
