import { base58xrp } from '@scure/base';
import { decodeBase58Check, encodeBase58Check } from './base58check.js';
import { accept, refuse, type AddressResult } from './result.js';

const ACCOUNT_ID_VERSION = 0x00;
/** XLS-5d X-address prefixes: the main network's (`X…`) and the test networks' (`T…`). */
const X_MAIN = [0x05, 0x44] as const;
const X_TEST = [0x04, 0x93] as const;

/**
 * XRP Ledger address. A classic address: base58check in the Ripple alphabet (double-SHA-256
 * checksum) of version byte 0x00 and the 20-byte account ID, so it starts with `r`; stored as
 * typed. An X-address (XLS-5d: the account and an optional destination tag in one string, as
 * exchanges give deposit addresses): base58check of a 2-byte network prefix, the account ID, a
 * flag byte (0: no tag, 1: a tag) and 8 bytes of tag (a 32-bit tag, little-endian, then 4 zero
 * bytes); stored as typed, as a Stellar muxed account is: its tag names one customer of the
 * account's holder (a Travel Rule account number keeps it), and what is said of the account (a
 * label) is said of it through xrpAccountOf.
 */
export function validateXrp(input: string): AddressResult {
  const decoded = decodeBase58Check(input, base58xrp);
  if (!decoded.ok) return decoded;
  const payload = decoded.payload;
  if (payload.length === 31) {
    const x = xAddress(payload);
    return x.ok ? accept(input, x.test) : x;
  }
  if (payload.length !== 21)
    return refuse('XRP address payload must be a version byte and a 20-byte account ID');
  if (payload[0] !== ACCOUNT_ID_VERSION)
    return refuse('not a classic XRP address: version byte must be 0x00 (r…)');
  return accept(input);
}

/** The classic address (`r…`) of an X-address's account; undefined for anything else. */
export function xrpAccountOf(address: string): string | undefined {
  const decoded = decodeBase58Check(address, base58xrp);
  if (!decoded.ok || decoded.payload.length !== 31) return undefined;
  const x = xAddress(decoded.payload);
  return x.ok ? x.account : undefined;
}

function xAddress(
  payload: Uint8Array,
): { ok: true; account: string; test: boolean } | { ok: false; reason: string } {
  const prefix = [payload[0], payload[1]];
  const test = prefix[0] === X_TEST[0] && prefix[1] === X_TEST[1];
  if (!test && (prefix[0] !== X_MAIN[0] || prefix[1] !== X_MAIN[1]))
    return { ok: false, reason: 'not an XRP X-address: unknown network prefix' };
  const flag = payload[22];
  const tag = payload.subarray(23);
  if (flag !== 0 && flag !== 1)
    return { ok: false, reason: 'XRP X-address flag byte must be 0 or 1' };
  // The tag's upper 4 bytes are reserved (zero); without a tag, all 8 are zero.
  if (tag.subarray(4).some((b) => b !== 0) || (flag === 0 && tag.some((b) => b !== 0)))
    return { ok: false, reason: 'XRP X-address tag bytes are malformed' };
  const account = new Uint8Array(21);
  account.set(payload.subarray(2, 22), 1);
  return { ok: true, account: encodeBase58Check(account, base58xrp), test };
}
