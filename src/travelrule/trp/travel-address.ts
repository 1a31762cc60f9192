import { createHash } from 'node:crypto';
import { base58, bech32 } from '@scure/base';

/**
 * TRP Travel Addresses: where a beneficiary's VASP takes inquiries, in one string a customer can
 * pass along. Two forms exist:
 * - TRP 3.1's `ta…`: "ta" and the base58 (Bitcoin alphabet) of the URL without its scheme,
 *   which must carry the query parameter t=i, followed by the first 4 bytes of its double
 *   SHA-256 (a checksum). It means https://<that URL>.
 * - The earlier LNURL form: `lnurl1…` (any one letter case), the bech32 of the whole URL under
 *   the prefix "lnurl" (longer than bech32's usual 90 characters).
 * A plain https URL is taken as well, as it is. A Travel Address's inquiry is POSTed with t=i set.
 */

export type TravelAddressResult = { ok: true; url: URL } | { ok: false; reason: string };

const MAX_CHARS = 2000;

function checksum(text: string): Uint8Array {
  const once = createHash('sha256').update(text, 'utf8').digest();
  return createHash('sha256').update(once).digest().subarray(0, 4);
}

/** The `ta…` Travel Address of an https URL (its scheme dropped, t=i added). */
export function encodeTravelAddress(url: string | URL): string {
  const u = new URL(url);
  if (u.protocol !== 'https:') throw new TypeError('a Travel Address names an https URL');
  u.searchParams.set('t', 'i');
  const text = u.href.slice('https://'.length);
  const bytes = Buffer.from(text, 'utf8');
  return `ta${base58.encode(Buffer.concat([bytes, checksum(text)]))}`;
}

/** Where an inquiry for this Travel Address (or URL) goes; why not, when it is none. */
export function decodeTravelAddress(value: string): TravelAddressResult {
  const input = value.trim();
  if (input.length === 0 || input.length > MAX_CHARS)
    return { ok: false, reason: 'must be a Travel Address (ta…, lnurl1…) or an https URL' };
  let href: string;
  if (/^lnurl1/i.test(input)) {
    if (input !== input.toLowerCase() && input !== input.toUpperCase())
      return { ok: false, reason: 'an LNURL must be all lower or all upper case' };
    try {
      const { prefix, words } = bech32.decode(input.toLowerCase() as `${string}1${string}`, false);
      if (prefix !== 'lnurl') return { ok: false, reason: 'not an LNURL' };
      href = Buffer.from(bech32.fromWords(words)).toString('utf8');
    } catch {
      return { ok: false, reason: 'not a valid LNURL (bech32)' };
    }
  } else if (input.startsWith('ta')) {
    let bytes: Uint8Array;
    try {
      bytes = base58.decode(input.slice(2));
    } catch {
      return { ok: false, reason: 'not a valid Travel Address (base58)' };
    }
    if (bytes.length <= 4) return { ok: false, reason: 'not a valid Travel Address (too short)' };
    const text = Buffer.from(bytes.subarray(0, -4)).toString('utf8');
    if (!Buffer.from(checksum(text)).equals(Buffer.from(bytes.subarray(-4))))
      return { ok: false, reason: 'not a valid Travel Address (its checksum does not match)' };
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text))
      return { ok: false, reason: 'not a valid Travel Address (it names a scheme)' };
    href = `https://${text}`;
  } else href = input;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return { ok: false, reason: 'must be a Travel Address (ta…, lnurl1…) or an https URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, reason: 'must name an https URL' };
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials' };
  if (url.port === '0') return { ok: false, reason: 'port 0 is not a port to connect to' };
  if (input.startsWith('ta') && url.searchParams.get('t') !== 'i')
    return { ok: false, reason: 'not a valid Travel Address (no t=i)' };
  // A Travel Address names an inquiry endpoint: t=i says so (TRP 3.1). A plain URL is used as given.
  if (isTravelAddress(input)) url.searchParams.set('t', 'i');
  return { ok: true, url };
}

/** A Travel Address (ta…, lnurl1…) rather than a plain URL. */
export function isTravelAddress(value: string): boolean {
  return /^lnurl1/i.test(value.trim()) || value.trim().startsWith('ta');
}
