import { sha256 } from '@noble/hashes/sha2';

/**
 * CRC-16/XMODEM (polynomial 0x1021, initial value 0, no reflection, no final xor): the checksum
 * of Stellar StrKeys (stored little-endian) and of TON user-friendly addresses (big-endian).
 * Check value: "123456789" gives 0x31c3.
 */
export function crc16Xmodem(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

/** SHA-256 applied twice: the hash whose first four bytes are a base58check checksum. */
export function sha256d(bytes: Uint8Array): Uint8Array {
  return sha256(sha256(bytes));
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
