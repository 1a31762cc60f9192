import { z } from 'zod';
import {
  ADDRESS_TYPES,
  IVMS101_MAX_CHARS,
  LEGAL_PERSON_NAME_TYPES,
  LEGAL_PERSON_NATIONAL_IDENTIFIER_TYPES,
  NAME_IDENTIFIER_TYPES,
  NATIONAL_IDENTIFIER_TYPES,
} from '../travelrule/index.js';

/**
 * The travel rule webhook body as src/travelrule/webhooks.ts (buildTravelRuleBody) sends it, and
 * the persons it carries for WAITING_ADDRESS_DATA in their stored (normalised) form: one
 * spelling of every field, codes and country codes in upper case, blank optional parts left
 * out (the output of NaturalPerson in src/travelrule/ivms101/person.ts and of LegalPerson in
 * legal-person.ts). The code lists and lengths are
 * IVMS101's, from src/travelrule/ivms101/codes.ts and fields.ts.
 */

const MAX_CHARS = IVMS101_MAX_CHARS;

const text = (key: keyof typeof MAX_CHARS) => z.string().min(1).max(MAX_CHARS[key]);
const country = z
  .string()
  .regex(/^[A-Z]{2}$/)
  .meta({
    description:
      'ISO 3166-1 alpha-2 country code, upper case; XX where not known (IVMS101 CountryCode).',
  });

const NameIdentifier = z.object({
  primaryIdentifier: text('primaryIdentifier').meta({
    description: 'Family name, or the whole name when it cannot be split.',
  }),
  secondaryIdentifier: text('secondaryIdentifier').optional().meta({ description: 'Given names.' }),
  nameIdentifierType: z.enum(NAME_IDENTIFIER_TYPES).meta({
    description:
      'IVMS101 NaturalPersonNameTypeCode: LEGL legal, ALIA alias, BIRT at birth, MAID maiden, MISC other. Always this spelling (an input naturalPersonNameIdentifierType is stored under it).',
  }),
});

const GeographicAddress = z.object({
  addressType: z.enum(ADDRESS_TYPES).meta({
    description: 'IVMS101 AddressTypeCode: HOME residential, BIZZ business, GEOG geographic.',
  }),
  department: text('department').optional(),
  subDepartment: text('subDepartment').optional(),
  streetName: text('streetName').optional(),
  buildingNumber: text('buildingNumber').optional(),
  buildingName: text('buildingName').optional(),
  floor: text('floor').optional(),
  postBox: text('postBox').optional(),
  room: text('room').optional(),
  postCode: text('postCode').optional(),
  townName: text('townName'),
  townLocationName: text('townLocationName').optional(),
  districtName: text('districtName').optional(),
  countrySubDivision: text('countrySubDivision').optional(),
  addressLine: z.array(text('addressLine')).max(7).optional(),
  country,
});

const NaturalPerson = z.object({
  name: z.object({
    nameIdentifier: z.array(NameIdentifier).min(1).max(10).meta({
      description: 'At least one of type LEGL.',
    }),
    localNameIdentifier: z.array(NameIdentifier).min(1).max(10).optional().meta({
      description: 'The name in local characters (IVMS101 LocalNaturalPersonNameId), when given.',
    }),
    phoneticNameIdentifier: z.array(NameIdentifier).min(1).max(10).optional().meta({
      description: 'The name as it is pronounced, when given.',
    }),
  }),
  dateAndPlaceOfBirth: z
    .object({
      dateOfBirth: z.iso.date().meta({ description: 'YYYY-MM-DD.' }),
      placeOfBirth: text('placeOfBirth').optional(),
    })
    .optional(),
  nationalIdentification: z
    .object({
      nationalIdentifier: text('nationalIdentifier'),
      nationalIdentifierType: z.enum(NATIONAL_IDENTIFIER_TYPES).meta({
        description: 'IVMS101 NationalIdentifierTypeCode (CCPT passport, IDCD identity card, …).',
      }),
      countryOfIssue: country.optional(),
    })
    .optional()
    .meta({
      description:
        'Always this spelling (an input nationalIdenficiation or person-level nationalIdentifier is stored under it).',
    }),
  geographicAddress: z.array(GeographicAddress).min(1).max(10).optional(),
  customerIdentification: text('customerIdentification').optional().meta({
    description:
      'Customer number. Always this spelling (an input customerIdenficiation or customerNumber is stored under it).',
  }),
  countryOfResidence: country.optional(),
});

const LegalPersonNameId = z.object({
  legalPersonName: text('legalPersonName'),
  legalPersonNameIdentifierType: z.enum(LEGAL_PERSON_NAME_TYPES).meta({
    description: 'IVMS101 LegalPersonNameTypeCode: LEGL legal, SHRT short, TRAD trading.',
  }),
});

