import { NETWORK_SYMBOLS, networkInfo } from '../../config/networks.js';
import { EVM_SCOPE } from './types.js';

/**
 * Which networks an OFAC list applies to. The SDN list names a digital currency per address
 * ("Digital Currency Address - XBT"); the lists are split by that asset. An asset maps to its
 * targets: network symbols, or EVM_SCOPE for one family-wide row covering every EVM network.
 * Each address is validated against every target and stored under each that accepts it;
 * an address no target accepts is refused, with the reason.
 */
export type OfacAssetRule =
  | { asset: string; targets: readonly string[] }
  | { asset: string; skip: string };

/**
 * - XBT is OFAC's code for bitcoin. ETH, ARB (Arbitrum) and BSC lists hold EVM addresses: the
 *   same key controls them on every EVM network, so they are family-wide.
 * - Stablecoin lists mix formats: the shipped USDT list holds Ethereum, Omni (bitcoin) and
 *   TRC-20 (trx) addresses. Their targets are the spec networks the token is issued on; 0x + 64
 *   hex is valid on both Sui and Aptos, so a USDC address of that form is labelled on both.
 * - Chains without a network in Tollgate are skipped, whatever the address looks like: a BCH,
 *   BSV or BTG address has bitcoin's form and an ETC address an EVM one, but the listing names
 *   another chain (the ETC address is in the ETH list as well).
 */
const RULES: Readonly<Record<string, OfacAssetRule>> = Object.fromEntries(
  (
    [
      { asset: 'XBT', targets: ['bitcoin'] },
      { asset: 'LTC', targets: ['litecoin'] },
      { asset: 'ETH', targets: [EVM_SCOPE] },
      { asset: 'ARB', targets: [EVM_SCOPE] },
      { asset: 'BSC', targets: [EVM_SCOPE] },
      {
        asset: 'USDT',
        targets: [EVM_SCOPE, 'bitcoin', 'trx', 'solana', 'ton', 'algo', 'eos', 'xtz', 'dot'],
      },
      {
        asset: 'USDC',
        targets: [EVM_SCOPE, 'solana', 'stellar', 'algo', 'trx', 'sui', 'apt', 'dot'],
      },
      { asset: 'TRX', targets: ['trx'] },
      { asset: 'XRP', targets: ['xrp'] },
      { asset: 'BCH', skip: 'BCH (Bitcoin Cash) has no network in Tollgate' },
      { asset: 'BSV', skip: 'BSV (Bitcoin SV) has no network in Tollgate' },
      { asset: 'BTG', skip: 'BTG (Bitcoin Gold) has no network in Tollgate' },
      { asset: 'DASH', skip: 'DASH (Dash) has no network in Tollgate' },
      { asset: 'ETC', skip: 'ETC (Ethereum Classic) has no network in Tollgate' },
      { asset: 'XMR', skip: 'XMR (Monero) has no network in Tollgate' },
      { asset: 'XVG', skip: 'XVG (Verge) has no network in Tollgate' },
      { asset: 'ZEC', skip: 'ZEC (Zcash) has no network in Tollgate' },
    ] satisfies OfacAssetRule[]
  ).map((rule) => [rule.asset, rule]),
);

/**
 * The rule for an asset. An asset not named above (a list OFAC adds later) applies to the
 * networks whose native asset it is in the network table (SOL → solana), EVM ones family-wide;
 * with none, its lines are skipped with the reason.
 */
export function ofacAssetRule(asset: string): OfacAssetRule {
  const known = Object.hasOwn(RULES, asset) ? RULES[asset] : undefined;
  if (known) return known;
  const natives = NETWORK_SYMBOLS.filter((symbol) => networkInfo(symbol)!.asset === asset);
  const targets = [
    ...new Set(
      natives.map((symbol) => (networkInfo(symbol)!.family === 'evm' ? EVM_SCOPE : symbol)),
    ),
  ];
  return targets.length
    ? { asset, targets }
    : { asset, skip: `${asset} is not an asset of any network in Tollgate` };
}

const OFAC_FILE = /^sanctioned_addresses_([A-Z0-9]+)\.txt$/;

/** The asset of an OFAC list file name (`sanctioned_addresses_XBT.txt` → XBT), or null. */
export function ofacAssetOfFile(fileName: string): string | null {
  return OFAC_FILE.exec(fileName)?.[1] ?? null;
}
