import type { z } from 'zod';

/**
 * Validation problems as the API reports them: a path in the spec's terms
 * (`originator.persons[0].naturalPerson.dateAndPlaceOfBirth.dateOfBirth`) and a reason that
 * names the rule. No reason ever carries the value: it is personal data.
 */
export interface TravelRuleIssue {
  path: string;
  reason: string;
}

export type PathSegment = string | number;

export function formatPath(segments: readonly PropertyKey[]): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else path += path === '' ? String(segment) : `.${String(segment)}`;
  }
  return path;
}

/** The inverse of formatPath, for rules written with string paths. */
export function parsePath(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g))
    segments.push(match[2] !== undefined ? Number(match[2]) : match[1]!);
  return segments;
}

/** Field names in the order of the spec's tables; a path's keys are compared by this rank. */
const KEY_ORDER = [
  'transaction_ref',
  'transaction_asset',
  'transaction_network',
  'transaction_amount',
  'transaction_asset_decimals',
  'beneficiary_vasp_id',
  'beneficiary_travel_address',
  'originator',
  'beneficiary',
  'transaction_hash',
  'created_at',
  'persons',
  'accountNumber',
  'naturalPerson',
  'legalPerson',
  'name',
  'nameIdentifier',
  'localNameIdentifier',
  'phoneticNameIdentifier',
  'primaryIdentifier',
  'secondaryIdentifier',
  'nameIdentifierType',
  'legalPersonName',
  'legalPersonNameIdentifierType',
  'dateAndPlaceOfBirth',
  'dateOfBirth',
  'placeOfBirth',
  'nationalIdentification',
  'nationalIdenficiation',
  'nationalIdentifier',
  'nationalIdentifierType',
  'countryOfIssue',
  'registrationAuthority',
  'geographicAddress',
  'addressType',
  'department',
  'subDepartment',
  'streetName',
  'buildingNumber',
  'buildingName',
  'floor',
  'postBox',
  'room',
  'postCode',
  'townName',
  'townLocationName',
  'districtName',
  'countrySubDivision',
  'addressLine',
  'country',
  'customerIdentification',
  'customerIdenficiation',
  'customerNumber',
  'countryOfRegistration',
];
const RANK = new Map(KEY_ORDER.map((key, i) => [key, i]));

function compareSegment(a: PathSegment, b: PathSegment): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const ra = RANK.get(String(a)) ?? KEY_ORDER.length;
  const rb = RANK.get(String(b)) ?? KEY_ORDER.length;
  return ra !== rb ? ra - rb : String(a).localeCompare(String(b));
}

/** Path order: field by field in the spec's order, array elements by index, a parent before its fields. */
export function comparePaths(a: readonly PathSegment[], b: readonly PathSegment[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const order = compareSegment(a[i]!, b[i]!);
    if (order !== 0) return order;
  }
  return a.length - b.length;
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  array: 'an array',
  object: 'an object',
  number: 'a number',
};

/**
 * The reason for an issue whose schema gave no message of its own (a per-parse zod error map):
 * built from the issue's code and limits only, never from its input.
 */
export function fallbackReason(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === null
        ? 'is required'
        : `must be ${EXPECTED[issue.expected] ?? issue.expected}`;
    case 'too_small':
      return issue.origin === 'array'
        ? `must hold at least ${issue.minimum} items`
        : `must be at least ${issue.minimum} characters`;
    case 'too_big':
      return issue.origin === 'array'
        ? `must hold at most ${issue.maximum} items`
        : `must be at most ${issue.maximum} characters`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return 'has the wrong format';
    default:
      return 'is invalid';
  }
}
