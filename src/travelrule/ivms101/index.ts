import { CreateTxInput, InquiryInput, ReceiveTxInput } from './input.js';
import {
  comparePaths,
  fallbackReason,
  formatPath,
  type PathSegment,
  type TravelRuleIssue,
} from './issues.js';
import type { NormalisedInput } from './normalise.js';

/**
 * Validation of the travel rule transaction input (Travel Rule issue §1, IVMS101): create_tx
 * and receive_tx_without_protocol bodies. Pure: no database, no network I/O.
 *
 * Order of checks: every field on its own first (types, lengths, code lists, country codes,
 * dates, formats); once all fields are well formed, the rules that join fields (originator
 * identification, amount against decimals, network derivation and wallet addresses, hash
 * format). A body with a malformed field therefore reports only field problems, then the
 * joined rules on the next attempt.
 */

/** create_tx, receive_tx_without_protocol, or an inbound TRP inquiry (trp_inquiry). */
export type TravelRuleKind = 'create_tx' | 'receive_without_protocol' | 'trp_inquiry';

export type TravelRuleParseResult =
  | { ok: true; value: NormalisedInput }
  | {
      ok: false;
      /** The first problem in path order (the order of the spec's tables), as the API reports it. */
      path: string;
      /** `path: reason` of that problem, ready for an API error body. */
      message: string;
      /** Every problem found, in path order, for the operator dashboard. */
      issues: TravelRuleIssue[];
    };

const SCHEMAS = {
  create_tx: CreateTxInput,
  receive_without_protocol: ReceiveTxInput,
  trp_inquiry: InquiryInput,
} as const;

export function parseTravelRuleInput(body: unknown, kind: TravelRuleKind): TravelRuleParseResult {
  const result = SCHEMAS[kind].safeParse(body, { error: fallbackReason });
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues
    .map((issue) => ({ segments: issue.path as PathSegment[], reason: issue.message }))
    .sort((a, b) => comparePaths(a.segments, b.segments))
    .map(({ segments, reason }) => ({
      path: formatPath(segments),
      reason: segments.length === 0 ? 'the body must be a JSON object' : reason,
    }));
  const first = issues[0]!;
  return {
    ok: false,
    path: first.path,
    message: first.path ? `${first.path}: ${first.reason}` : first.reason,
    issues,
  };
}

export { CreateTxBody, CreateTxInput, ReceiveTxBody, ReceiveTxInput } from './input.js';
export { TravelRuleFields } from './schema.js';
export type {
  NormalisedCreateTx,
  NormalisedInput,
  NormalisedParty,
  NormalisedReceiveTx,
} from './normalise.js';
export type { NaturalPersonValue } from './person.js';
export type { LegalPersonValue, PersonValue } from './legal-person.js';
export type { TravelRuleIssue } from './issues.js';
export {
  ADDRESS_TYPES,
  LEGAL_PERSON_NAME_TYPES,
  LEGAL_PERSON_NATIONAL_IDENTIFIER_TYPES,
  NAME_IDENTIFIER_TYPES,
  NATIONAL_IDENTIFIER_TYPES,
} from './codes.js';
export { COUNTRY_CODES, countryCode } from './countries.js';
export { EARLIEST_DATE_OF_BIRTH, IVMS101_MAX_CHARS } from './fields.js';
export { DEFAULT_TOKEN_NETWORK } from './network.js';
