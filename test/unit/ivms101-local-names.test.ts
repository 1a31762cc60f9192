import { describe, expect, it } from 'vitest';
import { Party } from '../../src/dashboard/pages/ivms101.js';
import { parseJsonExact, stringifyWithBigInts } from '../../src/json.js';
import { personRows } from '../../src/travelrule/ivms101/display.js';
import { parseTravelRuleInput } from '../../src/travelrule/ivms101/index.js';
import { DtiTable } from '../../src/travelrule/trp/assets.js';
import { buildInquiry, parseInquiry } from '../../src/travelrule/trp/messages.js';
import { contractViolations, webhookSpec } from '../helpers/webhook-contract.js';

/**
 * IVMS101's localNameIdentifier and phoneticNameIdentifier (NaturalPersonName and
 * LegalPersonName, [0..n] each): the name in local characters, often the legal one in Japan or
 * Korea, and as it is pronounced. They were dropped on the way in, from create_tx and from a
 * peer's inquiry alike (found by an outside probe); now they are checked, kept, shown and sent
 * on. The payloads are written from IVMS101's element names, the inquiry in TRP's form with
 * `name` as IVMS101's [1..n] array.
 */

type Json = any;

const DTIS = DtiTable.fromEntries([]);

function yamada(): Json {
  return {
    naturalPerson: {
      name: {
        nameIdentifier: [
          { primaryIdentifier: 'Yamada', secondaryIdentifier: 'Taro', nameIdentifierType: 'LEGL' },
        ],
        localNameIdentifier: [
          { primaryIdentifier: '山田', secondaryIdentifier: '太郎', nameIdentifierType: 'LEGL' },
        ],
        phoneticNameIdentifier: [
          {
            primaryIdentifier: 'ヤマダ',
            secondaryIdentifier: 'タロウ',
            nameIdentifierType: 'LEGL',
          },
        ],
      },
      customerIdentification: 'C-1',
    },
  };
}

function acme(): Json {
  return {
    legalPerson: {
      name: {
        nameIdentifier: [{ legalPersonName: 'Acme KK', legalPersonNameIdentifierType: 'LEGL' }],
        localNameIdentifier: [
          { legalPersonName: 'アクメ株式会社', legalPersonNameIdentifierType: 'LEGL' },
        ],
      },
      customerNumber: 'CORP-1',
    },
  };
}

function createTx(originator: Json, beneficiary: Json): Json {
  return {
    transaction_ref: 'wd-local-1',
    transaction_asset: 'ETH',
    transaction_amount: '1',
    transaction_asset_decimals: '18',
    originator: {
      persons: [originator],
      accountNumber: ['0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'],
    },
    beneficiary: {
      persons: [beneficiary],
      accountNumber: ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'],
    },
  };
}

