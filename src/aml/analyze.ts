import type { Db } from '../db/index.js';
import type { AmlConfig } from '../config/aml.js';
import { addressFacts, type AddressFacts } from './exposure.js';
import { scoreTags } from './score.js';
import { buildTags, type AmlTags, type BaseTag } from './tags.js';

/** The answer of GET /analyze/aml: every tag a boolean, and the score (100 = highest risk). */
export interface AmlAnalysis {
  score: number;
  tags: AmlTags;
}

export interface AnalyzeInput {
  network: string;
  /** Stored form of the address (validateAddress's output). */
  address: string;
  /**
   * Whether this appliance indexes the network. Without chain data nothing can be said about
   * the address's age, so new_wallet is false (unknown) rather than true for every address;
   * labels still give the base tags.
   */
  indexed: boolean;
  /** Unix seconds; the current time by default (tests fix it). */
  now?: number;
}

const DAY_S = 86_400;

/**
 * new_wallet: in the indexed history, first seen less than `new_wallet_days` ago, or fewer than
 * `new_wallet_min_tx` transactions. An address the index never saw is new (history starts at
 * each network's start block, so "never seen" may also mean "quiet since then").
 */
export function isNewWallet(
  facts: Pick<AddressFacts, 'firstSeen' | 'txCount'>,
  config: Pick<AmlConfig, 'new_wallet_days' | 'new_wallet_min_tx'>,
  now: number,
): boolean {
  if (facts.firstSeen === null) return true;
  return (
    facts.firstSeen > now - config.new_wallet_days * DAY_S ||
    facts.txCount < config.new_wallet_min_tx
  );
}

export async function analyzeAddress(
  sql: Db,
  config: AmlConfig,
  input: AnalyzeInput,
): Promise<AmlAnalysis> {
  const facts = await addressFacts(sql, input.network, input.address, {
    maxCounterparties: config.max_counterparties,
    countUpTo: config.new_wallet_min_tx,
  });
  const now = input.now ?? Math.floor(Date.now() / 1000);
  const base: BaseTag[] = [...facts.findings.base];
  if (input.indexed && isNewWallet(facts, config, now)) base.push('new_wallet');
  const tags = buildTags({ ...facts.findings, base });
  return { score: scoreTags(tags, config), tags };
}
