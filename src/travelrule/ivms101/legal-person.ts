import { z } from 'zod';
import { isValidLei } from '../../ids.js';
import { LEGAL_PERSON_NAME_TYPES, LEGAL_PERSON_NATIONAL_IDENTIFIER_TYPES } from './codes.js';
import { Country, IVMS101_MAX_CHARS as MAX, code, optional, text } from './fields.js';
import {
  GeographicAddress,
  MAX_ADDRESSES,
  MAX_NAME_IDENTIFIERS,
  NaturalPerson,
  type NaturalPersonValue,
  nameOf,
  oneSpelling,
  otherNames,
} from './person.js';

/**
 * The IVMS101 LegalPerson: a company, foundation or other entity as a party to a transfer (a
 * VASP's corporate customer). Held to IVMS101's constraints as TRISA's validator holds them: a
 * LEGL name, a national identifier of a legal person's kind (RAID, MISC, LEIX, TXID), a
 * registration authority unless the identifier is an LEI, no country of issue, and an LEI that
 * passes its ISO 17442 check digits. Optional parts may be sent as null, a blank string or not at
 * all; unknown keys are dropped, as for natural persons.
 */

const LegalPersonNameId = z.object({
  legalPersonName: text(MAX.legalPersonName, 'The name (IVMS101 Max100Text).'),
  legalPersonNameIdentifierType: code(
    LEGAL_PERSON_NAME_TYPES,
    'Nature of the name (IVMS101 LegalPersonNameTypeCode).',
  ),
});

/** IVMS101 LegalNamePresentLegalPerson: one of the names is the legal name (LEGL). */
const LegalPersonName = z
  .object({
    nameIdentifier: z
      .array(LegalPersonNameId)
      .min(1, 'must hold at least one name identifier')
      .max(MAX_NAME_IDENTIFIERS, `must hold at most ${MAX_NAME_IDENTIFIERS} name identifiers`),
    localNameIdentifier: otherNames(
      LegalPersonNameId,
      'The name in local characters (IVMS101 LocalLegalPersonNameId).',
    ),
    phoneticNameIdentifier: otherNames(
      LegalPersonNameId,
      'The name as it is pronounced (IVMS101 LocalLegalPersonNameId).',
    ),
  })
  .superRefine((v, ctx) => {
    if (!v.nameIdentifier.some((n) => n.legalPersonNameIdentifierType === 'LEGL'))
      ctx.addIssue({
        code: 'custom',
        path: ['nameIdentifier'],
        message:
          'needs a legal name: one name identifier of type LEGL (IVMS101 rule: a legal person has a legal name)',
      });
  })
  .transform(nameOf);

/** An object with every field blank means "not given", as for a natural person's. */
const LegalNationalIdentification = z
  .object({
    nationalIdentifier: optional(
      text(MAX.nationalIdentifier, 'Registration number, tax number or LEI (IVMS101 Max35Text).'),
    ),
    nationalIdentifierType: optional(
      code(
        LEGAL_PERSON_NATIONAL_IDENTIFIER_TYPES,
        "Kind of identifier (IVMS101 NationalIdentifierTypeCode, a legal person's kinds).",
      ),
    ),
    registrationAuthority: optional(
      z
        .string()
        .trim()
        .toUpperCase()
        .regex(/^RA\d{6}$/, 'must be a GLEIF registration authority code: RA and 6 digits')
        .meta({
          description:
            'The register that issued the identifier, as its GLEIF code (RA000585, say). Required unless the identifier is an LEI; not given with an LEI.',
        }),
    ),
    countryOfIssue: z.unknown().optional().meta({
      description: 'Not given for a legal person (IVMS101): its register says where.',
    }),
  })
  .superRefine((v, ctx) => {
    const issued = v.countryOfIssue;
    if (issued !== undefined && issued !== null && !(typeof issued === 'string' && !issued.trim()))
      ctx.addIssue({
        code: 'custom',
        path: ['countryOfIssue'],
        message:
          'must not be given for a legal person (IVMS101 CompleteNationalIdentifierLegalPerson)',
      });
    if (
      v.nationalIdentifier === undefined &&
      v.nationalIdentifierType === undefined &&
      v.registrationAuthority === undefined
    )
      return;
    for (const key of ['nationalIdentifier', 'nationalIdentifierType'] as const)
      if (v[key] === undefined)
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: 'is required when a national identification is given',
        });
    if (v.nationalIdentifierType === 'LEIX') {
      if (v.nationalIdentifier !== undefined && !isValidLei(v.nationalIdentifier.toUpperCase()))
        ctx.addIssue({
          code: 'custom',
          path: ['nationalIdentifier'],
          message:
            'must be a legal entity identifier: 20 letters and digits whose check digits hold (ISO 17442)',
        });
      if (v.registrationAuthority !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['registrationAuthority'],
          message: 'must not be given with an LEI (IVMS101 RegistrationAuthority)',
        });
    } else if (v.nationalIdentifierType !== undefined && v.registrationAuthority === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['registrationAuthority'],
        message:
          'is required unless nationalIdentifierType is LEIX (IVMS101 RegistrationAuthority)',
      });
  })
  .transform((v) =>
    v.nationalIdentifier === undefined
      ? undefined
      : {
          nationalIdentifier:
            v.nationalIdentifierType === 'LEIX'
              ? v.nationalIdentifier.toUpperCase()
              : v.nationalIdentifier,
          nationalIdentifierType: v.nationalIdentifierType!,
          ...(v.registrationAuthority !== undefined
            ? { registrationAuthority: v.registrationAuthority }
            : {}),
        },
  );

