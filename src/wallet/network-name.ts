/** The spec's wallet queries report Polygon items as `matic`; every other network by its symbol. */
const REPORTED: Readonly<Record<string, string>> = { polygon: 'matic' };

export function reportedNetwork(symbol: string): string {
  return REPORTED[symbol] ?? symbol;
}
