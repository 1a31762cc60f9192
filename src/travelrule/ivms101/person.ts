import { z } from 'zod';
import { ADDRESS_TYPES, NAME_IDENTIFIER_TYPES, NATIONAL_IDENTIFIER_TYPES } from './codes.js';
import {
  Country,
  DateOfBirth,
  IVMS101_MAX_CHARS as MAX,
  MAX_ADDRESS_LINES,
  code,
  optional,
  text,
} from './fields.js';

/**
 * The `naturalPerson` object of the spec, IVMS101-shaped. Optional parts may be sent as null,
 * as a blank string or not at all; all three mean "not given". Unknown keys are dropped.
 */

/** Bounds on repeated parts, so that one body cannot ask for unbounded work. */
export const MAX_NAME_IDENTIFIERS = 10;
export const MAX_ADDRESSES = 10;

const NameType = code(
  NAME_IDENTIFIER_TYPES,
  'Nature of the name (IVMS101 NaturalPersonNameTypeCode).',
);

/** IVMS101 2020 names the type nameIdentifierType, IVMS101.2023 naturalPersonNameIdentifierType: either is taken. */
const NameIdentifier = z
  .object({
    primaryIdentifier: text(
      MAX.primaryIdentifier,
      'Family name, or the whole name when it cannot be split (IVMS101 Max100Text).',
    ),
    secondaryIdentifier: optional(
      text(MAX.secondaryIdentifier, 'Given names (IVMS101 Max100Text).'),
    ),
    nameIdentifierType: optional(NameType),
    naturalPersonNameIdentifierType: optional(NameType).meta({
      description: 'The IVMS101.2023 name of nameIdentifierType; either is accepted.',
    }),
  })
  .transform((v, ctx) => {
    const type = v.nameIdentifierType ?? v.naturalPersonNameIdentifierType;
    if (
      v.nameIdentifierType !== undefined &&
      v.naturalPersonNameIdentifierType !== undefined &&
      v.nameIdentifierType !== v.naturalPersonNameIdentifierType
    )
      ctx.addIssue({
        code: 'custom',
        path: ['naturalPersonNameIdentifierType'],
        message:
          'conflicts with nameIdentifierType: both spellings are given with different values',
      });
    if (type === undefined) {
      ctx.addIssue({ code: 'custom', path: ['nameIdentifierType'], message: 'is required' });
      return z.NEVER;
    }
    return {
      primaryIdentifier: v.primaryIdentifier,
      ...(v.secondaryIdentifier !== undefined
        ? { secondaryIdentifier: v.secondaryIdentifier }
        : {}),
      nameIdentifierType: type,
    };
  });

/**
 * IVMS101 localNameIdentifier / phoneticNameIdentifier [0..n]: the name in local characters (山田
 * 太郎, often the legal one), or as it is pronounced; the same parts as a name identifier, none
 * required to be LEGL. Kept, shown and sent on like the name identifiers; none given: the key is
 * left out.
 */
export function otherNames<T extends z.ZodType>(identifier: T, what: string) {
  return optional(
    z
      .array(identifier)
      .max(MAX_NAME_IDENTIFIERS, `must hold at most ${MAX_NAME_IDENTIFIERS} name identifiers`)
      .meta({ description: what }),
  );
}

/** The name object without its empty optional lists. */
export function nameOf<N>(v: {
  nameIdentifier: N[];
  localNameIdentifier?: N[] | undefined;
  phoneticNameIdentifier?: N[] | undefined;
}) {
  return {
    nameIdentifier: v.nameIdentifier,
    ...(v.localNameIdentifier?.length ? { localNameIdentifier: v.localNameIdentifier } : {}),
    ...(v.phoneticNameIdentifier?.length
      ? { phoneticNameIdentifier: v.phoneticNameIdentifier }
      : {}),
  };
}