const ALT = 'Alternative spelling; normalised to';

/**
 * As sent: the customer number under its IVMS101 2020 name (customerNumber) or the natural
 * person's (customerIdentification); spellings that disagree are refused.
 */
export const LegalPerson = z
  .object({
    name: LegalPersonName,
    geographicAddress: optional(
      z.array(GeographicAddress).max(MAX_ADDRESSES, `must hold at most ${MAX_ADDRESSES} addresses`),
    ),
    customerNumber: optional(
      text(MAX.customerNumber, 'Customer number at the VASP (IVMS101 Max50Text).'),
    ),
    customerIdentification: optional(text(MAX.customerNumber)).meta({
      description: `${ALT} customerNumber.`,
      deprecated: true,
    }),
    nationalIdentification: optional(LegalNationalIdentification),
    countryOfRegistration: optional(Country),
  })
  .transform((p, ctx) => {
    const customerNumber = oneSpelling(ctx, [
      ['customerNumber', p.customerNumber],
      ['customerIdentification', p.customerIdentification],
    ]);
    return {
      name: p.name,
      ...(p.geographicAddress?.length ? { geographicAddress: p.geographicAddress } : {}),
      ...(customerNumber !== undefined ? { customerNumber } : {}),
      ...(p.nationalIdentification ? { nationalIdentification: p.nationalIdentification } : {}),
      ...(p.countryOfRegistration !== undefined
        ? { countryOfRegistration: p.countryOfRegistration }
        : {}),
    };
  });

export type LegalPersonValue = z.output<typeof LegalPerson>;

/** One party's person: a natural person or a legal person, never both (IVMS101 Person). */
export type PersonValue = { naturalPerson: NaturalPersonValue } | { legalPerson: LegalPersonValue };

export const Person = z
  .object({
    naturalPerson: optional(
      NaturalPerson.meta({ description: 'A natural person (IVMS101 NaturalPerson).' }),
    ),
    legalPerson: optional(
      LegalPerson.meta({
        description: 'A legal person (IVMS101 LegalPerson), such as a corporate customer.',
      }),
    ),
  })
  .transform((p, ctx): PersonValue => {
    if (p.naturalPerson !== undefined && p.legalPerson !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['legalPerson'],
        message: 'must not be given beside naturalPerson: a person is one or the other',
      });
      return z.NEVER;
    }
    if (p.legalPerson !== undefined) return { legalPerson: p.legalPerson };
    if (p.naturalPerson === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['naturalPerson'],
        message: 'is required (or legalPerson, for a company or other legal person)',
      });
      return z.NEVER;
    }
    return { naturalPerson: p.naturalPerson };
  })
  .meta({ description: 'A person: `naturalPerson` or `legalPerson` (IVMS101 Person).' });
