import { describe, expect, it } from 'vitest';
import { Party } from '../../src/dashboard/pages/ivms101.js';
import { parseJsonExact, stringifyWithBigInts } from '../../src/json.js';
import { isValidLei } from '../../src/ids.js';
import { personRows } from '../../src/travelrule/ivms101/display.js';
import { parseTravelRuleInput } from '../../src/travelrule/ivms101/index.js';
import type { NormalisedParty } from '../../src/travelrule/ivms101/normalise.js';
import { DtiTable } from '../../src/travelrule/trp/assets.js';
import { buildInquiry, parseInquiry } from '../../src/travelrule/trp/messages.js';
import { renderViewPage } from '../../src/travelrule/view-page.js';
import { webhookSpec, contractViolations } from '../helpers/webhook-contract.js';

/**
 * IVMS101 legal persons (a VASP's corporate customers) as parties: taken from create_tx and from
 * a TRP inquiry, held to IVMS101's constraints, shown on the pages, sent on. The inquiry below
 * is written from TRP's and IVMS101's documents (a legal-person originator as TRISA's examples
 * write one), not from our own outbound message.
 */

const ORIGINATOR_ADDRESS = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const BENEFICIARY_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
/** GLEIF's own LEI, a real one whose check digits hold. */
const LEI = '506700GE1G29325QX363';

type Json = any;

function legalPerson(): Json {
  return {
    name: {
      nameIdentifier: [
        { legalPersonName: 'Quillfeather Trading GmbH', legalPersonNameIdentifierType: 'legl' },
        { legalPersonName: 'Quillfeather', legalPersonNameIdentifierType: 'TRAD' },
      ],
    },
    geographicAddress: [
      {
        addressType: 'BIZZ',
        streetName: 'Hafenstraße',
        buildingNumber: '7',
        postCode: '20457',
        townName: 'Hamburg',
        country: 'de',
      },
    ],
    customerIdentification: 'CORP-0042',
    nationalIdentification: {
      nationalIdentifier: 'HRB 123456',
      nationalIdentifierType: 'RAID',
      registrationAuthority: 'ra000242',
    },
    countryOfRegistration: 'DE',
    // Parts Tollgate does not keep: dropped, as for natural persons.
    localNameIdentifier: [],
  };
}

function createTx(originator: Json, beneficiary: Json = { legalPerson: legalPerson() }): Json {
  return {
    transaction_ref: 'wd-legal-1',
    transaction_asset: 'ETH',
    transaction_amount: '2',
    transaction_asset_decimals: '18',
    originator: { persons: [originator], accountNumber: [ORIGINATOR_ADDRESS] },
    beneficiary: { persons: [beneficiary], accountNumber: [BENEFICIARY_ADDRESS] },
  };
}

function refused(body: Json): string {
  const result = parseTravelRuleInput(body, 'create_tx');
  expect(result.ok, JSON.stringify(result)).toBe(false);
  if (result.ok) return '';
  expect(result.message).not.toContain('Quillfeather');
  expect(result.message).not.toContain('HRB 123456');
  return result.message;
}

function withLegal(edit: (p: Json) => void): Json {
  const p = legalPerson();
  edit(p);
  return createTx({ legalPerson: p });
}