/** IVMS101 constraint: a natural person's name holds a legal name (a LEGL name identifier). */
const Name = z
  .object({
    nameIdentifier: z
      .array(NameIdentifier)
      .min(1, 'must hold at least one name identifier')
      .max(MAX_NAME_IDENTIFIERS, `must hold at most ${MAX_NAME_IDENTIFIERS} name identifiers`),
    localNameIdentifier: otherNames(
      NameIdentifier,
      'The name in local characters (IVMS101 LocalNaturalPersonNameId), e.g. in its own script.',
    ),
    phoneticNameIdentifier: otherNames(
      NameIdentifier,
      'The name as it is pronounced (IVMS101 LocalNaturalPersonNameId).',
    ),
  })
  .superRefine((v, ctx) => {
    if (!v.nameIdentifier.some((n) => n.nameIdentifierType === 'LEGL'))
      ctx.addIssue({
        code: 'custom',
        path: ['nameIdentifier'],
        message:
          'needs a legal name: one name identifier of type LEGL (IVMS101 rule: a natural person has a legal name)',
      });
  })
  .transform(nameOf);

/**
 * IVMS101 DateAndPlaceOfBirth: both parts are mandatory [1..1] (a peer's validator refuses one
 * without the other, as 21 Analytics' and TRISA's do). An object with both blank means "not given".
 */
const DateAndPlaceOfBirth = z
  .object({
    dateOfBirth: optional(DateOfBirth),
    placeOfBirth: optional(
      text(MAX.placeOfBirth, 'Town and country of birth (IVMS101 Max70Text).'),
    ),
  })
  .superRefine((v, ctx) => {
    if (v.placeOfBirth === undefined && v.dateOfBirth === undefined) return;
    if (v.dateOfBirth === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['dateOfBirth'],
        message: 'is required when placeOfBirth is given (IVMS101: both parts are mandatory)',
      });
    if (v.placeOfBirth === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['placeOfBirth'],
        message: 'is required when dateOfBirth is given (IVMS101: both parts are mandatory)',
      });
  });

/** An object with every field blank means "not given"; otherwise identifier and type are required (IVMS101 [1..1]). */
const NationalIdentification = z
  .object({
    nationalIdentifier: optional(
      text(MAX.nationalIdentifier, 'Identity document or registration number (IVMS101 Max35Text).'),
    ),
    nationalIdentifierType: optional(
      code(NATIONAL_IDENTIFIER_TYPES, 'Kind of identifier (IVMS101 NationalIdentifierTypeCode).'),
    ),
    countryOfIssue: optional(Country),
  })
  .superRefine((v, ctx) => {
    if (
      v.nationalIdentifier === undefined &&
      v.nationalIdentifierType === undefined &&
      v.countryOfIssue === undefined
    )
      return;
    for (const key of ['nationalIdentifier', 'nationalIdentifierType'] as const) {
      if (v[key] === undefined)
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: 'is required when a national identification is given',
        });
    }
  });

const addressText = (key: keyof typeof MAX) =>
  optional(text(MAX[key], `IVMS101 Max${MAX[key]}Text.`));

/**
 * IVMS101 Address. addressType and country are mandatory; constraint C8 ValidAddress asks for
 * addressLine, or streetName with buildingNumber or buildingName.
 */
export const GeographicAddress = z
  .object({
    addressType: code(ADDRESS_TYPES, 'Nature of the address (IVMS101 AddressTypeCode).'),
    department: addressText('department'),
    subDepartment: addressText('subDepartment'),
    streetName: addressText('streetName'),
    buildingNumber: addressText('buildingNumber'),
    buildingName: addressText('buildingName'),
    floor: addressText('floor'),
    postBox: addressText('postBox'),
    room: addressText('room'),
    postCode: addressText('postCode'),
    townName: addressText('townName'),
    townLocationName: addressText('townLocationName'),
    districtName: addressText('districtName'),
    countrySubDivision: addressText('countrySubDivision'),
    addressLine: optional(
      z
        .array(text(MAX.addressLine, 'IVMS101 Max70Text.'))
        .max(MAX_ADDRESS_LINES, `must hold at most ${MAX_ADDRESS_LINES} lines`),
    ),
    country: Country,
  })
  .superRefine((v, ctx) => {
    const lines = v.addressLine?.length ?? 0;
    if (v.townName === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['townName'],
        message: 'is required (IVMS101 Address: townName is mandatory)',
      });
    if (
      lines === 0 &&
      !(
        v.streetName !== undefined &&
        (v.buildingNumber !== undefined || v.buildingName !== undefined)
      )
    ) {
      ctx.addIssue({
        code: 'custom',
        message:
          'needs addressLine, or streetName with buildingNumber or buildingName (IVMS101 ValidAddress)',
      });
    }
  });