function parsed(body: Json) {
  const result = parseTravelRuleInput(body, 'create_tx');
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

describe('local and phonetic names', () => {
  it('are kept as given, for natural and legal persons', () => {
    const value = parsed(createTx(yamada(), acme()));
    expect((value.originator.persons[0] as Json).naturalPerson.name).toEqual(
      yamada().naturalPerson.name,
    );
    expect((value.beneficiary.persons[0] as Json).legalPerson.name).toEqual(
      acme().legalPerson.name,
    );
    // None given, or an empty list: the key is left out, as for any part not given.
    const plain = yamada();
    plain.naturalPerson.name.localNameIdentifier = [];
    delete plain.naturalPerson.name.phoneticNameIdentifier;
    const name = (parsed(createTx(plain, acme())).originator.persons[0] as Json).naturalPerson.name;
    expect(Object.keys(name)).toEqual(['nameIdentifier']);
  });

  it("are checked as the name's identifiers, without needing a legal one", () => {
    const P = 'originator.persons[0].naturalPerson.name';
    const refused = (edit: (name: Json) => void) => {
      const person = yamada();
      edit(person.naturalPerson.name);
      const result = parseTravelRuleInput(createTx(person, acme()), 'create_tx');
      expect(result.ok).toBe(false);
      if (result.ok) return '';
      expect(result.message).not.toMatch(/山田|ヤマダ/);
      return result.message;
    };
    expect(refused((n) => (n.localNameIdentifier[0].nameIdentifierType = 'ZZZZ'))).toBe(
      `${P}.localNameIdentifier[0].nameIdentifierType: must be one of LEGL, ALIA, BIRT, MAID, MISC`,
    );
    expect(refused((n) => (n.phoneticNameIdentifier[0].primaryIdentifier = 'ヤ'.repeat(101)))).toBe(
      `${P}.phoneticNameIdentifier[0].primaryIdentifier: must be at most 100 characters`,
    );
    expect(
      refused(
        (n) => (n.localNameIdentifier = Array.from({ length: 11 }, () => n.localNameIdentifier[0])),
      ),
    ).toBe(`${P}.localNameIdentifier: must hold at most 10 name identifiers`);
    expect(refused((n) => (n.localNameIdentifier = { primaryIdentifier: '山田' }))).toMatch(
      new RegExp(`^${P.replace(/[.[\]]/g, '\\$&')}\\.localNameIdentifier: must be an array`),
    );
    // An alias in local characters alone is fine (no LEGL needed there).
    const alias = yamada();
    alias.naturalPerson.name.localNameIdentifier[0].nameIdentifierType = 'ALIA';
    expect(parseTravelRuleInput(createTx(alias, acme()), 'create_tx').ok).toBe(true);
  });

  it("go out in our inquiry and come in from a peer's, its name an IVMS101 array", () => {
    const value = parsed(createTx(yamada(), acme()));
    const body = buildInquiry({
      asset: { slip0044: 60 },
      amount: '1',
      callback: 'https://us.example/cb',
      originator: value.originator,
      beneficiary: value.beneficiary,
      vaspName: 'Us',
    }) as Json;
    const sent = body.IVMS101.originator.originatorPersons[0].naturalPerson.name;
    expect(sent.localNameIdentifier[0].primaryIdentifier).toBe('山田');
    expect(sent.phoneticNameIdentifier[0].secondaryIdentifier).toBe('タロウ');
    expect(
      body.IVMS101.beneficiary.beneficiaryPersons[0].legalPerson.name.localNameIdentifier[0]
        .legalPersonName,
    ).toBe('アクメ株式会社');

    // A peer writing name as [1..n] objects, the local name in a second one.
    const peer = parseJsonExact(stringifyWithBigInts(body), ['amount']) as Json;
    const natural = peer.IVMS101.originator.originatorPersons[0].naturalPerson;
    natural.name = [
      { nameIdentifier: natural.name.nameIdentifier },
      {
        nameIdentifier: [],
        localNameIdentifier: natural.name.localNameIdentifier,
        phoneticNameIdentifier: natural.name.phoneticNameIdentifier,
      },
    ];
    const back = parseInquiry(parseJsonExact(stringifyWithBigInts(peer), ['amount']), DTIS);
    expect(back.ok, JSON.stringify(back)).toBe(true);
    if (back.ok) {
      expect(back.value.originator).toEqual(value.originator);
      expect(back.value.beneficiary.persons).toEqual(value.beneficiary.persons);
    }
  });

  it('are shown to the operators, and keep the webhook contract', async () => {
    const value = parsed(createTx(yamada(), acme()));
    const rows = (person: Json) =>
      personRows(person).map((r) => [r.label, r.parts.map((p) => p.text).join(' | ')]);
    expect(rows(value.originator.persons[0]!).slice(0, 3)).toEqual([
      ['Legal name (LEGL)', 'Yamada | Taro'],
      ['Legal name (LEGL) in local characters', '山田 | 太郎'],
      ['Legal name (LEGL), phonetic', 'ヤマダ | タロウ'],
    ]);
    expect(rows(value.beneficiary.persons[0]!)).toContainEqual([
      'Legal name (LEGL) in local characters',
      'アクメ株式会社',
    ]);
    const html = String(await Party({ title: 'Originator', slug: 'o', party: value.originator }));
    expect(html).toContain('<bdi>山田</bdi>');
    expect(html).toContain('in local characters');

    const example = structuredClone(webhookSpec('travelRule').example) as Json;
    example.persons = [...value.originator.persons, ...value.beneficiary.persons];
    expect(contractViolations('travelRule', example)).toEqual([]);
  });
});
