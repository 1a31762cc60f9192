import { codeLabel } from './codes.js';
import { UNKNOWN_COUNTRY } from './fields.js';
import type { LegalPersonValue, PersonValue } from './legal-person.js';
import type { NaturalPersonValue } from './person.js';

/**
 * A person's IVMS101 data as the rows a page shows people (the operator dashboard, the e-mailed
 * view link): one model, so that both pages show the same facts in the same words. Values are
 * the sender's text, unescaped: each page escapes them and keeps their bidirectional controls
 * from acting.
 */

export interface PersonRow {
  /** Our words: "Legal name (LEGL)", "Address: Business (BIZZ)". */
  label: string;
  /**
   * The value's parts: `name` is a name (isolated from the words beside it), `id` an identifier
   * (shown in monospace), `text` anything else.
   */
  parts: { text: string; kind: 'name' | 'id' | 'text' }[];
  /** The parts on one line, separated by commas, or one line each (an address). */
  join: 'comma' | 'lines';
  /** Our words after the value, such as "(family name, given names)". */
  note?: string;
}

type Address = NonNullable<NaturalPersonValue['geographicAddress']>[number];

let regionNames: Intl.DisplayNames | undefined;

/** "Germany (DE)"; the code alone when the runtime has no name for it. */
export function countryName(code: string): string {
  if (code === UNKNOWN_COUNTRY) return `not known (${code})`;
  try {
    regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
    const name = regionNames.of(code);
    return name && name !== code ? `${name} (${code})` : code;
  } catch {
    return code;
  }
}

/** The address as the lines of an envelope. */
export function addressLines(a: Address): string[] {
  const join = (...parts: (string | undefined)[]) => parts.filter((p) => p !== undefined).join(' ');
  return [
    a.department,
    a.subDepartment,
    ...(a.addressLine ?? []),
    join(a.streetName, a.buildingNumber) || undefined,
    a.buildingName,
    a.floor !== undefined ? `Floor ${a.floor}` : undefined,
    a.room !== undefined ? `Room ${a.room}` : undefined,
    a.postBox !== undefined ? `PO box ${a.postBox}` : undefined,
    join(a.postCode, a.townName) || undefined,
    a.townLocationName,
    a.districtName,
    a.countrySubDivision,
    countryName(a.country),
  ].filter((l): l is string => l !== undefined && l !== '');
}

const text = (value: string) => ({ text: value, kind: 'text' as const });
const id = (value: string) => ({ text: value, kind: 'id' as const });

function addressRows(addresses: Address[] | undefined): PersonRow[] {
  return (addresses ?? []).map((a, i, all) => ({
    label: `${all.length > 1 ? `Address ${i + 1}` : 'Address'}: ${codeLabel('address', a.addressType)}`,
    parts: addressLines(a).map(text),
    join: 'lines',
  }));
}

/** How each of a name's lists is labelled: its identifiers, in local characters, phonetic. */
const NAME_LISTS = [
  ['nameIdentifier', ''],
  ['localNameIdentifier', ' in local characters'],
  ['phoneticNameIdentifier', ', phonetic'],
] as const;

function naturalRows(p: NaturalPersonValue): PersonRow[] {
  const rows: PersonRow[] = NAME_LISTS.flatMap(([list, how]) =>
    (p.name[list] ?? []).map(
      (n): PersonRow => ({
        label: `${codeLabel('name', n.nameIdentifierType)}${how}`,
        parts: [n.primaryIdentifier, n.secondaryIdentifier]
          .filter((v) => v !== undefined)
          .map((v) => ({ text: v, kind: 'name' })),
        join: 'comma',
        note: '(family name, given names)',
      }),
    ),
  );
  const birth = p.dateAndPlaceOfBirth;
  if (birth?.dateOfBirth !== undefined)
    rows.push({ label: 'Date of birth', parts: [text(birth.dateOfBirth)], join: 'comma' });
  if (birth?.placeOfBirth !== undefined)
    rows.push({ label: 'Place of birth', parts: [text(birth.placeOfBirth)], join: 'comma' });
  const national = p.nationalIdentification;
  if (national)
    rows.push({
      label: 'National identification',
      parts: [
        national.nationalIdentifierType !== undefined
          ? text(codeLabel('national', national.nationalIdentifierType))
          : undefined,
        national.nationalIdentifier !== undefined ? id(national.nationalIdentifier) : undefined,
        national.countryOfIssue !== undefined
          ? text(`issued in ${countryName(national.countryOfIssue)}`)
          : undefined,
      ].filter((x) => x !== undefined),
      join: 'comma',
    });
  rows.push(...addressRows(p.geographicAddress));
  if (p.customerIdentification !== undefined)
    rows.push({
      label: 'Customer identification',
      parts: [id(p.customerIdentification)],
      join: 'comma',
    });
  if (p.countryOfResidence !== undefined)
    rows.push({
      label: 'Country of residence',
      parts: [text(countryName(p.countryOfResidence))],
      join: 'comma',
    });
  return rows;
}

function legalRows(legal: LegalPersonValue): PersonRow[] {
  const rows: PersonRow[] = [
    { label: 'Kind', parts: [text('Legal person (company or other entity)')], join: 'comma' },
    ...NAME_LISTS.flatMap(([list, how]) =>
      (legal.name[list] ?? []).map(
        (n): PersonRow => ({
          label: `${codeLabel('legalName', n.legalPersonNameIdentifierType)}${how}`,
          parts: [{ text: n.legalPersonName, kind: 'name' }],
          join: 'comma',
        }),
      ),
    ),
  ];
  const national = legal.nationalIdentification;
  if (national)
    rows.push({
      label: 'National identification',
      parts: [
        text(codeLabel('national', national.nationalIdentifierType)),
        id(national.nationalIdentifier),
        ...(national.registrationAuthority !== undefined
          ? [text(`registration authority ${national.registrationAuthority}`)]
          : []),
      ],
      join: 'comma',
    });
  if (legal.countryOfRegistration !== undefined)
    rows.push({
      label: 'Country of registration',
      parts: [text(countryName(legal.countryOfRegistration))],
      join: 'comma',
    });
  rows.push(...addressRows(legal.geographicAddress));
  if (legal.customerNumber !== undefined)
    rows.push({ label: 'Customer number', parts: [id(legal.customerNumber)], join: 'comma' });
  return rows;
}

export function personRows(person: PersonValue): PersonRow[] {
  return 'legalPerson' in person
    ? legalRows(person.legalPerson)
    : naturalRows(person.naturalPerson);
}
