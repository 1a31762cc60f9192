import { base64 } from '@scure/base';
import { bytesToHex } from '@noble/hashes/utils';
import { crc16Xmodem } from './checksum.js';
import { accept, refuse, type AddressResult } from './result.js';

const RAW = /^(0|-1):([0-9a-fA-F]{64})$/;
const BOUNCEABLE = 0x11;
const NON_BOUNCEABLE = 0x51;
const TEST_ONLY = 0x80;

/**
 * TON address, stored in the raw form `<workchain>:<64 hex>` lower-case, since one account has
 * many user-friendly spellings. Accepted: raw with workchain 0 or -1; user-friendly, 48
 * characters of base64 or base64url (not both) of 36 bytes: a flags byte (0x11 bounceable `E…`,
 * 0x51 non-bounceable `U…`, plus 0x80 for test-only `k…`/`0…`), the workchain (0 or -1), the
 * 32-byte account hash and a CRC-16/XMODEM of the first 34 bytes, big-endian.
 */
export function validateTon(input: string): AddressResult {
  const raw = RAW.exec(input);
  if (raw) return accept(`${raw[1]}:${raw[2]!.toLowerCase()}`);
  if (input.length !== 48 || !/^[A-Za-z0-9+/_-]+$/.test(input)) {
    return refuse(
      'not a TON address: expected 0:<64 hex>, -1:<64 hex> or a 48-character user-friendly address',
    );
  }
  if (/[+/]/.test(input) && /[-_]/.test(input))
    return refuse('TON address mixes base64 and base64url characters');
  const bytes = base64.decode(input.replace(/-/g, '+').replace(/_/g, '/'));
  const flags = (bytes[0] ?? 0) & ~TEST_ONLY;
  if (flags !== BOUNCEABLE && flags !== NON_BOUNCEABLE) return refuse('unknown TON address flags');
  const workchain = bytes[1] === 0xff ? -1 : bytes[1];
  if (workchain !== 0 && workchain !== -1) return refuse('TON workchain must be 0 or -1');
  const crc = crc16Xmodem(bytes.subarray(0, 34));
  if (bytes[34] !== crc >> 8 || bytes[35] !== (crc & 0xff))
    return refuse('TON address CRC-16 checksum mismatch');
  return accept(
    `${workchain}:${bytesToHex(bytes.subarray(2, 34))}`,
    ((bytes[0] ?? 0) & TEST_ONLY) !== 0,
  );
}
