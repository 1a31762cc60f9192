import { describe, expect, it } from 'vitest';
import { parseTravelRuleInput, type NormalisedInput } from '../../src/travelrule/ivms101/index.js';
import { JsonNumber, parseJsonExact, stringifyWithBigInts } from '../../src/json.js';
import { DtiTable, trpAsset } from '../../src/travelrule/trp/assets.js';
import {
  buildInquiry,
  parseConfirmation,
  parseInquiry,
  parseResolution,
  trpPath,
} from '../../src/travelrule/trp/messages.js';
import type { NaturalPersonValue, PersonValue } from '../../src/travelrule/index.js';

/** The natural person of a parsed person (a legal person fails the test). */
function natural(person: PersonValue): NaturalPersonValue {
  if (!('naturalPerson' in person)) throw new Error('not a natural person');
  return person.naturalPerson;
}

const ORIGINATOR_ADDRESS = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const BENEFICIARY_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const PERSONAL = [
  'Yılmaz',
  'Ayşe',
  'Schmidt',
  'Anna',
  'U09876543',
  '1985-07-14',
  'Bağdat',
  ORIGINATOR_ADDRESS,
  BENEFICIARY_ADDRESS,
];

/** An outgoing transfer as create_tx normalises it: the input buildInquiry is given. */
function outgoing(over: Record<string, unknown> = {}): NormalisedInput {
  const result = parseTravelRuleInput(
    {
      transaction_ref: 'wd-1',
      transaction_asset: 'ETH',
      transaction_amount: '1.25',
      transaction_asset_decimals: '18',
      originator: {
        persons: [
          {
            naturalPerson: {
              name: {
                nameIdentifier: [
                  {
                    primaryIdentifier: 'Yılmaz',
                    secondaryIdentifier: 'Ayşe',
                    nameIdentifierType: 'LEGL',
                  },
                ],
              },
              dateAndPlaceOfBirth: { dateOfBirth: '1985-07-14', placeOfBirth: 'Lyon' },
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
                  townName: 'Kadikoy',
                  country: 'TR',
                },
              ],
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
            },
          },
        ],
        accountNumber: [BENEFICIARY_ADDRESS],
      },
      ...over,
    },
    'create_tx',
  );
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

function inquiryFor(tx: NormalisedInput): Record<string, any> {
  return buildInquiry({
    asset: trpAsset(
      { network: tx.transaction_network, asset: tx.transaction_asset },
      DTIS,
      'number',
    ),
    amount: tx.transaction_amount,
    callback: 'https://vasp-a.example/trp/v3/resolutions/tok_abcdefghijklmnop',
    originator: tx.originator,
    beneficiary: tx.beneficiary,
    vaspName: 'Alpha Exchange GmbH',
    vaspCountry: 'DE',
  });
}

/** The shipped DTI table and one token of an operator's own. */
const DTIS = DtiTable.fromEntries([
  ...['4H95J0R2X', 'X9J9K872S'].map((dti) => DtiTable.load().byDti(dti)!),
  { dti: 'W3QWP2CDQ', network: 'polygon', asset: 'USDT', decimals: 6 },
]);

/** What a peer's JSON text reads as at our endpoint (numbers under amount exactly). */
const wire = (body: Record<string, any>) =>
  parseJsonExact(stringifyWithBigInts(body), ['amount']) as Record<string, any>;

/** A copy of `body` with `edit` applied. */
function edited(
  body: Record<string, any>,
  edit: (b: Record<string, any>) => void,
): Record<string, any> {
  const copy = wire(body);
  edit(copy);
  return copy;
}

function refusal(body: unknown): string {
  const result = parseInquiry(body, DTIS);
  expect(result.ok).toBe(false);
  const message = (result as { message: string }).message;
  for (const value of PERSONAL) expect(message).not.toContain(value);
  return message;
}

