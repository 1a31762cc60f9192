import { z } from 'zod';

/** The spec's base AML tags (aml/tags.ts says what each level means); the config weighs each. */
export const BASE_TAGS = [
  'mixer',
  'fake_kyc',
  'cybercrime',
  'new_wallet',
  'sanctioned',
  'invalid_tokens',
  'financial_crime',
  'stealing_attack',
  'money_laundering',
  'gambling_accounts',
  'blacklisted_tokens',
  'phishing_activities',
  'blacklisted_accounts',
  'blackmail_activities',
  'darkweb_transactions',
  'number_of_malicious_contracts_created',
] as const;

/**
 * The `aml` configuration key (defaults in config/default.json; a TOLLGATE_CONFIG file may
 * override any part). Weights are per base tag, 0–100; level factors 0–1 scale a tag found one
 * hop (direct_) or two hops (indirect_) away; see score.ts for the formula.
 */
const weight = z.number().min(0).max(100);
const factor = z.number().min(0).max(1);
const threshold = z.int().min(0).max(100);

export const AmlConfigSchema = z.object({
  weights: z.record(z.enum(BASE_TAGS), weight),
  level_factors: z.object({ base: factor, direct: factor, indirect: factor }),
  /** Score bands as the spec spells them (`modarate`); low ≤ modarate ≤ high. */
  thresholds: z
    .object({ low: threshold, modarate: threshold, high: threshold })
    .refine((t) => t.low <= t.modarate && t.modarate <= t.high, 'must have low ≤ modarate ≤ high'),
  /** new_wallet: first seen in the indexed history less than this many days ago … */
  new_wallet_days: z.int().min(0).max(36_500),
  /** … or fewer indexed transactions than this. */
  new_wallet_min_tx: z.int().min(0).max(1_000_000),
  /** Counterparties of the queried address considered for direct_ and indirect_ (most transactions first). */
  max_counterparties: z.int().min(1).max(1_000_000),
  /**
   * A label change on an address with more counterparties than this updates the stored exposure
   * in a job (exposure_apply) rather than in its own transaction (src/aml/exposure-store.ts).
   */
  exposure_defer_above: z.int().min(0).max(100_000_000).default(1000),
});

export type AmlConfig = z.infer<typeof AmlConfigSchema>;
