import type { TravelRuleConfig } from '../config/index.js';

/**
 * The Travel Rule threshold, noted on each record per configured jurisdiction and never
 * enforced (the spec: "the service does not state that it enforces it"). The appliance has no
 * price feed: the operator configures a rate per asset in the threshold's currency, and an asset
 * without one is noted as "unknown" rather than guessed.
 */

export interface ThresholdNote {
  jurisdiction: string;
  currency: string;
  threshold: string;
  /** above: value ≥ threshold; below: value < threshold; unknown: no rate for the asset. */
  result: 'above' | 'below' | 'unknown';
  /** The transaction's value in `currency` (decimal string), when a rate is known. */
  value?: string;
  rate?: string;
}

/** A decimal string as a scaled integer: (digits, scale). */
function scaled(decimal: string): { n: bigint; scale: number } {
  const [whole, fraction = ''] = decimal.split('.');
  return { n: BigInt(whole! + fraction), scale: fraction.length };
}

function toDecimal(n: bigint, scale: number): string {
  if (scale === 0) return n.toString();
  const s = n.toString().padStart(scale + 1, '0');
  const out = `${s.slice(0, -scale)}.${s.slice(-scale)}`.replace(/0+$/, '').replace(/\.$/, '');
  return out;
}

/** amount × rate, exactly. */
export function multiplyDecimals(a: string, b: string): string {
  const x = scaled(a);
  const y = scaled(b);
  return toDecimal(x.n * y.n, x.scale + y.scale);
}

/** Compares two non-negative decimal strings: -1, 0 or 1. */
export function compareDecimals(a: string, b: string): number {
  const x = scaled(a);
  const y = scaled(b);
  const scale = Math.max(x.scale, y.scale);
  const xn = x.n * 10n ** BigInt(scale - x.scale);
  const yn = y.n * 10n ** BigInt(scale - y.scale);
  return xn === yn ? 0 : xn > yn ? 1 : -1;
}

export function thresholdNotes(
  config: Pick<TravelRuleConfig, 'thresholds'>,
  asset: string,
  amount: string,
): ThresholdNote[] {
  return config.thresholds.map((t) => {
    const rate = t.rates[asset] ?? t.rates[asset.toUpperCase()];
    const base = {
      jurisdiction: t.jurisdiction.toUpperCase(),
      currency: t.currency,
      threshold: t.amount,
    };
    if (rate === undefined) return { ...base, result: 'unknown' as const };
    const value = multiplyDecimals(amount, rate);
    return {
      ...base,
      result: compareDecimals(value, t.amount) >= 0 ? ('above' as const) : ('below' as const),
      value,
      rate,
    };
  });
}
