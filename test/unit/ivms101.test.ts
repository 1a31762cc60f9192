import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  COUNTRY_CODES,
  CreateTxBody,
  ReceiveTxBody,
  parseTravelRuleInput,
} from '../../src/travelrule/ivms101/index.js';
import type { NaturalPersonValue, PersonValue } from '../../src/travelrule/index.js';

/** The natural person of a parsed person (a legal person fails the test). */
function natural(person: PersonValue): NaturalPersonValue {
  if (!('naturalPerson' in person)) throw new Error('not a natural person');
  return person.naturalPerson;
}

const ORIGINATOR_ADDRESS = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const BENEFICIARY_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/** Every personal value of the fixture: none may ever appear in a result that refuses. */
const PERSONAL = [
  'Yılmaz',
  'Ayşe Nur',
  'Ayşe Demir',
  'Kadıköy',
  'U09876543',
  'Bağdat Caddesi',
  'Moda Apartmanı',
  '34710',
  'Kadikoy',
  'Istanbul',
  'CUST-778812',
  'Schmidt',
  'Anna',
  'DE-5512',
  '1985-07-14',
  ORIGINATOR_ADDRESS,
  BENEFICIARY_ADDRESS,
];

/**
 * The complete create_tx body: an originator with every optional part (in the spec's
 * alternative spellings, with lower-case countries), a beneficiary with name and wallet only
 * plus the standard spellings.
 */
function validBody(): Record<string, any> {
  return {
    apikey: 'tg_not_part_of_the_input',
    transaction_ref: 'wd-2024-0001',
    transaction_asset: 'ETH',
    transaction_amount: '1.250',
    transaction_asset_decimals: '18',
    beneficiary_vasp_id: '3F2504E0-4F89-11D3-9A0C-0305E82C3301',
    originator: {
      persons: [
        {
          naturalPerson: {
            name: {
              nameIdentifier: [
                {
                  primaryIdentifier: 'Yılmaz',
                  secondaryIdentifier: 'Ayşe Nur',
                  nameIdentifierType: 'legl',
                },
                { primaryIdentifier: 'Ayşe Demir', nameIdentifierType: 'MAID' },
              ],
            },
            dateAndPlaceOfBirth: { dateOfBirth: '1985-07-14', placeOfBirth: 'Kadıköy' },
            nationalIdenficiation: {
              nationalIdentifier: 'U09876543',
              nationalIdentifierType: 'CCPT',
              countryOfIssue: 'tr',
            },
            geographicAddress: [
              {
                addressType: 'HOME',
                streetName: 'Bağdat Caddesi',
                buildingNumber: '12',
                buildingName: 'Moda Apartmanı',
                postCode: '34710',
                townName: 'Kadikoy',
                countrySubDivision: 'Istanbul',
                country: 'tr',
                addressLine: [],
              },
            ],
            customerIdenficiation: 'CUST-778812',
          },
        },
      ],
      accountNumber: [ORIGINATOR_ADDRESS],
    },
    beneficiary: {
      persons: [
        {
          naturalPerson: {
            name: {
              nameIdentifier: [
                {
                  primaryIdentifier: 'Schmidt',
                  secondaryIdentifier: 'Anna',
                  nameIdentifierType: 'LEGL',
                },
              ],
            },
            nationalIdentification: {
              nationalIdentifier: 'DE-5512',
              nationalIdentifierType: 'IDCD',
              countryOfIssue: 'De',
            },
            customerIdentification: '',
            dateAndPlaceOfBirth: null,
          },
        },
      ],
      accountNumber: [BENEFICIARY_ADDRESS],
    },
  };
}

const originatorPerson = (b: Record<string, any>) => b.originator.persons[0].naturalPerson;
const beneficiaryPerson = (b: Record<string, any>) => b.beneficiary.persons[0].naturalPerson;
const P = 'originator.persons[0].naturalPerson';
const B = 'beneficiary.persons[0].naturalPerson';

function tomorrowUtc(): string {
  return new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
}