describe('buildInquiry / parseInquiry', () => {
  it('sends only what TRP defines: a native coin by slip0044, the amount as a number in whole units', () => {
    const tx = outgoing();
    const body = inquiryFor(tx);
    expect(Object.keys(body)).toEqual(['asset', 'amount', 'callback', 'IVMS101']);
    expect(body.asset).toEqual({ slip0044: 60 });
    expect(stringifyWithBigInts(body)).toContain('"amount":1.25,');
    expect(body.IVMS101.originator.originatorPersons).toEqual(tx.originator.persons);
    expect(body.IVMS101.beneficiary.beneficiaryPersons).toEqual(tx.beneficiary.persons);
    expect(body.IVMS101.originatingVASP.originatingVASP.legalPerson).toEqual({
      name: {
        nameIdentifier: [
          { legalPersonName: 'Alpha Exchange GmbH', legalPersonNameIdentifierType: 'LEGL' },
        ],
      },
      countryOfRegistration: 'DE',
    });
    const parsed = parseInquiry(wire(body), DTIS);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value).toEqual({
      asset: 'ETH',
      network: 'eth',
      decimals: 18,
      amount: '1.25',
      amountBaseUnits: '1250000000000000000',
      callback: 'https://vasp-a.example/trp/v3/resolutions/tok_abcdefghijklmnop',
      originator: JSON.parse(JSON.stringify(tx.originator)),
      beneficiary: JSON.parse(JSON.stringify(tx.beneficiary)),
      network_resolved: 'eth',
      originatingVaspName: 'Alpha Exchange GmbH',
      originatingVaspLei: undefined,
      transliterationMethods: undefined,
    });
    // The coin symbol instead of the number, for a peer that reads only that (TRISA).
    expect(trpAsset({ network: 'eth', asset: 'ETH' }, DTIS, 'symbol')).toEqual({ slip0044: 'ETH' });
    // Coin type 0 reads as "no coin" to such a peer: Bitcoin goes by its DTI there.
    expect(trpAsset({ network: 'bitcoin', asset: 'BTC' }, DTIS, 'symbol')).toEqual({
      dti: '4H95J0R2X',
    });
    expect(trpAsset({ network: 'bitcoin', asset: 'BTC' }, DTIS, 'number')).toEqual({
      slip0044: 0,
    });
  });

  it('writes and reads an 18-decimal amount exactly, never through a float', () => {
    const tx = outgoing({ transaction_amount: '1.000000000000000001' });
    const text = stringifyWithBigInts(inquiryFor(tx));
    expect(text).toContain('"amount":1.000000000000000001,');
    const parsed = parseInquiry(parseJsonExact(text, ['amount']), DTIS);
    expect(parsed.ok && parsed.value).toMatchObject({
      amount: '1.000000000000000001',
      amountBaseUnits: '1000000000000000001',
    });
  });

  it('names a token, or ETH on a layer 2, by its DTI, and refuses to send what has none', () => {
    const usdt = outgoing({
      transaction_asset: 'USDT',
      transaction_amount: '10.5',
      transaction_asset_decimals: '6',
      transaction_network: 'polygon',
    });
    const body = inquiryFor(usdt);
    expect(body.asset).toEqual({ dti: 'W3QWP2CDQ' });
    const parsed = parseInquiry(wire(body), DTIS);
    expect(parsed.ok && parsed.value).toMatchObject({
      asset: 'USDT',
      network: 'polygon',
      decimals: 6,
      amount: '10.5',
      network_resolved: 'polygon',
    });
    expect(() => inquiryFor(outgoing({ transaction_network: 'arb' }))).toThrow(
      /TRP has no name for ETH on arb: add its DTI/,
    );
  });

  it('reads the amount and the asset as independent peers write them', () => {
    const body = inquiryFor(outgoing());
    const read = (edit: (b: Record<string, any>) => void) => {
      const r = parseInquiry(edited(body, edit), DTIS);
      if (!r.ok) throw new Error(r.message);
      return r.value;
    };
    // Whole units as a JSON number: 2 is two ETH, 1.25 and 1250000000000000000 as written.
    expect(read((b) => (b.amount = new JsonNumber('2')))).toMatchObject({
      amount: '2',
      amountBaseUnits: '2000000000000000000',
    });
    expect(read((b) => (b.amount = new JsonNumber('1250000000000000000'))).amount).toBe(
      '1250000000000000000',
    );
    expect(read((b) => (b.amount = new JsonNumber('2.1E-5'))).amount).toBe('0.000021');
    expect(read((b) => (b.amount = new JsonNumber('0.000021'))).amount).toBe('0.000021');
    // slip0044 as the number (the spec), the symbol or the name (TRISA), and by DTI.
    for (const asset of [
      { slip0044: 60 },
      { slip0044: 'ETH' },
      { slip0044: 'eth' },
      { dti: 'X9J9K872S' },
    ])
      expect(read((b) => (b.asset = asset))).toMatchObject({
        asset: 'ETH',
        network: 'eth',
        decimals: 18,
      });
    expect(
      read((b) => {
        b.asset = { slip0044: 'BTC' };
        b.IVMS101.originator.accountNumber = ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'];
        b.IVMS101.beneficiary.accountNumber = ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'];
      }),
    ).toMatchObject({ asset: 'BTC', network: 'bitcoin', decimals: 8 });
    // IVMS101's Originator.accountNumber is 0..n: a sender paying from a pooled wallet names
    // none (TRISA's reference inquiry has none); refused before.
    for (const none of [undefined, null, []])
      expect(
        read((b) => {
          b.IVMS101.originator.accountNumber = none;
          if (none === undefined) delete b.IVMS101.originator.accountNumber;
        }).originator.accountNumber,
      ).toEqual([]);
    // slip0044 or network beside a DTI naming the same asset.
    for (const asset of [
      { slip0044: 60, dti: 'X9J9K872S' },
      { slip0044: 'ETH', network: 'Ethereum', dti: 'x9j9k872s' },
    ])
      expect(read((b) => (b.asset = asset))).toMatchObject({
        asset: 'ETH',
        network: 'eth',
        decimals: 18,
      });
    // Keys outside the protocol are ignored.
    expect(read((b) => (b.asset = { slip0044: 60, extra: true })).asset).toBe('ETH');
    // IVMS101.2023 names the person lists in the singular.
    expect(
      read((b) => {
        b.IVMS101.originator.originatorPerson = b.IVMS101.originator.originatorPersons;
        delete b.IVMS101.originator.originatorPersons;
      }).originator.persons,
    ).toHaveLength(1);
    // The beneficiary's wallet address may be missing: the originator learns it from the approval.
    const noAddress = read((b) => delete b.IVMS101.beneficiary.accountNumber);
    expect(noAddress.beneficiary.accountNumber).toEqual([]);
    // IVMS101 NaturalPerson.name as an array of name objects.
    const nameArray = read((b) => {
      const person = b.IVMS101.beneficiary.beneficiaryPersons[0].naturalPerson;
      person.name = [person.name];
    });
    expect(
      natural(nameArray.beneficiary.persons[0]!).name.nameIdentifier[0]!.primaryIdentifier,
    ).toBe('Schmidt');
    // No originating VASP: no name.
    expect(read((b) => delete b.IVMS101.originatingVASP).originatingVaspName).toBeUndefined();
    // Its LEI, as IVMS101 writes a legal person's (LEIX); one whose check digits fail, or of
    // another type, is left out (informational: the transfer is still taken).
    const withId = (nationalIdentification: unknown) =>
      read((b) => {
        b.IVMS101.originatingVASP.originatingVASP.legalPerson.nationalIdentification =
          nationalIdentification;
      }).originatingVaspLei;
    expect(
      withId({ nationalIdentifier: ' 529900t8bm49aursdo55', nationalIdentifierType: 'LEIX' }),
    ).toBe('529900T8BM49AURSDO55');
    expect(
      withId({ nationalIdentifier: '529900T8BM49AURSDO56', nationalIdentifierType: 'LEIX' }),
    ).toBeUndefined();
    expect(
      withId({ nationalIdentifier: '529900T8BM49AURSDO55', nationalIdentifierType: 'RAID' }),
    ).toBeUndefined();
    expect(withId('529900T8BM49AURSDO55')).toBeUndefined();
    // How the names were transliterated (IVMS101 payloadMetadata): known codes, lower case, once
    // each, in order; an unknown one left out, as is a payloadMetadata of another shape.
    const transliterated = (payloadMetadata: unknown) =>
      read((b) => {
        b.IVMS101.payloadMetadata = payloadMetadata;
      }).transliterationMethods;
    expect(transliterated({ transliterationMethod: ['CYRS', 'hani', 'latn', 'cyrs'] })).toEqual([
      'cyrs',
      'hani',
    ]);
    expect(transliterated({ transliterationMethod: 'grek' })).toEqual(['grek']);
    expect(transliterated({ transliterationMethod: ['latn'] })).toBeUndefined();
    expect(transliterated(['cyrs'])).toBeUndefined();
  });

  it('refuses malformed inquiries with the path in TRP terms and no values', () => {
    const body = inquiryFor(outgoing());
    expect(refusal('not an object')).toBe('the body must be a JSON object');
    expect(
      refusal(
        edited(body, (b) => {
          delete b.asset;
        }),
      ),
    ).toBe('asset: is required');
    expect(
      refusal(
        edited(body, (b) => {
          b.asset = 'ETH';
        }),
      ),
    ).toBe('asset: must be an object');
    expect(
      refusal(
        edited(body, (b) => {
          b.asset = { dti: 'ZFP9K2W9F' };
        }),
      ),
    ).toMatch(/^asset\.dti: is not a DTI this VASP knows/);
    expect(
      refusal(
        edited(body, (b) => {
          b.asset = { dti: 'not-a-dti' };
        }),
      ),
    ).toMatch(/^asset\.dti: must be a Digital Token Identifier/);
    expect(
      refusal(
        edited(body, (b) => {
          b.asset = {};
        }),
      ),
    ).toBe('asset: must name the asset by slip0044 or dti');
    expect(
      refusal(
        edited(body, (b) => {
          b.asset = { slip0044: 99999 };
        }),
      ),
    ).toBe('asset.slip0044: is not a coin this VASP takes');
    expect(
      refusal(
        edited(body, (b) => {
          b.asset = { slip0044: 'DOGEGOLD' };
        }),
      ),
    ).toBe('asset.slip0044: is not a coin this VASP takes');
    expect(
      refusal(
        edited(body, (b) => {
          b.asset = { slip0044: 0, network: 'eth' };
        }),
      ),
    ).toBe('asset.slip0044: contradicts asset.network');
    expect(
      refusal(
        edited(body, (b) => {
          b.asset = { network: 'eth', symbol: 'USDT' };
        }),
      ),
    ).toBe('asset.decimals: required');
    expect(
      refusal(
        edited(body, (b) => {
          b.asset = { network: 'eth', decimals: 6 };
        }),
      ),
    ).toBe('asset.decimals: must be 18 for ETH on eth');
    expect(
      refusal(
        edited(body, (b) => {
          b.asset = { network: 'eth', symbol: 'US DT', decimals: 6 };
        }),
      ),
    ).toMatch(/^asset\.symbol: must be an asset symbol/);
    expect(
      refusal(
        edited(body, (b) => {
          delete b.amount;
        }),
      ),
    ).toBe('amount: is required');
    // TRP's amount is a JSON number in whole units: a string (our former base-unit form) is refused.
    for (const amount of ['1.5', '1500000000000000000', -5, -0.5])
      expect(
        refusal(
          edited(body, (b) => {
            b.amount = amount;
          }),
        ),
      ).toMatch(/^amount: must be/);
    expect(
      refusal(
        edited(body, (b) => {
          b.amount = new JsonNumber('1.0000000000000000001');
        }),
      ),
    ).toBe("amount: has more fractional digits than the asset's decimals (18)");
    // Zero, however written, is no transfer.
    for (const zero of ['0', '0.000', '-0', '-0.0', '0e5', '0E-3'])
      expect(
        refusal(
          edited(body, (b) => {
            b.amount = new JsonNumber(zero);
          }),
        ),
      ).toBe('amount: must be greater than 0');
    expect(
      refusal(
        edited(body, (b) => {
          b.amount = 0;
        }),
      ),
    ).toBe('amount: must be greater than 0');
    // Two identifiers of the asset that name different ones: neither wins.
    for (const asset of [
      { slip0044: 60, dti: '4H95J0R2X' },
      { slip0044: 0, dti: 'X9J9K872S' },
      { slip0044: 'BTC', dti: 'X9J9K872S' },
      { slip0044: 60, dti: 'W3QWP2CDQ' },
    ])
      expect(
        refusal(
          edited(body, (b) => {
            b.asset = asset;
          }),
        ),
      ).toBe('asset: asset.slip0044 and asset.dti disagree (they name different assets)');
    expect(
      refusal(
        edited(body, (b) => {
          b.asset = { network: 'bitcoin', dti: 'X9J9K872S' };
        }),
      ),
    ).toBe('asset: asset.network and asset.dti disagree (they name different networks)');
    expect(
      refusal(
        edited(body, (b) => {
          delete b.callback;
        }),
      ),
    ).toBe('callback: is required');
    expect(
      refusal(
        edited(body, (b) => {
          b.callback = 'not a url';
        }),
      ),
    ).toBe('callback: must be an http(s) URL');
    expect(
      refusal(
        edited(body, (b) => {
          b.callback = 'ftp://vasp-a.example/x';
        }),
      ),
    ).toBe('callback: must be http or https');
    // The beneficiary's wallet address may be left out (send_address supplies it); a wrong one is refused.
    expect(
      refusal(
        edited(body, (b) => {
          delete b.IVMS101;
        }),
      ),
    ).toBe('IVMS101: is required');
    expect(
      refusal(
        edited(body, (b) => {
          delete b.IVMS101.beneficiary;
        }),
      ),
    ).toBe('IVMS101.beneficiary: is required');
    expect(
      refusal(
        edited(body, (b) => {
          delete b.IVMS101.originator.originatorPersons;
        }),
      ),
    ).toBe('IVMS101.originator.originatorPersons: is required');
    expect(
      refusal(
        edited(body, (b) => {
          b.IVMS101.originator.originatorPersons = [];
        }),
      ),
    ).toBe('IVMS101.originator.originatorPersons: must hold at least one person');
    expect(
      refusal(
        edited(body, (b) => {
          b.IVMS101.beneficiary.beneficiaryPersons = [{ legalPerson: { name: {} } }];
        }),
      ),
    ).toBe(
      'IVMS101.beneficiary.beneficiaryPersons[0].legalPerson.name.nameIdentifier: is required',
    );
    expect(
      refusal(
        edited(body, (b) => {
          b.IVMS101.originator.originatorPersons[0].naturalPerson.dateAndPlaceOfBirth.dateOfBirth =
            '1985-02-30';
        }),
      ),
    ).toBe(
      'IVMS101.originator.originatorPersons[0].naturalPerson.dateAndPlaceOfBirth.dateOfBirth: must be a real calendar date',
    );
    expect(
      refusal(
        edited(body, (b) => {
          const person = b.IVMS101.originator.originatorPersons[0].naturalPerson;
          delete person.dateAndPlaceOfBirth;
          delete person.nationalIdentification;
          delete person.geographicAddress;
        }),
      ),
    ).toMatch(/^IVMS101\.originator\.originatorPersons\[0\]\.naturalPerson: needs at least one of/);
    expect(
      refusal(
        edited(body, (b) => {
          b.IVMS101.beneficiary.accountNumber = ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'];
        }),
      ),
    ).toMatch(/^IVMS101\.beneficiary\.accountNumber\[0\]: is not a valid eth wallet address/);
  });

  it('maps create_tx paths to TRP paths', () => {
    expect(trpPath('transaction_network')).toBe('asset.network');
    expect(trpPath('originator.accountNumber[2]')).toBe('IVMS101.originator.accountNumber[2]');
    expect(trpPath('beneficiary.persons[1].naturalPerson.name')).toBe(
      'IVMS101.beneficiary.beneficiaryPersons[1].naturalPerson.name',
    );
    expect(trpPath('originator')).toBe('IVMS101.originator');
  });
});

