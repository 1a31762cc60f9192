import { bech32, bech32m } from '@scure/base';

export type SegwitResult =
  | { ok: true; hrp: string; version: number; program: Uint8Array }
  | { ok: false; reason: string };

/**
 * A segwit address (BIP-173, BIP-350): HRP, `1`, then the witness version and program in
 * bech32 (version 0) or bech32m (versions 1–16, taproot is v1), at most 90 characters, all
 * upper or all lower case. Version 0 programs are 20 or 32 bytes, others 2–40 bytes. The HRP is
 * returned for the caller to check against its network.
 */
export function decodeSegwit(input: string): SegwitResult {
  if (input !== input.toLowerCase() && input !== input.toUpperCase()) {
    return { ok: false, reason: 'mixed-case bech32 address' };
  }
  const lower = input.toLowerCase() as `${string}1${string}`;
  const plain = bech32.decodeUnsafe(lower);
  const modified = plain ? undefined : bech32m.decodeUnsafe(lower);
  const decoded = plain ?? modified;
  if (!decoded) return { ok: false, reason: 'bech32 checksum mismatch or malformed bech32' };
  const [version, ...data] = decoded.words;
  if (version === undefined || version > 16)
    return { ok: false, reason: 'invalid witness version' };
  if (version === 0 && !plain)
    return { ok: false, reason: 'witness version 0 must use bech32, not bech32m' };
  if (version > 0 && !modified)
    return {
      ok: false,
      reason: `witness version ${version} must use bech32m (BIP-350), not bech32`,
    };
  const program = bech32.fromWordsUnsafe(data);
  if (!program) return { ok: false, reason: 'invalid witness program padding' };
  if (program.length < 2 || program.length > 40)
    return { ok: false, reason: 'witness program must be 2 to 40 bytes' };
  if (version === 0 && program.length !== 20 && program.length !== 32) {
    return { ok: false, reason: 'witness version 0 program must be 20 or 32 bytes' };
  }
  return { ok: true, hrp: decoded.prefix, version, program };
}