function expectRefused(body: unknown, path: string, reason: RegExp, injected?: string) {
  const result = parseTravelRuleInput(body, 'create_tx');
  expect(result.ok, JSON.stringify(result)).toBe(false);
  if (result.ok) return;
  expect(result.path).toBe(path);
  expect(result.message).toMatch(reason);
  expect(result.message.startsWith(path ? `${path}: ` : '')).toBe(true);
  const text = JSON.stringify(result);
  for (const value of [...PERSONAL, ...(injected ? [injected] : [])])
    expect(text).not.toContain(value);
}

describe('parseTravelRuleInput: the complete valid create_tx body', () => {
  it('passes and normalises spellings, letter case, blanks, amount and addresses', () => {
    const result = parseTravelRuleInput(validBody(), 'create_tx');
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (!result.ok) return;
    const value = result.value;
    expect(value).toMatchObject({
      kind: 'create_tx',
      transaction_ref: 'wd-2024-0001',
      transaction_asset: 'ETH',
      transaction_network: 'eth',
      transaction_network_derived: true,
      transaction_amount: '1.25',
      transaction_amount_base_units: '1250000000000000000',
      transaction_asset_decimals: 18,
      beneficiary_vasp_id: '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
    });
    expect(value).not.toHaveProperty('apikey');
    expect(value.originator.accountNumber).toEqual([ORIGINATOR_ADDRESS.toLowerCase()]);
    expect(value.beneficiary.accountNumber).toEqual([BENEFICIARY_ADDRESS.toLowerCase()]);
    expect(natural(value.originator.persons[0]!)).toEqual({
      name: {
        nameIdentifier: [
          {
            primaryIdentifier: 'Yılmaz',
            secondaryIdentifier: 'Ayşe Nur',
            nameIdentifierType: 'LEGL',
          },
          { primaryIdentifier: 'Ayşe Demir', nameIdentifierType: 'MAID' },
        ],
      },
      dateAndPlaceOfBirth: { dateOfBirth: '1985-07-14', placeOfBirth: 'Kadıköy' },
      nationalIdentification: {
        nationalIdentifier: 'U09876543',
        nationalIdentifierType: 'CCPT',
        countryOfIssue: 'TR',
      },
      geographicAddress: [
        {
          addressType: 'HOME',
          streetName: 'Bağdat Caddesi',
          buildingNumber: '12',
          buildingName: 'Moda Apartmanı',
          postCode: '34710',
          townName: 'Kadikoy',
          countrySubDivision: 'Istanbul',
          country: 'TR',
          addressLine: [],
        },
      ],
      customerIdentification: 'CUST-778812',
    });
    expect(natural(value.beneficiary.persons[0]!)).toEqual({
      name: {
        nameIdentifier: [
          { primaryIdentifier: 'Schmidt', secondaryIdentifier: 'Anna', nameIdentifierType: 'LEGL' },
        ],
      },
      nationalIdentification: {
        nationalIdentifier: 'DE-5512',
        nationalIdentifierType: 'IDCD',
        countryOfIssue: 'DE',
      },
    });
  });

  it('accepts both spellings together when they agree, and the person-level nationalIdentifier object', () => {
    const body = validBody();
    const person = originatorPerson(body);
    person.nationalIdentification = {
      nationalIdentifier: 'U09876543',
      nationalIdentifierType: 'ccpt',
      countryOfIssue: 'TR',
    };
    person.customerIdentification = 'CUST-778812';
    const b = beneficiaryPerson(body);
    b.nationalIdentifier = b.nationalIdentification;
    delete b.nationalIdentification;
    const result = parseTravelRuleInput(body, 'create_tx');
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (!result.ok) return;
    expect(
      natural(result.value.originator.persons[0]!).nationalIdentification?.nationalIdentifierType,
    ).toBe('CCPT');
    expect(natural(result.value.originator.persons[0]!)).not.toHaveProperty(
      'nationalIdenficiation',
    );
    expect(
      natural(result.value.beneficiary.persons[0]!).nationalIdentification?.countryOfIssue,
    ).toBe('DE');
  });

  it("takes IVMS101's XX (country not known) wherever a country is asked", () => {
    const body = validBody();
    originatorPerson(body).countryOfResidence = 'xx';
    originatorPerson(body).geographicAddress[0].country = 'XX';
    const result = parseTravelRuleInput(body, 'create_tx');
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (result.ok) {
      expect(natural(result.value.originator.persons[0]!).countryOfResidence).toBe('XX');
      expect(natural(result.value.originator.persons[0]!).geographicAddress?.[0]?.country).toBe(
        'XX',
      );
    }
  });

  it.each([
    [
      'date and place of birth',
      { dateAndPlaceOfBirth: { dateOfBirth: '1985-07-14', placeOfBirth: 'Lyon' } },
    ],
    [
      'national identification',
      {
        nationalIdentification: { nationalIdentifier: 'U09876543', nationalIdentifierType: 'CCPT' },
      },
    ],
    [
      'geographic address',
      {
        geographicAddress: [
          {
            addressType: 'GEOG',
            addressLine: ['Bağdat Caddesi 12'],
            townName: 'Kadikoy',
            country: 'TR',
          },
        ],
      },
    ],
    ['customer number', { customerIdentification: 'CUST-778812' }],
  ])('accepts an originator identified by the %s alone', (_case, part) => {
    const body = validBody();
    body.originator.persons[0].naturalPerson = {
      name: originatorPerson(body).name,
      nationalIdentification: { nationalIdentifier: ' ', nationalIdentifierType: '' },
      ...part,
    };
    expect(parseTravelRuleInput(body, 'create_tx').ok).toBe(true);
  });

  it('accepts the IVMS101.2023 element names and keeps countryOfResidence', () => {
    const body = validBody();
    const person = originatorPerson(body);
    for (const n of person.name.nameIdentifier) {
      n.naturalPersonNameIdentifierType = n.nameIdentifierType;
      delete n.nameIdentifierType;
    }
    const customer = person.customerIdenficiation ?? person.customerIdentification;
    delete person.customerIdenficiation;
    delete person.customerIdentification;
    person.customerNumber = customer;
    person.countryOfResidence = 'tr';
    const parsed = parseTravelRuleInput(body, 'create_tx');
    if (!parsed.ok) throw new Error(parsed.message);
    const out = natural(parsed.value.originator.persons[0]!);
    expect(out.name.nameIdentifier[0]!.nameIdentifierType).toBe('LEGL');
    expect(out.customerIdentification).toBe(customer);
    expect(out.countryOfResidence).toBe('TR');
  });

  it('ships the 249 assigned ISO 3166-1 alpha-2 codes', () => {
    expect(COUNTRY_CODES.size).toBe(249);
    for (const code of ['TR', 'DE', 'SS', 'AX', 'BQ']) expect(COUNTRY_CODES.has(code)).toBe(true);
    for (const code of ['UK', 'EU', 'XK', 'XX', 'AN']) expect(COUNTRY_CODES.has(code)).toBe(false);
  });

  it('gives the OpenAPI document both spellings and the code lists', () => {
    const create = JSON.stringify(
      z.toJSONSchema(CreateTxBody, { io: 'input', unrepresentable: 'any', target: 'openapi-3.0' }),
    );
    expect(create).toContain('nationalIdenficiation');
    expect(create).toContain('customerIdenficiation');
    expect(create).toContain('LEGL, ALIA, BIRT, MAID, MISC');
    const receive = JSON.stringify(
      z.toJSONSchema(ReceiveTxBody, { io: 'input', unrepresentable: 'any', target: 'openapi-3.0' }),
    );
    expect(receive).toContain('transaction_hash');
    expect(receive).toContain('created_at');
  });
});

