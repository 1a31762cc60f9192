/**
 * Node amounts (decimal coins, e.g. 1.23456789 LTC) to integers in the smallest unit, exactly.
 *
 * The bitcoin-core client parses JSON with json-bigint: a number of more than 15 characters
 * arrives as its original text, a shorter one as a JS number. A double holds every decimal of
 * up to 15 significant digits exactly enough that String() gives those same digits back (the
 * shortest round-trip form), so both paths end in the node's own decimal text. That text is then
 * scaled by string arithmetic; no float is ever multiplied.
 */
export function toSmallestUnit(amount: number | string, decimals = 8): bigint {
  const text = typeof amount === 'number' ? numberText(amount) : amount.trim();
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) throw new Error(`not a decimal amount: ${text}`);
  const [, sign, int, frac = '', exp = '0'] = m;
  // Shift the decimal point by the exponent plus the unit's decimals, on the digit string.
  const shift = Number(exp) + decimals;
  const digits = int! + frac;
  const point = int!.length + shift;
  let whole: string;
  if (point <= 0) whole = '0';
  else if (point >= digits.length) whole = digits + '0'.repeat(point - digits.length);
  else whole = digits.slice(0, point);
  const rest = point >= digits.length ? '' : digits.slice(Math.max(point, 0));
  if (/[1-9]/.test(rest)) throw new Error(`amount ${text} has more than ${decimals} decimals`);
  const value = BigInt(whole);
  return sign === '-' ? -value : value;
}

function numberText(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`not a finite amount: ${n}`);
  return String(n);
}