describe('parseResolution', () => {
  it('accepts exactly one of version, approved, rejected', () => {
    expect(parseResolution({ version: '3.1.0' })).toEqual({
      ok: true,
      value: { version: '3.1.0' },
    });
    expect(
      parseResolution({
        approved: {
          address: BENEFICIARY_ADDRESS,
          callback: 'https://vasp-b.example/trp/v3/confirmations/abc',
        },
      }),
    ).toEqual({
      ok: true,
      value: {
        approved: {
          address: BENEFICIARY_ADDRESS,
          callback: 'https://vasp-b.example/trp/v3/confirmations/abc',
        },
      },
    });
    expect(parseResolution({ rejected: 'sanctioned' })).toEqual({
      ok: true,
      value: { rejected: 'sanctioned' },
    });
    expect(parseResolution({ rejected: null })).toEqual({ ok: true, value: { rejected: '' } });
    // Unknown keys (extensions) are ignored.
    expect(parseResolution({ rejected: 'no', extensions: {} }).ok).toBe(true);
  });

  it('refuses anything else', () => {
    const message = (body: unknown) => (parseResolution(body) as { message: string }).message;
    expect(message({})).toBe('the body must hold exactly one of version, approved, rejected');
    expect(message({ version: '3.1.0', rejected: 'x' })).toBe(
      'the body must hold exactly one of version, approved, rejected',
    );
    expect(message([])).toBe('the body must be a JSON object');
    expect(message({ version: '' })).toMatch(/^version: /);
    expect(message({ approved: 'yes' })).toBe('approved: must be an object');
    expect(message({ approved: { address: '', callback: 'https://b.example/' } })).toBe(
      'approved.address: must be a non-empty string',
    );
    expect(
      message({ approved: { address: 'x'.repeat(201), callback: 'https://b.example/' } }),
    ).toBe('approved.address: must be at most 200 characters');
    expect(message({ approved: { address: BENEFICIARY_ADDRESS } })).toBe(
      'approved.callback: is required',
    );
    expect(
      message({ approved: { address: BENEFICIARY_ADDRESS, callback: 'javascript:alert(1)' } }),
    ).toBe('approved.callback: must be http or https');
    expect(message({ rejected: 5 })).toBe('rejected: must be a string');
    expect(message({ rejected: 'x'.repeat(1001) })).toBe(
      'rejected: must be at most 1000 characters',
    );
  });
});

describe('parseConfirmation', () => {
  it('accepts exactly one of txid, canceled', () => {
    expect(parseConfirmation({ txid: '0xabc' })).toEqual({ ok: true, value: { txid: '0xabc' } });
    expect(parseConfirmation({ canceled: 'customer withdrew' })).toEqual({
      ok: true,
      value: { canceled: 'customer withdrew' },
    });
  });

  it('refuses anything else', () => {
    const message = (body: unknown) => (parseConfirmation(body) as { message: string }).message;
    expect(message({})).toBe('the body must hold exactly one of txid, canceled');
    expect(message({ txid: '0xabc', canceled: 'x' })).toBe(
      'the body must hold exactly one of txid, canceled',
    );
    expect(message({ txid: '' })).toBe('txid: must be a string of 1 to 200 characters');
    expect(message({ txid: 'a'.repeat(201) })).toBe(
      'txid: must be a string of 1 to 200 characters',
    );
    expect(message({ txid: 12 })).toBe('txid: must be a string of 1 to 200 characters');
    expect(message({ canceled: 'x'.repeat(1001) })).toBe(
      'canceled: must be at most 1000 characters',
    );
    expect(message(null)).toBe('the body must be a JSON object');
  });
});