type Mutation = (b: Record<string, any>) => void;

describe('parseTravelRuleInput: each rule broken once', () => {
  const cases: [string, Mutation, string, RegExp, string?][] = [
    // transaction fields
    [
      'transaction_ref missing',
      (b) => {
        delete b.transaction_ref;
      },
      'transaction_ref',
      /is required/,
    ],
    [
      'transaction_ref with a control character',
      (b) => {
        b.transaction_ref = 'wd\n1';
      },
      'transaction_ref',
      /control characters/,
    ],
    [
      'transaction_asset not a symbol',
      (b) => {
        b.transaction_asset = 'ETH USD';
      },
      'transaction_asset',
      /asset symbol/,
    ],
    [
      'transaction_network unknown',
      (b) => {
        b.transaction_network = 'ethereum';
      },
      'transaction_network',
      /network symbol/,
    ],
    [
      'transaction_amount negative',
      (b) => {
        b.transaction_amount = '-1';
      },
      'transaction_amount',
      /non-negative decimal/,
    ],
    [
      'transaction_amount with an exponent',
      (b) => {
        b.transaction_amount = '1e3';
      },
      'transaction_amount',
      /non-negative decimal/,
    ],
    [
      'transaction_amount a JSON number',
      (b) => {
        b.transaction_amount = 1.5;
      },
      'transaction_amount',
      /must be a string/,
    ],
    [
      'transaction_amount finer than the decimals',
      (b) => {
        b.transaction_asset = 'USDT';
        b.transaction_asset_decimals = '6';
        b.transaction_amount = '0.1234567';
      },
      'transaction_amount',
      /more fractional digits than transaction_asset_decimals \(6\)/,
    ],
    [
      'transaction_asset_decimals above 36',
      (b) => {
        b.transaction_asset_decimals = '37';
      },
      'transaction_asset_decimals',
      /at most 36/,
    ],
    [
      'transaction_asset_decimals not whole',
      (b) => {
        b.transaction_asset_decimals = '1.5';
      },
      'transaction_asset_decimals',
      /whole number/,
    ],
    [
      'native asset with other decimals',
      (b) => {
        b.transaction_asset_decimals = '6';
        b.transaction_amount = '1';
      },
      'transaction_asset_decimals',
      /must be 18 for ETH on eth/,
    ],
    [
      'beneficiary_vasp_id not a UUID',
      (b) => {
        b.beneficiary_vasp_id = 'vasp-42';
      },
      'beneficiary_vasp_id',
      /UUID/,
    ],
    // parties
    [
      'originator missing',
      (b) => {
        delete b.originator;
      },
      'originator',
      /is required/,
    ],
    [
      'originator without persons',
      (b) => {
        b.originator.persons = [];
      },
      'originator.persons',
      /at least one person/,
    ],
    [
      'originator without account number',
      (b) => {
        b.originator.accountNumber = [];
      },
      'originator.accountNumber',
      /at least one wallet address/,
    ],
    [
      'originator account not valid on the named network',
      (b) => {
        b.transaction_network = 'eth';
        b.originator.accountNumber = ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'];
      },
      'originator.accountNumber[0]',
      /not a valid eth wallet address/,
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
    ],
    [
      'beneficiary account with a broken checksum',
      (b) => {
        b.transaction_network = 'eth';
        b.beneficiary.accountNumber = ['0x70997970C51812dc3A010C7d01b50e0d17dc79c8'];
      },
      'beneficiary.accountNumber[0]',
      /not a valid eth wallet address/,
      '0x70997970C51812dc3A010C7d01b50e0d17dc79c8',
    ],
    [
      'person neither natural nor legal',
      (b) => {
        b.originator.persons[0] = { person: {} };
      },
      'originator.persons[0].naturalPerson',
      /: is required \(or legalPerson, for a company or other legal person\)$/,
    ],
    // name
    [
      'originator without name',
      (b) => {
        delete originatorPerson(b).name;
      },
      `${P}.name`,
      /is required/,
    ],
    [
      'name without identifiers',
      (b) => {
        originatorPerson(b).name.nameIdentifier = [];
      },
      `${P}.name.nameIdentifier`,
      /at least one name identifier/,
    ],
    [
      'primaryIdentifier blank',
      (b) => {
        originatorPerson(b).name.nameIdentifier[0].primaryIdentifier = '  ';
      },
      `${P}.name.nameIdentifier[0].primaryIdentifier`,
      /must not be blank/,
    ],
    [
      'primaryIdentifier over 100',
      (b) => {
        originatorPerson(b).name.nameIdentifier[0].primaryIdentifier = 'Qzx'.repeat(34);
      },
      `${P}.name.nameIdentifier[0].primaryIdentifier`,
      /at most 100 characters/,
      'Qzx'.repeat(34),
    ],
    [
      'primaryIdentifier with a control character',
      (b) => {
        originatorPerson(b).name.nameIdentifier[0].primaryIdentifier = 'Yıl\u0000maz';
      },
      `${P}.name.nameIdentifier[0].primaryIdentifier`,
      /control characters/,
      'Yıl\u0000maz',
    ],
    [
      'primaryIdentifier with a C1 control character (a terminal CSI)',
      (b) => {
        originatorPerson(b).name.nameIdentifier[0].primaryIdentifier = 'A\u009b31mB';
      },
      `${P}.name.nameIdentifier[0].primaryIdentifier`,
      /control characters/,
      'A\u009b31mB',
    ],
    [
      'transaction_ref with a line separator',
      (b) => {
        b.transaction_ref = 'wd\u20281';
      },
      'transaction_ref',
      /control characters/,
    ],
    [
      'secondaryIdentifier over 100',
      (b) => {
        originatorPerson(b).name.nameIdentifier[0].secondaryIdentifier = 'Wvu'.repeat(34);
      },
      `${P}.name.nameIdentifier[0].secondaryIdentifier`,
      /at most 100 characters/,
      'Wvu'.repeat(34),
    ],
    [
      'nameIdentifierType not in the list',
      (b) => {
        originatorPerson(b).name.nameIdentifier[1].nameIdentifierType = 'NICK';
      },
      `${P}.name.nameIdentifier[1].nameIdentifierType`,
      /one of LEGL, ALIA, BIRT, MAID, MISC/,
    ],
    [
      'beneficiary without name',
      (b) => {
        delete beneficiaryPerson(b).name;
      },
      `${B}.name`,
      /is required/,
    ],
    [
      'beneficiary without persons',
      (b) => {
        delete b.beneficiary.persons;
      },
      'beneficiary.persons',
      /is required/,
    ],
    [
      'beneficiary without account number',
      (b) => {
        b.beneficiary.accountNumber = [];
      },
      'beneficiary.accountNumber',
      /at least one wallet address/,
    ],
    // originator identification
    [
      'originator with none of birth date, identification, address, customer number',
      (b) => {
        const p = originatorPerson(b);
        delete p.dateAndPlaceOfBirth;
        delete p.nationalIdenficiation;
        delete p.geographicAddress;
        p.customerIdenficiation = '';
      },
      P,
      /at least one of dateAndPlaceOfBirth.dateOfBirth, nationalIdentification, geographicAddress, customerIdentification/,
    ],
    // date and place of birth
    [
      'dateOfBirth in another format',
      (b) => {
        originatorPerson(b).dateAndPlaceOfBirth.dateOfBirth = '14/07/1985';
      },
      `${P}.dateAndPlaceOfBirth.dateOfBirth`,
      /YYYY-MM-DD/,
      '14/07/1985',
    ],
    [
      'dateOfBirth not a calendar date',
      (b) => {
        originatorPerson(b).dateAndPlaceOfBirth.dateOfBirth = '1985-02-29';
      },
      `${P}.dateAndPlaceOfBirth.dateOfBirth`,
      /real calendar date/,
      '1985-02-29',
    ],
    [
      'dateOfBirth tomorrow',
      (b) => {
        originatorPerson(b).dateAndPlaceOfBirth.dateOfBirth = tomorrowUtc();
      },
      `${P}.dateAndPlaceOfBirth.dateOfBirth`,
      /in the past/,
      tomorrowUtc(),
    ],
    [
      'dateOfBirth today',
      (b) => {
        originatorPerson(b).dateAndPlaceOfBirth.dateOfBirth = new Date().toISOString().slice(0, 10);
      },
      `${P}.dateAndPlaceOfBirth.dateOfBirth`,
      /in the past/,
    ],
    [
      'dateOfBirth before 1900',
      (b) => {
        originatorPerson(b).dateAndPlaceOfBirth.dateOfBirth = '1899-12-31';
      },
      `${P}.dateAndPlaceOfBirth.dateOfBirth`,
      /on or after 1900-01-01/,
      '1899-12-31',
    ],
    [
      'placeOfBirth without dateOfBirth',
      (b) => {
        originatorPerson(b).dateAndPlaceOfBirth.dateOfBirth = '';
      },
      `${P}.dateAndPlaceOfBirth.dateOfBirth`,
      /required when placeOfBirth/,
    ],
    [
      // IVMS101 makes both parts mandatory; a date alone was taken and sent on to peers whose
      // validators refuse it (found by an outside probe).
      'dateOfBirth without placeOfBirth',
      (b) => {
        originatorPerson(b).dateAndPlaceOfBirth.placeOfBirth = null;
      },
      `${P}.dateAndPlaceOfBirth.placeOfBirth`,
      /required when dateOfBirth is given \(IVMS101: both parts are mandatory\)/,
    ],
    [
      'placeOfBirth over 70',
      (b) => {
        originatorPerson(b).dateAndPlaceOfBirth.placeOfBirth = 'Kq'.repeat(36);
      },
      `${P}.dateAndPlaceOfBirth.placeOfBirth`,
      /at most 70 characters/,
      'Kq'.repeat(36),
    ],
    // national identification
    [
      'nationalIdentifier over 35',
      (b) => {
        originatorPerson(b).nationalIdenficiation.nationalIdentifier = 'N7'.repeat(18);
      },
      `${P}.nationalIdenficiation.nationalIdentifier`,
      /at most 35 characters/,
      'N7'.repeat(18),
    ],
    [
      'nationalIdentifierType not in the list',
      (b) => {
        originatorPerson(b).nationalIdenficiation.nationalIdentifierType = 'PASS';
      },
      `${P}.nationalIdenficiation.nationalIdentifierType`,
      /one of ARNU, CCPT, RAID, DRLC, FIIN, TXID, SOCS, IDCD, LEIX, MISC/,
    ],
    [
      'national identification without its type',
      (b) => {
        delete originatorPerson(b).nationalIdenficiation.nationalIdentifierType;
      },
      `${P}.nationalIdenficiation.nationalIdentifierType`,
      /is required when a national identification/,
    ],
    [
      'countryOfIssue not assigned',
      (b) => {
        originatorPerson(b).nationalIdenficiation.countryOfIssue = 'xk';
      },
      `${P}.nationalIdenficiation.countryOfIssue`,
      /ISO 3166-1 alpha-2/,
    ],
    [
      'countryOfIssue alpha-3',
      (b) => {
        beneficiaryPerson(b).nationalIdentification.countryOfIssue = 'DEU';
      },
      `${B}.nationalIdentification.countryOfIssue`,
      /ISO 3166-1 alpha-2/,
    ],
    // geographic address
    [
      'addressType not in the list',
      (b) => {
        originatorPerson(b).geographicAddress[0].addressType = 'WORK';
      },
      `${P}.geographicAddress[0].addressType`,
      /one of HOME, BIZZ, GEOG/,
    ],
    [
      'address country not assigned',
      (b) => {
        originatorPerson(b).geographicAddress[0].country = 'ZZ';
      },
      `${P}.geographicAddress[0].country`,
      /ISO 3166-1 alpha-2/,
    ],
    [
      'address country missing',
      (b) => {
        delete originatorPerson(b).geographicAddress[0].country;
      },
      `${P}.geographicAddress[0].country`,
      /is required/,
    ],
    [
      'streetName over 70',
      (b) => {
        originatorPerson(b).geographicAddress[0].streetName = 'Sx'.repeat(36);
      },
      `${P}.geographicAddress[0].streetName`,
      /at most 70/,
      'Sx'.repeat(36),
    ],
    [
      'buildingNumber over 16',
      (b) => {
        originatorPerson(b).geographicAddress[0].buildingNumber = '9'.repeat(17);
      },
      `${P}.geographicAddress[0].buildingNumber`,
      /at most 16/,
      '9'.repeat(17),
    ],
    [
      'buildingName over 35',
      (b) => {
        originatorPerson(b).geographicAddress[0].buildingName = 'Bn'.repeat(18);
      },
      `${P}.geographicAddress[0].buildingName`,
      /at most 35/,
      'Bn'.repeat(18),
    ],
    [
      'postCode over 16',
      (b) => {
        originatorPerson(b).geographicAddress[0].postCode = '8'.repeat(17);
      },
      `${P}.geographicAddress[0].postCode`,
      /at most 16/,
      '8'.repeat(17),
    ],
    [
      'townName over 35',
      (b) => {
        originatorPerson(b).geographicAddress[0].townName = 'Tw'.repeat(18);
      },
      `${P}.geographicAddress[0].townName`,
      /at most 35/,
      'Tw'.repeat(18),
    ],
    [
      'countrySubDivision over 35',
      (b) => {
        originatorPerson(b).geographicAddress[0].countrySubDivision = 'Cs'.repeat(18);
      },
      `${P}.geographicAddress[0].countrySubDivision`,
      /at most 35/,
      'Cs'.repeat(18),
    ],
    [
      'addressLine over 70',
      (b) => {
        originatorPerson(b).geographicAddress[0].addressLine = ['Al'.repeat(36)];
      },
      `${P}.geographicAddress[0].addressLine[0]`,
      /at most 70/,
      'Al'.repeat(36),
    ],
    [
      'more than 7 address lines',
      (b) => {
        originatorPerson(b).geographicAddress[0].addressLine = Array.from(
          { length: 8 },
          (_, i) => `line ${i}`,
        );
      },
      `${P}.geographicAddress[0].addressLine`,
      /at most 7 lines/,
    ],
    [
      'address without street and building or address line',
      (b) => {
        const a = originatorPerson(b).geographicAddress[0];
        delete a.buildingNumber;
        delete a.buildingName;
      },
      `${P}.geographicAddress[0]`,
      /addressLine, or streetName with buildingNumber or buildingName/,
    ],
    [
      'address without a town (IVMS101: townName is mandatory)',
      (b) => {
        delete originatorPerson(b).geographicAddress[0].townName;
      },
      `${P}.geographicAddress[0].townName`,
      /is required \(IVMS101 Address: townName is mandatory\)/,
    ],
    [
      'natural person without a legal name',
      (b) => {
        originatorPerson(b).name.nameIdentifier[0].nameIdentifierType = 'ALIA';
      },
      `${P}.name.nameIdentifier`,
      /needs a legal name: one name identifier of type LEGL/,
    ],
    [
      'countryOfResidence not a country',
      (b) => {
        originatorPerson(b).countryOfResidence = 'ZZ';
      },
      `${P}.countryOfResidence`,
      /ISO 3166-1/,
    ],
    [
      'the two spellings of the name type disagree',
      (b) => {
        originatorPerson(b).name.nameIdentifier[0].naturalPersonNameIdentifierType = 'ALIA';
      },
      `${P}.name.nameIdentifier[0].naturalPersonNameIdentifierType`,
      /conflicts with nameIdentifierType/,
    ],
    // customer number and spellings
    [
      'customerIdentification over 50',
      (b) => {
        beneficiaryPerson(b).customerIdentification = 'Cu'.repeat(26);
      },
      `${B}.customerIdentification`,
      /at most 50/,
      'Cu'.repeat(26),
    ],
    [
      'two spellings of nationalIdentification that differ',
      (b) => {
        originatorPerson(b).nationalIdentification = {
          nationalIdentifier: 'U11111111',
          nationalIdentifierType: 'CCPT',
        };
      },
      `${P}.nationalIdenficiation`,
      /conflicts with nationalIdentification/,
      'U11111111',
    ],
    [
      'two spellings of customerIdentification that differ',
      (b) => {
        originatorPerson(b).customerIdentification = 'CUST-000001';
      },
      `${P}.customerIdenficiation`,
      /conflicts with customerIdentification/,
      'CUST-000001',
    ],
  ];

  it.each(cases)('%s', (_case, mutate, path, reason, injected) => {
    const body = validBody();
    mutate(body);
    expectRefused(body, path, reason, injected);
  });

  it.each([
    ['null', null],
    ['an array', []],
    ['a string', 'originator=x'],
  ])('refuses a body that is %s', (_case, body) => {
    expectRefused(body, '', /the body must be a JSON object/);
  });

  it('reports the first problem in path order and lists every problem found', () => {
    const body = validBody();
    originatorPerson(body).geographicAddress[0].country = 'ZZ';
    originatorPerson(body).name.nameIdentifier[0].nameIdentifierType = 'NICK';
    beneficiaryPerson(body).name.nameIdentifier[0].primaryIdentifier = '';
    body.transaction_asset = '$ETH';
    const result = parseTravelRuleInput(body, 'create_tx');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.path).toBe('transaction_asset');
    expect(result.issues.map((issue) => issue.path)).toEqual([
      'transaction_asset',
      `${P}.name.nameIdentifier[0].nameIdentifierType`,
      `${P}.geographicAddress[0].country`,
      `${B}.name.nameIdentifier[0].primaryIdentifier`,
    ]);
  });
});
