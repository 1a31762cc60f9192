import { networkInfo } from '../../config/networks.js';
import { validateAddress } from '../../chains/address/index.js';
import { assetMisfit, deriveNetwork } from './network.js';
import type { PersonValue } from './legal-person.js';

/**
 * The rules that join fields, run once every field is well formed (the spec's create_tx rules,
 * the amount against the decimals, the wallet addresses against the network). Each problem is
 * a path in the spec's terms and a reason that never repeats a value.
 */

export interface RuleIssue {
  path: string;
  reason: string;
}

interface PartyShape {
  persons: PersonValue[];
  accountNumber: string[];
}

export interface RuleInput {
  transaction_asset: string;
  transaction_network?: string | undefined;
  transaction_amount: string;
  transaction_asset_decimals: string;
  originator: PartyShape;
  beneficiary: PartyShape;
  transaction_hash?: string;
  created_at?: string;
}

/** A created_at this far ahead of the appliance's clock is still accepted (clock skew). */
export const CREATED_AT_SKEW_MS = 5 * 60_000;

export interface RuleOutput {
  network: string;
  /** Account numbers in the network's stored form, same order as sent. */
  originatorAccounts: string[];
  beneficiaryAccounts: string[];
}

/**
 * The spec: "originator must contain name and wallet address, and at least one of date of
 * birth, identity information, address, customer number". Checked for every originator person
 * (each must be identifiable on its own, as for a joint account); name and wallet address are
 * required by the schema for both sides. A legal person has no date of birth: an address of
 * type GEOG, a national identification or a customer number (IVMS101
 * OriginatorInformationLegalPerson: "geographicAddress (with an addressType value of 'GEOG')").
 * A natural person's address may be of any type (OriginatorInformationNaturalPerson).
 * The problem's path and reason, or undefined when the person is identified.
 */
function originatorUnidentified(person: PersonValue, i: number): RuleIssue | undefined {
  if ('legalPerson' in person) {
    const p = person.legalPerson;
    return p.geographicAddress?.some((a) => a.addressType === 'GEOG') ||
      p.nationalIdentification !== undefined ||
      p.customerNumber !== undefined
      ? undefined
      : {
          path: `originator.persons[${i}].legalPerson`,
          reason:
            'needs at least one of geographicAddress of addressType GEOG, nationalIdentification, customerNumber (IVMS101 OriginatorInformationLegalPerson)',
        };
  }
  const p = person.naturalPerson;
  return p.dateAndPlaceOfBirth !== undefined ||
    p.nationalIdentification !== undefined ||
    p.geographicAddress !== undefined ||
    p.customerIdentification !== undefined
    ? undefined
    : {
        path: `originator.persons[${i}].naturalPerson`,
        reason:
          'needs at least one of dateAndPlaceOfBirth.dateOfBirth, nationalIdentification, geographicAddress, customerIdentification',
      };
}

/** Fractional digits that carry value: trailing zeros do not count ("1.50" has one). */
export function fractionDigits(amount: string): number {
  const fraction = amount.split('.')[1] ?? '';
  return fraction.replace(/0+$/, '').length;
}

/**
 * A transaction hash in one letter case: EVM and Bitcoin-family hashes are hex, stored and sent
 * in lower case (as tx_detail stores them), so that the same hash in another case is the same.
 */
export function canonicalHash(network: string | null, hash: string): string {
  const family = network ? networkInfo(network)?.family : undefined;
  return family === 'evm' || family === 'utxo' ? hash.toLowerCase() : hash;
}

/** Transaction hash formats where the spec's networks fix one; other families: any non-blank string without whitespace. */
export function hashReason(network: string, hash: string): string | null {
  const family = networkInfo(network)?.family;
  if (family === 'evm')
    return /^0x[0-9a-fA-F]{64}$/.test(hash) ? null : 'must be 0x and 64 hex digits';
  if (family === 'utxo') return /^[0-9a-fA-F]{64}$/.test(hash) ? null : 'must be 64 hex digits';
  return /^\S+$/.test(hash) ? null : 'must not contain whitespace';
}

export function checkRules(input: RuleInput): { issues: RuleIssue[]; output?: RuleOutput } {
  const issues: RuleIssue[] = [];
  const decimals = Number(input.transaction_asset_decimals);
  if (fractionDigits(input.transaction_amount) > decimals) {
    issues.push({
      path: 'transaction_amount',
      reason: `has more fractional digits than transaction_asset_decimals (${decimals})`,
    });
  }
  input.originator.persons.forEach((person, i) => {
    const issue = originatorUnidentified(person, i);
    if (issue) issues.push(issue);
  });
  if (
    input.created_at !== undefined &&
    Date.parse(input.created_at) > Date.now() + CREATED_AT_SKEW_MS
  ) {
    issues.push({ path: 'created_at', reason: 'must not be in the future' });
  }

  const accounts = [
    ...input.originator.accountNumber.map((value, i) => ({
      path: `originator.accountNumber[${i}]`,
      value,
    })),
    ...input.beneficiary.accountNumber.map((value, i) => ({
      path: `beneficiary.accountNumber[${i}]`,
      value,
    })),
  ];
  let network = input.transaction_network;
  if (network === undefined) {
    const derived = deriveNetwork(accounts, input.transaction_asset);
    if (derived.ok) network = derived.network;
    else issues.push({ path: derived.path, reason: derived.message });
  }
  if (network === undefined) return { issues };
  const misfit = assetMisfit(input.transaction_asset, network);
  if (misfit) issues.push({ path: 'transaction_asset', reason: misfit });

  const info = networkInfo(network)!;
  if (input.transaction_asset.toUpperCase() === info.asset && decimals !== info.decimals) {
    issues.push({
      path: 'transaction_asset_decimals',
      reason: `must be ${info.decimals} for ${info.asset} on ${network}`,
    });
  }
  const stored: string[] = [];
  for (const account of accounts) {
    const result = validateAddress(network, account.value);
    if (result.ok) stored.push(result.address);
    else
      issues.push({
        path: account.path,
        reason: `is not a valid ${network} wallet address: ${result.reason}`,
      });
  }
  if (input.transaction_hash !== undefined) {
    const reason = hashReason(network, input.transaction_hash);
    if (reason) issues.push({ path: 'transaction_hash', reason: `${reason} on ${network}` });
  }
  if (issues.length > 0) return { issues };
  const split = input.originator.accountNumber.length;
  return {
    issues,
    output: {
      network,
      originatorAccounts: stored.slice(0, split),
      beneficiaryAccounts: stored.slice(split),
    },
  };
}
