import type { PersonValue } from './legal-person.js';
import type { RuleOutput } from './rules.js';

/**
 * The input as the rest of the travel rule works with it: one spelling of every field, blank
 * optional parts removed, codes and country codes in upper case, wallet addresses in their
 * network's stored form, the network always present.
 */

export interface NormalisedParty {
  persons: PersonValue[];
  accountNumber: string[];
}

interface CommonInput {
  transaction_ref: string;
  transaction_asset: string;
  transaction_network: string;
  /** True when transaction_network was omitted and derived from the wallet addresses (spec note 1). */
  transaction_network_derived: boolean;
  /** Canonical decimal: no trailing fractional zeros, no trailing point ("1.50" → "1.5", "2.0" → "2"). */
  transaction_amount: string;
  /** The amount in the asset's smallest unit: transaction_amount × 10^decimals, an integer string. */
  transaction_amount_base_units: string;
  transaction_asset_decimals: number;
  originator: NormalisedParty;
  beneficiary: NormalisedParty;
}

export interface NormalisedCreateTx extends CommonInput {
  kind: 'create_tx';
  beneficiary_vasp_id?: string;
  /** The beneficiary's Travel Address or inquiry URL, as given (trp/travel-address.ts). */
  beneficiary_travel_address?: string;
}

export interface NormalisedReceiveTx extends CommonInput {
  kind: 'receive_without_protocol';
  transaction_hash: string;
  /** UTC, ISO 8601 with milliseconds (Date.prototype.toISOString). */
  created_at: string;
}

export type NormalisedInput = NormalisedCreateTx | NormalisedReceiveTx;

export function canonicalAmount(amount: string): string {
  const [whole, fraction = ''] = amount.split('.');
  const trimmed = fraction.replace(/0+$/, '');
  return trimmed ? `${whole}.${trimmed}` : whole!;
}

/** `amount` (already checked to have at most `decimals` fractional digits) in the smallest unit. */
export function baseUnits(amount: string, decimals: number): string {
  const [whole, fraction = ''] = canonicalAmount(amount).split('.');
  return BigInt(whole + fraction.padEnd(decimals, '0')).toString();
}

export interface CommonParsed {
  transaction_ref: string;
  transaction_asset: string;
  transaction_network?: string | undefined;
  transaction_amount: string;
  transaction_asset_decimals: string;
  originator: NormalisedParty;
  beneficiary: NormalisedParty;
}

export function normaliseCommon(parsed: CommonParsed, rules: RuleOutput): CommonInput {
  const decimals = Number(parsed.transaction_asset_decimals);
  return {
    transaction_ref: parsed.transaction_ref,
    transaction_asset: parsed.transaction_asset,
    transaction_network: rules.network,
    transaction_network_derived: parsed.transaction_network === undefined,
    transaction_amount: canonicalAmount(parsed.transaction_amount),
    transaction_amount_base_units: baseUnits(parsed.transaction_amount, decimals),
    transaction_asset_decimals: decimals,
    originator: { persons: parsed.originator.persons, accountNumber: rules.originatorAccounts },
    beneficiary: { persons: parsed.beneficiary.persons, accountNumber: rules.beneficiaryAccounts },
  };
}
