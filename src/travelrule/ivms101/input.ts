import { z } from 'zod';
import { optional } from './fields.js';
import { parsePath } from './issues.js';
import { normaliseCommon, type NormalisedCreateTx, type NormalisedReceiveTx } from './normalise.js';
import { canonicalHash, checkRules, type RuleInput, type RuleOutput } from './rules.js';
import {
  BeneficiaryTravelAddress,
  BeneficiaryVaspId,
  InquiryBeneficiary,
  InquiryOriginator,
  ReceiveFields,
  TravelRuleFields,
} from './schema.js';

/**
 * The two request bodies of the spec, as zod schemas: field rules (schema.ts, person.ts), then
 * the rules that join fields (rules.ts), then normalisation (normalise.ts). They are the single
 * source for request validation, the OpenAPI document (io: 'input') and the output types.
 */

/** Runs the joined rules; their problems become zod issues at their spec paths. */
function withRules(value: RuleInput, ctx: z.RefinementCtx): RuleOutput | undefined {
  const { issues, output } = checkRules(value);
  for (const issue of issues)
    ctx.addIssue({ code: 'custom', path: parsePath(issue.path), message: issue.reason });
  return output;
}

const DESCRIPTION =
  'Travel rule transaction input (IVMS101-style natural persons). Both spellings of the interface are accepted (nationalIdentification / nationalIdenficiation, customerIdentification / customerIdenficiation) and stored as the first; different values under two spellings are refused.';

export const CreateTxBody = z
  .object({
    ...TravelRuleFields,
    beneficiary_vasp_id: BeneficiaryVaspId,
    beneficiary_travel_address: BeneficiaryTravelAddress,
  })
  .meta({ description: DESCRIPTION });

export const CreateTxInput = CreateTxBody.transform((value, ctx): NormalisedCreateTx => {
  const rules = withRules(value, ctx);
  if (!rules) return z.NEVER;
  return {
    kind: 'create_tx',
    ...normaliseCommon(value, rules),
    ...(value.beneficiary_vasp_id !== undefined
      ? { beneficiary_vasp_id: value.beneficiary_vasp_id }
      : {}),
    ...(value.beneficiary_travel_address !== undefined
      ? { beneficiary_travel_address: value.beneficiary_travel_address }
      : {}),
  };
});

/** An inbound TRP inquiry in create_tx terms: the beneficiary's wallet address may be missing. */
export const InquiryInput = z
  .object({ ...TravelRuleFields, originator: InquiryOriginator, beneficiary: InquiryBeneficiary })
  .transform((value, ctx): NormalisedCreateTx => {
    const rules = withRules(value, ctx);
    if (!rules) return z.NEVER;
    return { kind: 'create_tx', ...normaliseCommon(value, rules) };
  });

export const ReceiveTxBody = z
  .object({
    ...TravelRuleFields,
    ...ReceiveFields,
    beneficiary_vasp_id: optional(
      z
        .never({ error: 'is not accepted on receive_tx_without_protocol' })
        .meta({ description: 'Not accepted here (the sender has no protocol).' }),
    ),
  })
  .meta({
    description: `${DESCRIPTION} Plus transaction_hash and created_at; no beneficiary_vasp_id.`,
  });

export const ReceiveTxInput = ReceiveTxBody.transform((value, ctx): NormalisedReceiveTx => {
  const rules = withRules(value, ctx);
  if (!rules) return z.NEVER;
  return {
    kind: 'receive_without_protocol',
    ...normaliseCommon(value, rules),
    transaction_hash: canonicalHash(rules.network, value.transaction_hash),
    created_at: new Date(value.created_at).toISOString(),
  };
});