const ALT = 'Alternative spelling that occurs in the interface; normalised to';

/**
 * As sent: both spellings of the spec's naming note are accepted (`nationalIdenficiation`, and
 * `nationalIdentifier` as a person-level object, for `nationalIdentification`;
 * `customerIdenficiation` for `customerIdentification`). Spellings that disagree are refused.
 */
const NaturalPersonInput = z.object({
  name: Name,
  dateAndPlaceOfBirth: optional(DateAndPlaceOfBirth),
  nationalIdentification: optional(NationalIdentification),
  nationalIdenficiation: optional(NationalIdentification).meta({
    description: `${ALT} nationalIdentification.`,
    deprecated: true,
  }),
  nationalIdentifier: optional(NationalIdentification).meta({
    description: `${ALT} nationalIdentification (the object, at person level).`,
    deprecated: true,
  }),
  geographicAddress: optional(
    z.array(GeographicAddress).max(MAX_ADDRESSES, `must hold at most ${MAX_ADDRESSES} addresses`),
  ),
  customerIdentification: optional(
    text(MAX.customerIdentification, 'Customer number at the VASP (IVMS101 Max50Text).'),
  ),
  customerNumber: optional(text(MAX.customerIdentification)).meta({
    description: `${ALT} customerIdentification (the IVMS101 2020 name).`,
    deprecated: true,
  }),
  countryOfResidence: optional(Country),
  customerIdenficiation: optional(text(MAX.customerIdentification)).meta({
    description: `${ALT} customerIdentification.`,
    deprecated: true,
  }),
});

type NaturalPersonIn = z.output<typeof NaturalPersonInput>;
type NationalIdentificationValue = NonNullable<NaturalPersonIn['nationalIdentification']>;

function given(
  id: NationalIdentificationValue | undefined,
): NationalIdentificationValue | undefined {
  return id &&
    (id.nationalIdentifier !== undefined ||
      id.nationalIdentifierType !== undefined ||
      id.countryOfIssue !== undefined)
    ? id
    : undefined;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The first value given among the spellings; an issue on each later spelling that differs. */
export function oneSpelling<T>(
  ctx: z.RefinementCtx,
  spellings: [string, T | undefined][],
): T | undefined {
  const present = spellings.filter((entry): entry is [string, T] => entry[1] !== undefined);
  const [first] = present;
  if (!first) return undefined;
  for (const [key, value] of present.slice(1)) {
    if (!same(first[1], value))
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `conflicts with ${first[0]}: both spellings are given with different values`,
      });
  }
  return first[1];
}

export const NaturalPerson = NaturalPersonInput.transform((p, ctx) => {
  const nationalIdentification = oneSpelling(ctx, [
    ['nationalIdentification', given(p.nationalIdentification)],
    ['nationalIdenficiation', given(p.nationalIdenficiation)],
    ['nationalIdentifier', given(p.nationalIdentifier)],
  ]);
  const customerIdentification = oneSpelling(ctx, [
    ['customerIdentification', p.customerIdentification],
    ['customerIdenficiation', p.customerIdenficiation],
    ['customerNumber', p.customerNumber],
  ]);
  const birth =
    p.dateAndPlaceOfBirth?.dateOfBirth !== undefined ? p.dateAndPlaceOfBirth : undefined;
  return {
    name: p.name,
    ...(birth ? { dateAndPlaceOfBirth: birth } : {}),
    ...(nationalIdentification ? { nationalIdentification } : {}),
    ...(p.geographicAddress?.length ? { geographicAddress: p.geographicAddress } : {}),
    ...(customerIdentification !== undefined ? { customerIdentification } : {}),
    ...(p.countryOfResidence !== undefined ? { countryOfResidence: p.countryOfResidence } : {}),
  };
});

export type NaturalPersonValue = z.output<typeof NaturalPerson>;
