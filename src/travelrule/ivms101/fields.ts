import { z } from 'zod';
import { countryCode } from './countries.js';

/**
 * Field primitives of the travel rule input. Every message here names a rule, never the value:
 * these strings end up in API errors and logs, and the values are personal data.
 */

/**
 * IVMS101 text lengths (interVASP Messaging Standard IVMS101, issue 1, 2020, section 6 data
 * types MaxNNText; the same limits as the ISO 20022 PostalAddress24 component it reuses):
 * NaturalPersonNameId primaryIdentifier / secondaryIdentifier Max100Text; NationalIdentification
 * nationalIdentifier Max35Text; NaturalPerson customerIdentification Max50Text;
 * DateAndPlaceOfBirth placeOfBirth Max70Text; Address department Max50Text, subDepartment,
 * streetName, floor, room and each addressLine (0..7 of them) Max70Text, buildingNumber,
 * postBox and postCode Max16Text, buildingName, townName, townLocationName, districtName and
 * countrySubDivision Max35Text; LegalPersonNameId legalPersonName Max100Text, LegalPerson
 * customerNumber Max50Text. Lengths are counted in UTF-16 code units after trimming.
 */
export const IVMS101_MAX_CHARS = {
  primaryIdentifier: 100,
  secondaryIdentifier: 100,
  nationalIdentifier: 35,
  customerIdentification: 50,
  placeOfBirth: 70,
  department: 50,
  subDepartment: 70,
  streetName: 70,
  buildingNumber: 16,
  buildingName: 35,
  floor: 70,
  postBox: 16,
  room: 70,
  postCode: 16,
  townName: 35,
  townLocationName: 35,
  districtName: 35,
  countrySubDivision: 35,
  addressLine: 70,
  legalPersonName: 100,
  customerNumber: 50,
} as const;

/** IVMS101 Address: addressLine [0..7]. */
export const MAX_ADDRESS_LINES = 7;

/** Dates of birth before this are refused as typing errors (no living person was born earlier). */
export const EARLIEST_DATE_OF_BIRTH = '1900-01-01';

// Unicode's control characters (C0, DEL and C1: a CSI, U+009B, starts a terminal's escape
// sequence) and its line and paragraph separators: never part of a name, an address or a
// reference, and unsafe in e-mails, pages and logs.
export const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** null, a missing key and a blank string all mean "not given" for an optional field. */
export function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
    schema.optional(),
  );
}

/** Trimmed text of at most `max` characters, not blank, without control characters. */
export function text(max: number, description?: string) {
  const schema = z
    .string()
    .trim()
    .refine((v) => v.length > 0, 'must not be blank')
    .max(max, `must be at most ${max} characters`)
    .refine((v) => !CONTROL_CHARS.test(v), 'must not contain control characters');
  return description ? schema.meta({ description }) : schema;
}

/** One of a code list, matched case-insensitively, stored in upper case. */
export function code<const T extends readonly [string, ...string[]]>(
  values: T,
  description: string,
) {
  return z
    .string()
    .trim()
    .toUpperCase()
    .pipe(z.enum(values, { error: () => `must be one of ${values.join(', ')}` }))
    .meta({ description: `${description} One of ${values.join(', ')} (any letter case).` });
}

/** IVMS101's country for "not known": its CountryCode is an ISO 3166-1 alpha-2 code "or the value XX". */
export const UNKNOWN_COUNTRY = 'XX';

/** ISO 3166-1 alpha-2 country code or IVMS101's XX, any letter case in, upper case out. */
export const Country = z
  .string()
  .trim()
  .transform((v, ctx) => {
    const upper = v.toUpperCase() === UNKNOWN_COUNTRY ? UNKNOWN_COUNTRY : countryCode(v);
    if (upper === null) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be an ISO 3166-1 alpha-2 country code (or XX, IVMS101\'s "not known")',
      });
      return z.NEVER;
    }
    return upper;
  })
  .meta({
    description:
      'ISO 3166-1 alpha-2 country code (an assigned one), or XX where the country is not known (IVMS101 CountryCode); letter case varies, stored in upper case.',
  });

function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * A calendar date YYYY-MM-DD that exists (no 2001-02-29), from 1900-01-01 up to yesterday
 * (UTC): "in the past" means before today's UTC date.
 */
export const DateOfBirth = z
  .string()
  .trim()
  .superRefine((v, ctx) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
    if (!match)
      return void ctx.addIssue({
        code: 'custom',
        message: 'must be a date in the form YYYY-MM-DD',
      });
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const date = new Date(Date.UTC(year, month - 1, day));
    if (
      date.getUTCFullYear() !== year ||
      date.getUTCMonth() !== month - 1 ||
      date.getUTCDate() !== day
    ) {
      return void ctx.addIssue({ code: 'custom', message: 'must be a real calendar date' });
    }
    if (v < EARLIEST_DATE_OF_BIRTH)
      return void ctx.addIssue({
        code: 'custom',
        message: `must be on or after ${EARLIEST_DATE_OF_BIRTH}`,
      });
    if (v >= todayUtc()) ctx.addIssue({ code: 'custom', message: 'must be in the past' });
  })
  .meta({
    description: `Date of birth, YYYY-MM-DD: a real date from ${EARLIEST_DATE_OF_BIRTH} to yesterday (UTC).`,
  });
