/** Amounts in a chain's smallest unit (wei, satoshi, a token's base unit) shown in whole units. */

/** value / 10^decimals as a float; precision is the float's (the exact integer is in `value`). */
export function formatUnits(value: bigint, decimals: number): number {
  if (decimals <= 0) return Number(value);
  const s = value.toString().padStart(decimals + 1, '0');
  return Number(`${s.slice(0, -decimals)}.${s.slice(-decimals)}`);
}
