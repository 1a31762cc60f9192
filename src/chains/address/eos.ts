import { accept, refuse, type AddressResult } from './result.js';

/**
 * EOS account name: the string form of a 64-bit name, 1–12 characters of `a`–`z`, `1`–`5` and
 * `.`, plus an optional 13th character, which has only 4 bits left and so is one of `a`–`j` or
 * `1`–`5`. A trailing `.` is refused: it encodes as nothing, so `abc.` would name `abc`. There is
 * no checksum. Stored as typed (names are lower-case; upper case is refused, not folded).
 */
export function validateEos(input: string): AddressResult {
  if (input.length === 0 || input.length > 13)
    return refuse('EOS account name must be 1 to 13 characters');
  if (!/^[a-z1-5.]+$/.test(input.slice(0, 12)))
    return refuse('EOS account name may hold only a–z, 1–5 and .');
  if (input.length === 13 && !/^[a-j1-5]$/.test(input[12]!))
    return refuse('13th character of an EOS name must be a–j or 1–5');
  if (input.endsWith('.')) return refuse('EOS account name must not end with .');
  return accept(input);
}
