import { ofacAssetRule } from './ofac-assets.js';
import { EVM_SCOPE, isLabelCategory, type LabelCategory } from './types.js';

/**
 * What GraphSense TagPack codes mean in Tollgate: a tag's category concepts (the INTELLIGENCE /
 * GraphSense concepts taxonomy) map to the spec's AML categories, its network code (or its
 * currency code when it has no network) to label targets.
 */

/**
 * TagPack concepts with an AML category. A concept of an entity (exchange, miner,
 * wallet_service, defi, …) says who controls an address, not that it is risky: it has none, and
 * a tag that carries only such concepts is skipped. A Tollgate category written as it is
 * (`mixer`, `phishing_activities`) stands for itself.
 */
const CATEGORY_OF_CONCEPT: Readonly<Record<string, LabelCategory>> = {
  mixing_service: 'mixer',
  mixing: 'mixer',
  coinjoin: 'mixer',
  tumbler: 'mixer',
  sanction: 'sanctioned',
  sanctions: 'sanctioned',
  ransomware: 'cybercrime',
  malware: 'cybercrime',
  hacking: 'cybercrime',
  hacker: 'cybercrime',
  data_breach: 'cybercrime',
  social_engineering: 'cybercrime',
  // A hack or exploit of a service drains its funds: the address holds what was taken.
  theft: 'stealing_attack',
  hack: 'stealing_attack',
  service_hack: 'stealing_attack',
  account_hack: 'stealing_attack',
  exploit: 'stealing_attack',
  phishing: 'phishing_activities',
  scam: 'financial_crime',
  fraud: 'financial_crime',
  investment_fraud: 'financial_crime',
  ponzi_scheme: 'financial_crime',
  pyramid_scheme: 'financial_crime',
  payment_card_fraud: 'financial_crime',
  counterfeit: 'financial_crime',
  terrorism_financing: 'financial_crime',
  extortion: 'blackmail_activities',
  sextortion: 'blackmail_activities',
  blackmail: 'blackmail_activities',
  // In TagPacks a market is mostly a darknet market, and drugs and weapons are sold there.
  market: 'darkweb_transactions',
  darkweb: 'darkweb_transactions',
  dark_web: 'darkweb_transactions',
  darknet_market: 'darkweb_transactions',
  drugs: 'darkweb_transactions',
  weapons: 'darkweb_transactions',
  gambling: 'gambling_accounts',
  casino: 'gambling_accounts',
};

/** A concept as the taxonomy spells it: lower case, words joined by `_` (mixing_service). */
export function normaliseConcept(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/** The AML category of a TagPack concept, or null when it has none. */
export function categoryOfConcept(concept: string): LabelCategory | null {
  const key = normaliseConcept(concept);
  if (isLabelCategory(key)) return key;
  return Object.hasOwn(CATEGORY_OF_CONCEPT, key) ? CATEGORY_OF_CONCEPT[key]! : null;
}

export type TagPackNetworkRule = { targets: readonly string[] } | { skip: string };

/**
 * Network codes that are not an asset code, or whose asset is another chain's too: Optimism's
 * and Arbitrum's asset is ETH, Polygon's was MATIC. EVM networks are family-wide, as in the
 * OFAC lists: the same key controls the address on each of them.
 */
const NETWORK_CODES: Readonly<Record<string, TagPackNetworkRule>> = {
  BTC: { targets: ['bitcoin'] },
  OP: { targets: [EVM_SCOPE] },
  MATIC: { targets: [EVM_SCOPE] },
  EOSIO: { targets: ['eos'] },
  KCC: { skip: 'KCC (KuCoin Community Chain) has no network in Tollgate' },
};

/**
 * The targets of a TagPack network code (BTC, ETH, LTC, TRX, …; case-insensitive). A code not
 * named above is read as the OFAC lists read an asset (ofac-assets.ts: XBT, ETH, ARB, BSC, the
 * stablecoins, the chains Tollgate has no network for, then the network table's native assets),
 * so one code means the same in both; with no target, the tag is skipped with the reason.
 */
export function tagpackNetworkRule(code: string): TagPackNetworkRule {
  const key = code.trim().toUpperCase();
  if (Object.hasOwn(NETWORK_CODES, key)) return NETWORK_CODES[key]!;
  const rule = ofacAssetRule(key);
  return 'skip' in rule ? { skip: rule.skip } : { targets: rule.targets };
}
