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

/**
 * True when a string (or key) anywhere in the value holds U+0000, which Postgres text cannot
 * store: such a string reaching a query was a 500 (found by test/fuzz.test.ts). The API's body reader
 * and the TRP endpoints refuse it as they parse. Iterative, so a
 * body nested thousands of levels deep cannot overflow the stack.
 */
export function hasNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (v !== null && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) {
        if (key.includes('\u0000')) return true;
        stack.push(item);
      }
    }
  }
  return false;
}
