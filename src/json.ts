import { randomBytes } from 'node:crypto';

/**
 * JSON.stringify that writes bigint values as exact JSON numbers (JSON numbers have no size
 * limit; a JS number would round 1 ETH in wei). Where the spec says "number" for a chain integer
 * the body carries every digit; a reader that needs them parses with a big-number JSON parser.
 */
export function stringifyWithBigInts(value: unknown): string {
  const marker = `__bigint_${randomBytes(6).toString('hex')}_`;
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${marker}${v.toString()}` : v));
  return text.replace(new RegExp(`"${marker}(-?\\d+)"`, 'g'), '$1');
}
