/**
 * Bitcoin-family addresses in their stored form: bech32/bech32m (segwit) lower-case, base58 as
 * it is (base58 is case-sensitive). Only the human-readable parts of Bitcoin and Litecoin
 * (mainnet, testnet, regtest) are bech32; no base58 address of these networks starts with them.
 */
const BECH32_PREFIX = /^(bc|tb|bcrt|ltc|tltc|rltc)1/i;

export function normalizeUtxoAddress(address: string): string {
  const a = address.trim();
  return BECH32_PREFIX.test(a) ? a.toLowerCase() : a;
}
