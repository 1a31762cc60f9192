import { accept, refuse, type AddressResult } from './result.js';

/**
 * EOS account name: 1–12 characters of `a`–`z`, `1`–`5` and `.`. A 64-bit name may have a 13th
 * character, but no account can (the chain's newaccount refuses names longer than 12), so a
 * 13-character name is refused as no account's (it was taken; found by an outside probe). A
 * trailing `.` is refused: it encodes as nothing, so `abc.` would name `abc`. There is no
 * checksum. Stored as typed (names are lower-case; upper case is refused, not folded).
 */
export function validateEos(input: string): AddressResult {
  if (input.length === 0 || input.length > 12)
    return refuse('an EOS account name is 1 to 12 characters');
  if (!/^[a-z1-5.]+$/.test(input)) return refuse('EOS account name may hold only a–z, 1–5 and .');
  if (input.endsWith('.')) return refuse('EOS account name must not end with .');
  return accept(input);
}