describe('legal persons in the travel rule input', () => {
  it('takes a legal person on either side and normalises it', () => {
    const result = parseTravelRuleInput(createTx({ legalPerson: legalPerson() }), 'create_tx');
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (!result.ok) return;
    expect(result.value.originator.persons[0]).toEqual({
      legalPerson: {
        name: {
          nameIdentifier: [
            { legalPersonName: 'Quillfeather Trading GmbH', legalPersonNameIdentifierType: 'LEGL' },
            { legalPersonName: 'Quillfeather', legalPersonNameIdentifierType: 'TRAD' },
          ],
        },
        geographicAddress: [
          {
            addressType: 'BIZZ',
            streetName: 'Hafenstraße',
            buildingNumber: '7',
            postCode: '20457',
            townName: 'Hamburg',
            country: 'DE',
          },
        ],
        customerNumber: 'CORP-0042',
        nationalIdentification: {
          nationalIdentifier: 'HRB 123456',
          nationalIdentifierType: 'RAID',
          registrationAuthority: 'RA000242',
        },
        countryOfRegistration: 'DE',
      },
    });
    // An LEI, in any letter case, needs no registration authority and is kept in upper case.
    const lei = parseTravelRuleInput(
      withLegal((p) => {
        p.nationalIdentification = {
          nationalIdentifier: LEI.toLowerCase(),
          nationalIdentifierType: 'LEIX',
        };
      }),
      'create_tx',
    );
    expect(lei.ok && lei.value.originator.persons[0]).toMatchObject({
      legalPerson: {
        nationalIdentification: { nationalIdentifier: LEI, nationalIdentifierType: 'LEIX' },
      },
    });
  });

  it("holds a legal person to IVMS101's constraints, naming the path and the rule", () => {
    const P = 'originator.persons[0].legalPerson';
    const cases: [string, (p: Json) => void, string][] = [
      [
        'no legal name',
        (p) => p.name.nameIdentifier.splice(0, 1),
        `${P}.name.nameIdentifier: needs a legal name: one name identifier of type LEGL (IVMS101 rule: a legal person has a legal name)`,
      ],
      [
        "a natural person's name type",
        (p) => (p.name.nameIdentifier[1].legalPersonNameIdentifierType = 'MAID'),
        `${P}.name.nameIdentifier[1].legalPersonNameIdentifierType: must be one of LEGL, SHRT, TRAD`,
      ],
      [
        "a natural person's identifier",
        (p) => (p.nationalIdentification.nationalIdentifierType = 'CCPT'),
        `${P}.nationalIdentification.nationalIdentifierType: must be one of RAID, MISC, LEIX, TXID`,
      ],
      [
        'a country of issue',
        (p) => (p.nationalIdentification.countryOfIssue = 'DE'),
        `${P}.nationalIdentification.countryOfIssue: must not be given for a legal person (IVMS101 CompleteNationalIdentifierLegalPerson)`,
      ],
      [
        'no registration authority',
        (p) => delete p.nationalIdentification.registrationAuthority,
        `${P}.nationalIdentification.registrationAuthority: is required unless nationalIdentifierType is LEIX (IVMS101 RegistrationAuthority)`,
      ],
      [
        'a registration authority that is no GLEIF code',
        (p) => (p.nationalIdentification.registrationAuthority = 'Hamburg'),
        `${P}.nationalIdentification.registrationAuthority: must be a GLEIF registration authority code: RA and 6 digits`,
      ],
      [
        'an LEI with wrong check digits',
        (p) =>
          (p.nationalIdentification = {
            nationalIdentifier: '506700GE1G29325QX364',
            nationalIdentifierType: 'LEIX',
          }),
        `${P}.nationalIdentification.nationalIdentifier: must be a legal entity identifier: 20 letters and digits whose check digits hold (ISO 17442)`,
      ],
      [
        'an LEI with a registration authority',
        (p) =>
          (p.nationalIdentification = {
            nationalIdentifier: LEI,
            nationalIdentifierType: 'LEIX',
            registrationAuthority: 'RA000242',
          }),
        `${P}.nationalIdentification.registrationAuthority: must not be given with an LEI (IVMS101 RegistrationAuthority)`,
      ],
      [
        'spellings of the customer number that disagree',
        (p) => (p.customerNumber = 'CORP-0043'),
        `${P}.customerIdentification: conflicts with customerNumber: both spellings are given with different values`,
      ],
      [
        'a country of registration that is none',
        (p) => (p.countryOfRegistration = 'XY'),
        `${P}.countryOfRegistration: must be an ISO 3166-1 alpha-2 country code (or XX, IVMS101's "not known")`,
      ],
      [
        'an originator that cannot be identified (IVMS101 OriginatorInformationLegalPerson)',
        (p) => {
          delete p.geographicAddress;
          delete p.customerIdentification;
          delete p.nationalIdentification;
        },
        `${P}: needs at least one of geographicAddress of addressType GEOG, nationalIdentification, customerNumber (IVMS101 OriginatorInformationLegalPerson)`,
      ],
      [
        // IVMS101: "geographicAddress (with an addressType value of 'GEOG')"; it was taken (found
        // by an outside probe).
        'an originator with only a business address',
        (p) => {
          delete p.customerIdentification;
          delete p.nationalIdentification;
        },
        `${P}: needs at least one of geographicAddress of addressType GEOG, nationalIdentification, customerNumber (IVMS101 OriginatorInformationLegalPerson)`,
      ],
      [
        'a local name without its type',
        (p) => (p.name.localNameIdentifier = [{ legalPersonName: 'クイルフェザー株式会社' }]),
        `${P}.name.localNameIdentifier[0].legalPersonNameIdentifierType: is required`,
      ],
      [
        'a phonetic name over 100 characters',
        (p) =>
          (p.name.phoneticNameIdentifier = [
            { legalPersonName: 'k'.repeat(101), legalPersonNameIdentifierType: 'LEGL' },
          ]),
        `${P}.name.phoneticNameIdentifier[0].legalPersonName: must be at most 100 characters`,
      ],
    ];
    for (const [what, edit, message] of cases) expect(refused(withLegal(edit)), what).toBe(message);
    // Its GEOG address identifies it, as does a country not known (IVMS101's XX).
    const geog = parseTravelRuleInput(
      withLegal((p) => {
        delete p.customerIdentification;
        delete p.nationalIdentification;
        p.geographicAddress[0].addressType = 'GEOG';
        p.countryOfRegistration = 'xx';
      }),
      'create_tx',
    );
    expect(geog.ok, JSON.stringify(geog)).toBe(true);
    if (geog.ok)
      expect((geog.value.originator.persons[0] as Json).legalPerson.countryOfRegistration).toBe(
        'XX',
      );
    // A person is one or the other.
    expect(
      refused(
        createTx({
          legalPerson: legalPerson(),
          naturalPerson: {
            name: { nameIdentifier: [{ primaryIdentifier: 'X', nameIdentifierType: 'LEGL' }] },
          },
        }),
      ),
    ).toBe(`${P}: must not be given beside naturalPerson: a person is one or the other`);
    // A beneficiary legal person needs only its name.
    const bare = parseTravelRuleInput(
      createTx(
        { legalPerson: legalPerson() },
        {
          legalPerson: {
            name: {
              nameIdentifier: [{ legalPersonName: 'B AG', legalPersonNameIdentifierType: 'LEGL' }],
            },
          },
        },
      ),
      'create_tx',
    );
    expect(bare.ok, JSON.stringify(bare)).toBe(true);
  });

  it('checks LEIs by their ISO 17442 check digits', () => {
    for (const lei of [LEI, 'HWUPKR0MPOU8FGXBT394', '5493001KJTIIGC8Y1R12'])
      expect(isValidLei(lei), lei).toBe(true);
    for (const lei of [
      '506700GE1G29325QX364',
      '506700GE1G29325QX36',
      '506700ge1g29325qx363',
      'ABCDEFGHIJKLMNOPQRST',
    ])
      expect(isValidLei(lei), lei).toBe(false);
  });
});

