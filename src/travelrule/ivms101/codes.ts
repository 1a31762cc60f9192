/**
 * The IVMS101 code lists used by the travel rule input (interVASP Messaging Standard IVMS101,
 * issue 1, 2020: NaturalPersonNameTypeCode, AddressTypeCode, NationalIdentifierTypeCode).
 * The spec leaves the allowed values "not shown"; these are the standard's. Input is matched
 * case-insensitively and stored in upper case, as the standard writes them.
 */

/** LEGL legal name, ALIA alias, BIRT name at birth, MAID maiden name, MISC unspecified. */
export const NAME_IDENTIFIER_TYPES = ['LEGL', 'ALIA', 'BIRT', 'MAID', 'MISC'] as const;

/** HOME residential, BIZZ business, GEOG unspecified physical address. */
export const ADDRESS_TYPES = ['HOME', 'BIZZ', 'GEOG'] as const;

/**
 * ARNU alien registration number, CCPT passport, RAID registration authority identifier,
 * DRLC driver's licence, FIIN foreign investment identity number, TXID tax number,
 * SOCS social security number, IDCD identity card, LEIX legal entity identifier, MISC other.
 */
export const NATIONAL_IDENTIFIER_TYPES = [
  'ARNU',
  'CCPT',
  'RAID',
  'DRLC',
  'FIIN',
  'TXID',
  'SOCS',
  'IDCD',
  'LEIX',
  'MISC',
] as const;

/** A legal person's names (IVMS101 LegalPersonNameTypeCode): LEGL legal, SHRT short, TRAD trading. */
export const LEGAL_PERSON_NAME_TYPES = ['LEGL', 'SHRT', 'TRAD'] as const;

/** The national identifiers a legal person may have (IVMS101 ValidNationalIdentifierLegalPerson). */
export const LEGAL_PERSON_NATIONAL_IDENTIFIER_TYPES = ['RAID', 'MISC', 'LEIX', 'TXID'] as const;

/**
 * IVMS101 TransliterationMethodCode (payloadMetadata.transliterationMethod): how names written in
 * another script were rendered in Latin letters, by the standard each code names.
 */
export const TRANSLITERATION_METHODS: Readonly<Record<string, string>> = {
  arab: 'Arabic (Arabic language)',
  aran: 'Arabic (Persian language)',
  armn: 'Armenian',
  cyrs: 'Cyrillic',
  deva: 'Devanagari and related Indic',
  geor: 'Georgian',
  grek: 'Greek',
  hani: 'Han (Hanzi, Kanji, Hanja)',
  hebr: 'Hebrew',
  kana: 'Kana',
  kore: 'Korean',
  thai: 'Thai',
  othr: 'another method',
};

export type NameIdentifierType = (typeof NAME_IDENTIFIER_TYPES)[number];
export type AddressType = (typeof ADDRESS_TYPES)[number];
export type NationalIdentifierType = (typeof NATIONAL_IDENTIFIER_TYPES)[number];

/** What each code means, for pages that show IVMS101 data to people. */
const NAME_TYPE_LABELS: Record<string, string> = {
  LEGL: 'Legal name',
  ALIA: 'Alias',
  BIRT: 'Name at birth',
  MAID: 'Maiden name',
  MISC: 'Name',
};
const LEGAL_NAME_TYPE_LABELS: Record<string, string> = {
  LEGL: 'Legal name',
  SHRT: 'Short name',
  TRAD: 'Trading name',
};
const ADDRESS_TYPE_LABELS: Record<string, string> = {
  HOME: 'Residential',
  BIZZ: 'Business',
  GEOG: 'Geographic',
};
const NATIONAL_IDENTIFIER_TYPE_LABELS: Record<string, string> = {
  ARNU: 'Alien registration number',
  CCPT: 'Passport number',
  RAID: 'Registration authority identifier',
  DRLC: "Driver's licence number",
  FIIN: 'Foreign investment identity number',
  TXID: 'Tax identification number',
  SOCS: 'Social security number',
  IDCD: 'Identity card number',
  LEIX: 'Legal entity identifier',
  MISC: 'Other identifier',
};
const LABELS = {
  name: NAME_TYPE_LABELS,
  legalName: LEGAL_NAME_TYPE_LABELS,
  address: ADDRESS_TYPE_LABELS,
  national: NATIONAL_IDENTIFIER_TYPE_LABELS,
  transliteration: TRANSLITERATION_METHODS,
};

/** "Passport number (CCPT)"; an unknown code as it is. */
export function codeLabel(list: keyof typeof LABELS, code: string): string {
  const label = LABELS[list][code];
  return label ? `${label} (${code})` : code;
}
