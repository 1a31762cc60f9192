import type { AmlConfig } from '../config/aml.js';
import { parseTag, type AmlTags } from './tags.js';

/**
 * Risk score 0–100, where **100 is the highest risk** (one scale for every answer).
 *
 * Each true tag contributes a risk r = min(1, weight(base tag) / 100 × factor(level)), level
 * being base, direct_ or indirect_. The risks combine as independent signals ("noisy OR"):
 *
 *   score = round(100 × (1 − Π over true tags (1 − r)))
 *
 * So one tag alone scores weight × factor, more tags raise the score but never past 100, and a
 * tag with weight 100 at factor 1 (base `sanctioned` by default) scores 100.
 */
export function scoreTags(
  tags: AmlTags,
  config: Pick<AmlConfig, 'weights' | 'level_factors'>,
): number {
  let clean = 1;
  for (const [name, value] of Object.entries(tags)) {
    if (!value) continue;
    const parsed = parseTag(name);
    if (!parsed) continue;
    const risk = Math.min(
      1,
      (config.weights[parsed.tag] / 100) * config.level_factors[parsed.level],
    );
    clean *= 1 - risk;
  }
  return Math.round(100 * (1 - clean));
}

export type RiskBand = 'none' | 'low' | 'modarate' | 'high';

/** The band of a score: at or above a threshold is in its band. */
export function riskBand(score: number, t: AmlConfig['thresholds']): RiskBand {
  if (score >= t.high) return 'high';
  if (score >= t.modarate) return 'modarate';
  if (score >= t.low) return 'low';
  return 'none';
}