const DTIS = DtiTable.fromEntries([]);

/** A TRP inquiry from a peer whose customer is a company, written from TRP v3 and IVMS101. */
function peerInquiry(): Json {
  return {
    asset: { slip0044: 60 },
    amount: 2.5,
    callback: 'https://peer.example/trp/callback?t=1',
    IVMS101: {
      originator: {
        originatorPersons: [
          {
            legalPerson: {
              name: {
                nameIdentifier: [
                  {
                    legalPersonName: 'Northwind Holdings Ltd',
                    legalPersonNameIdentifierType: 'LEGL',
                  },
                ],
              },
              geographicAddress: [
                {
                  addressType: 'BIZZ',
                  addressLine: ['1 Harbour Way'],
                  townName: 'London',
                  country: 'GB',
                },
              ],
              customerNumber: 'NW-1',
              nationalIdentification: { nationalIdentifier: LEI, nationalIdentifierType: 'LEIX' },
              countryOfRegistration: 'GB',
            },
          },
        ],
        accountNumber: [ORIGINATOR_ADDRESS],
      },
      beneficiary: {
        beneficiaryPersons: [
          {
            legalPerson: {
              // IVMS101 allows the name as a list of name objects.
              name: [
                {
                  nameIdentifier: [
                    {
                      legalPersonName: 'Quillfeather Trading GmbH',
                      legalPersonNameIdentifierType: 'LEGL',
                    },
                  ],
                },
              ],
            },
          },
        ],
        accountNumber: [BENEFICIARY_ADDRESS],
      },
      originatingVASP: {
        originatingVASP: {
          legalPerson: {
            name: {
              nameIdentifier: [
                { legalPersonName: 'Peer VASP', legalPersonNameIdentifierType: 'LEGL' },
              ],
            },
          },
        },
      },
    },
  };
}