const LegalPerson = z.object({
  name: z.object({
    nameIdentifier: z
      .array(LegalPersonNameId)
      .min(1)
      .max(10)
      .meta({ description: 'At least one of type LEGL.' }),
    localNameIdentifier: z.array(LegalPersonNameId).min(1).max(10).optional().meta({
      description: 'The name in local characters (IVMS101 LocalLegalPersonNameId), when given.',
    }),
    phoneticNameIdentifier: z.array(LegalPersonNameId).min(1).max(10).optional().meta({
      description: 'The name as it is pronounced, when given.',
    }),
  }),
  geographicAddress: z.array(GeographicAddress).min(1).max(10).optional(),
  customerNumber: text('customerNumber').optional().meta({
    description:
      'Customer number. Always this spelling (an input customerIdentification is stored under it).',
  }),
  nationalIdentification: z
    .object({
      nationalIdentifier: text('nationalIdentifier').meta({
        description: 'With LEIX, an LEI in upper case (its ISO 17442 check digits hold).',
      }),
      nationalIdentifierType: z.enum(LEGAL_PERSON_NATIONAL_IDENTIFIER_TYPES).meta({
        description:
          "IVMS101 NationalIdentifierTypeCode, a legal person's kinds: RAID registration authority identifier, MISC other, LEIX LEI, TXID tax number.",
      }),
      registrationAuthority: z
        .string()
        .regex(/^RA\d{6}$/)
        .optional()
        .meta({
          description: 'GLEIF registration authority code; present unless the type is LEIX.',
        }),
    })
    .optional(),
  countryOfRegistration: country.optional(),
});

/** One person: natural or legal (IVMS101 Person). */
const Person = z.union([
  z.object({ naturalPerson: NaturalPerson }),
  z.object({ legalPerson: LegalPerson }),
]);

const ref = z.string().min(1).max(255).meta({
  description:
    "The caller's transaction_ref of create_tx; for a deposit announced by another VASP over TRP, `trp-<request-identifier>`.",
});

const Approved = z
  .object({
    transaction_ref: ref,
    status: z.literal('OTHER_VASP_APPROVED'),
    beneficiary_address: z.string().min(1).nullable().meta({
      description:
        "The address the beneficiary VASP approved for the payment (TRP `approved.address`, or the one an operator recorded with the answer of a VASP reached by e-mail): pay to this one, not to an address known before (with a Travel Address your backend may never have known one). Null only when an e-mailed VASP's approval was recorded without an address. The same as beneficiary_address of GET /v2/travelrule/tx_status.",
    }),
    beneficiary_address_differs: z.boolean().nullable().meta({
      description:
        'True when beneficiary_address is none of the beneficiary accountNumber given to create_tx (compared without case on EVM networks, exactly on others), false when it is one of them, null when beneficiary_address is null. Not an error (a Travel Address transfer legitimately gets an address the originator did not know), but a payout meant for the account named at create_tx must go to beneficiary_address.',
    }),
  })
  .meta({
    description:
      'The beneficiary VASP approved a withdrawal: pay out to beneficiary_address, then send the hash with POST /v2/travelrule/send_tx_hash.',
  });

const Rejected = z.object({ transaction_ref: ref, status: z.literal('OTHER_VASP_REJECTED') }).meta({
  description:
    'The beneficiary VASP rejected or cancelled the withdrawal, or could not be reached. Informational; GET /v2/travelrule/tx_status shows the reason.',
});

const WaitingAddressData = z
  .object({
    transaction_ref: ref,
    status: z.literal('WAITING_ADDRESS_DATA'),
    persons: z.array(Person).min(1).max(10).meta({
      description:
        'The beneficiary persons the originator VASP sent (IVMS101): each a naturalPerson or a legalPerson.',
    }),
    accountNumber: z.array(z.string().min(1)).max(20).meta({
      description:
        'The beneficiary wallet addresses the originator VASP named; may be empty (it often learns the address only from your answer).',
    }),
  })
  .meta({
    description:
      'An operator accepted a deposit announced over TRP: find your customer from the persons and answer with POST /v2/travelrule/send_address.',
  });

const TransactionConfirmed = z
  .object({
    transaction_ref: ref,
    status: z.literal('TRANSACTION_CONFIRMED'),
    txid: z.string().min(1).meta({
      description: 'The on-chain transaction hash the originator VASP gave for the deposit.',
    }),
  })
  .meta({ description: 'The originator VASP confirmed the deposit with its transaction hash.' });

export const TravelRuleBody = z.discriminatedUnion('status', [
  Approved,
  Rejected,
  WaitingAddressData,
  TransactionConfirmed,
]);
