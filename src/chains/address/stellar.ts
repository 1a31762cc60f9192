import { base32nopad } from '@scure/base';
import { decodeBase32Canonical } from './base32.js';
import { crc16Xmodem } from './checksum.js';
import { accept, refuse, type AddressResult } from './result.js';

/** StrKey kinds accepted (SEP-23): version byte, decoded length (version + key + crc), length in characters. */
const KINDS: Readonly<
  Record<string, { version: number; bytes: number; chars: number; name: string }>
> = {
  G: { version: 6 << 3, bytes: 35, chars: 56, name: 'account (G…)' },
  M: { version: 12 << 3, bytes: 43, chars: 69, name: 'muxed account (M…)' },
};

/**
 * Stellar StrKey (SEP-23): RFC 4648 base32 without padding, upper case, of a version byte
 * (ed25519 account 6<<3 → `G`, muxed account 12<<3 → `M`), the 32-byte key (plus the 8-byte
 * memo ID for muxed accounts) and a CRC-16/XMODEM checksum, little-endian. The string must
 * re-encode to itself (no set padding bits). Stored as typed; a muxed account is kept as its
 * own `M…` address, not reduced to its `G…` account. Contract (`C…`) and other StrKeys are refused.
 */
export function validateStellar(input: string): AddressResult {
  const kind = KINDS[input[0] ?? ''];
  if (!kind) return refuse('not a Stellar account: expected a G… or M… StrKey');
  if (!/^[A-Z2-7]+$/.test(input))
    return refuse('not a StrKey: expected upper-case base32 (A–Z, 2–7)');
  if (input.length !== kind.chars)
    return refuse(`a Stellar ${kind.name} StrKey is ${kind.chars} characters`);
  const bytes = decodeBase32Canonical(input);
  if (!bytes || bytes.length !== kind.bytes) return refuse('not a canonical StrKey encoding');
  if (bytes[0] !== kind.version) return refuse('StrKey version byte is not an ed25519 account');
  const crc = crc16Xmodem(bytes.subarray(0, kind.bytes - 2));
  if (bytes[kind.bytes - 2] !== (crc & 0xff) || bytes[kind.bytes - 1] !== crc >> 8)
    return refuse('StrKey CRC-16 checksum mismatch');
  return accept(input);
}

/**
 * The account (`G…`) a muxed account (`M…`, SEP-23) belongs to: the same ed25519 key without the
 * memo ID. Payments to a muxed account credit that account, so what is said of the account (a
 * label) is said of each of its muxed addresses; not the other way round, since one muxed
 * address is one customer of the account's holder. Undefined for anything else.
 */
export function stellarAccountOf(address: string): string | undefined {
  if (!address.startsWith('M') || !validateStellar(address).ok) return undefined;
  const key = decodeBase32Canonical(address)!.subarray(1, 33);
  const account = new Uint8Array(35);
  account[0] = KINDS.G!.version;
  account.set(key, 1);
  const crc = crc16Xmodem(account.subarray(0, 33));
  account[33] = crc & 0xff;
  account[34] = crc >> 8;
  return base32nopad.encode(account);
}