describe('legal persons over TRP', () => {
  it("takes a peer's inquiry whose originator and beneficiary are companies", () => {
    const text = JSON.stringify(peerInquiry());
    const parsed = parseInquiry(parseJsonExact(text, ['amount']), DTIS);
    expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.originator.persons[0]).toMatchObject({
      legalPerson: {
        name: { nameIdentifier: [{ legalPersonName: 'Northwind Holdings Ltd' }] },
        customerNumber: 'NW-1',
        nationalIdentification: { nationalIdentifier: LEI, nationalIdentifierType: 'LEIX' },
      },
    });
    expect(parsed.value.beneficiary.persons[0]).toEqual({
      legalPerson: {
        name: {
          nameIdentifier: [
            { legalPersonName: 'Quillfeather Trading GmbH', legalPersonNameIdentifierType: 'LEGL' },
          ],
        },
      },
    });
  });

  it("refuses a peer's legal person that breaks IVMS101, saying where in TRP's terms", () => {
    const body = peerInquiry();
    body.IVMS101.originator.originatorPersons[0].legalPerson.nationalIdentification.nationalIdentifierType =
      'RAID';
    const parsed = parseInquiry(parseJsonExact(JSON.stringify(body), ['amount']), DTIS);
    expect(parsed.ok).toBe(false);
    expect((parsed as { message: string }).message).toBe(
      'IVMS101.originator.originatorPersons[0].legalPerson.nationalIdentification.registrationAuthority: is required unless nationalIdentifierType is LEIX (IVMS101 RegistrationAuthority)',
    );
  });

  it('sends our legal persons on in IVMS101 form, and they read back the same', () => {
    const input = parseTravelRuleInput(createTx({ legalPerson: legalPerson() }), 'create_tx');
    if (!input.ok) throw new Error(input.message);
    const body = buildInquiry({
      asset: { slip0044: 60 },
      amount: '2',
      callback: 'https://us.example/cb',
      originator: input.value.originator,
      beneficiary: input.value.beneficiary,
      vaspName: 'Us',
    }) as Json;
    const person = body.IVMS101.originator.originatorPersons[0].legalPerson;
    // IVMS101's own names: customerNumber, registrationAuthority, countryOfRegistration.
    expect(person.customerNumber).toBe('CORP-0042');
    expect(person.nationalIdentification.registrationAuthority).toBe('RA000242');
    const back = parseInquiry(parseJsonExact(stringifyWithBigInts(body), ['amount']), DTIS);
    expect(back.ok && back.value.originator).toEqual(input.value.originator);
  });
});

describe('legal persons on the pages and in the webhook', () => {
  const party: NormalisedParty = (() => {
    const input = parseTravelRuleInput(createTx({ legalPerson: legalPerson() }), 'create_tx');
    if (!input.ok) throw new Error(input.message);
    return input.value.originator;
  })();

  it('are shown with their names, identifiers and register', async () => {
    const rows = personRows(party.persons[0]!).map((r) => [
      r.label,
      r.parts.map((p) => p.text).join(' | '),
    ]);
    expect(rows).toEqual([
      ['Kind', 'Legal person (company or other entity)'],
      ['Legal name (LEGL)', 'Quillfeather Trading GmbH'],
      ['Trading name (TRAD)', 'Quillfeather'],
      [
        'National identification',
        'Registration authority identifier (RAID) | HRB 123456 | registration authority RA000242',
      ],
      ['Country of registration', 'Germany (DE)'],
      ['Address: Business (BIZZ)', 'Hafenstraße 7 | 20457 Hamburg | Germany (DE)'],
      ['Customer number', 'CORP-0042'],
    ]);
    const dashboard = String(await Party({ title: 'Originator', slug: 'o', party }));
    const view = renderViewPage({
      transactionRef: 'wd-legal-1',
      direction: 'outgoing',
      status: 'OTHER_VASP_PENDING',
      asset: 'ETH',
      network: 'eth',
      amount: '2',
      createdAt: new Date('2026-01-01T00:00:00Z'),
      fromVasp: 'Acme',
      originator: party,
      beneficiary: party,
      txHash: null,
      expiresAt: new Date('2026-01-08T00:00:00Z'),
    });
    for (const html of [dashboard, view]) {
      expect(html).toContain('<bdi>Quillfeather Trading GmbH</bdi>');
      expect(html).toContain('Trading name (TRAD)');
      expect(html).toContain('registration authority RA000242');
      expect(html).toContain('Country of registration');
      expect(html).toContain('CORP-0042');
      // No natural person's words about a company.
      expect(html).not.toContain('family name');
    }
  });

  it('keep the WAITING_ADDRESS_DATA webhook contract', () => {
    const example = structuredClone(webhookSpec('travelRule').example) as Json;
    expect(example.status).toBe('WAITING_ADDRESS_DATA');
    example.persons = [...example.persons, ...party.persons];
    expect(contractViolations('travelRule', example)).toEqual([]);
    example.persons[1].legalPerson.nationalIdentification.countryOfIssue = 'DE';
    expect(contractViolations('travelRule', example)).not.toEqual([]);
  });
});
