import { base32nopad } from '@scure/base';

/**
 * RFC 4648 base32 without padding, decoded only when the string is the one spelling of its
 * bytes: upper case, a length that whole bytes can have, unused trailing bits zero. Stellar
 * (SEP-23) and Algorand addresses must be canonical, so one key never has two accepted strings.
 */
export function decodeBase32Canonical(input: string): Uint8Array | null {
  try {
    const bytes = base32nopad.decode(input);
    return base32nopad.encode(bytes) === input ? bytes : null;
  } catch {
    return null;
  }
}
