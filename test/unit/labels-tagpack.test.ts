import { describe, expect, it } from 'vitest';
import { LabelFileError } from '../../src/aml/labels/csv-labels.js';
import { inferLabelFormat } from '../../src/aml/labels/load.js';
import { categoryOfConcept, tagpackNetworkRule } from '../../src/aml/labels/tagpack-codes.js';
import { parseTagPack } from '../../src/aml/labels/tagpack.js';

const ETH_CHECKSUMMED = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const ETH_BAD_CHECKSUM = '0x70997970C51812dc3A010C7d01b50e0d17dc79c8';
const TRON = 'TBHTJqAy4DhHhmT3dNceJYNRz4SdLofLre';
const BTC = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
const LTC = 'LNf2JDiuunBz7GMDKFYHN4rq5meXWxiwfb';
const ZEC = 't1MMXtBrSp1XG38Lx9cePcNUCJj5vdWfUWL';

/** A TagPack from lines, so each test reads like the file it parses (line numbers as in the array, from 1). */
const pack = (...lines: string[]) => lines.join('\n') + '\n';

describe('TagPack file names', () => {
  it('infers the format from .yaml and .yml', () => {
    expect(inferLabelFormat('/x/ransomware.yaml')).toBe('tagpack');
    expect(inferLabelFormat('/x/PACK.YML')).toBe('tagpack');
    expect(inferLabelFormat('/x/notes.yaml.txt')).toBeNull();
  });
});

describe('TagPack codes', () => {
  it('maps abuse and service concepts to AML categories, spelled either way', () => {
    expect(categoryOfConcept('mixing_service')).toBe('mixer');
    expect(categoryOfConcept('Mixing Service')).toBe('mixer');
    expect(categoryOfConcept('sanction')).toBe('sanctioned');
    expect(categoryOfConcept('ransomware')).toBe('cybercrime');
    expect(categoryOfConcept('hacker')).toBe('cybercrime');
    expect(categoryOfConcept('service_hack')).toBe('stealing_attack');
    expect(categoryOfConcept('phishing')).toBe('phishing_activities');
    expect(categoryOfConcept('scam')).toBe('financial_crime');
    expect(categoryOfConcept('ponzi-scheme')).toBe('financial_crime');
    expect(categoryOfConcept('money_laundering')).toBe('money_laundering');
    expect(categoryOfConcept('sextortion')).toBe('blackmail_activities');
    expect(categoryOfConcept('market')).toBe('darkweb_transactions');
    expect(categoryOfConcept('gambling')).toBe('gambling_accounts');
    expect(categoryOfConcept('phishing_activities')).toBe('phishing_activities');
  });

  it('gives entities such as exchanges no category, and no category to an unknown word', () => {
    for (const concept of ['exchange', 'miner', 'wallet_service', 'defi_dex', 'perpetrator'])
      expect(categoryOfConcept(concept), concept).toBeNull();
    expect(categoryOfConcept('toString')).toBeNull();
    expect(categoryOfConcept('__proto__')).toBeNull();
  });

  it('maps network codes to networks, EVM ones family-wide, and skips chains Tollgate lacks', () => {
    expect(tagpackNetworkRule('BTC')).toEqual({ targets: ['bitcoin'] });
    expect(tagpackNetworkRule('XBT')).toEqual({ targets: ['bitcoin'] });
    expect(tagpackNetworkRule('ltc')).toEqual({ targets: ['litecoin'] });
    expect(tagpackNetworkRule('DOGE')).toEqual({ targets: ['doge'] });
    expect(tagpackNetworkRule('SOL')).toEqual({ targets: ['solana'] });
    expect(tagpackNetworkRule('ALGO')).toEqual({ targets: ['algo'] });
    expect(tagpackNetworkRule('EOS')).toEqual({ targets: ['eos'] });
    for (const code of ['ETH', 'eth', 'BSC', 'ARB', 'OP', 'MATIC', 'POL', 'AVAX'])
      expect(tagpackNetworkRule(code), code).toEqual({ targets: ['evm'] });
    expect(tagpackNetworkRule('TRX')).toEqual({ targets: ['trx'] });
    expect(tagpackNetworkRule('XRP')).toEqual({ targets: ['xrp'] });
    expect(tagpackNetworkRule('EOSIO')).toEqual({ targets: ['eos'] });
    expect(tagpackNetworkRule('ZEC')).toEqual({ skip: 'ZEC (Zcash) has no network in Tollgate' });
    expect(tagpackNetworkRule('BCH')).toEqual({
      skip: 'BCH (Bitcoin Cash) has no network in Tollgate',
    });
    expect(tagpackNetworkRule('KCC')).toEqual({ skip: expect.stringContaining('KCC') });
    expect(tagpackNetworkRule('FOO')).toEqual({
      skip: 'FOO is not an asset of any network in Tollgate',
    });
  });
});

describe('parseTagPack', () => {
  it('applies the header defaults to every tag, and lets a tag override them', () => {
    const parsed = parseTagPack(
      pack(
        'title: Ransomware payments',
        'creator: Test Desk',
        'description: addresses paid by victims',
        'is_public: true',
        'currency: BTC',
        'label: SomeLocker',
        'source: https://example.org/report',
        'category: ransomware',
        'confidence: forensic',
        'lastmod: 2024-03-01',
        'tags:',
        `  - address: ${BTC}`,
        `  - address: ${ETH_CHECKSUMMED}`,
        '    currency: ETH',
        '    label: Tumbler',
        '    category: mixing_service',
        '    source: https://example.org/mixer',
        `  - address: ${TRON}`,
        '    network: TRX',
        '    currency: USDT',
      ),
      'graphsense',
    );
    expect(parsed).toEqual({
      rows: [
        {
          network: 'bitcoin',
          address: BTC,
          category: 'cybercrime',
          source: 'graphsense',
          name: 'SomeLocker (https://example.org/report)',
          list: null,
        },
        {
          network: 'evm',
          address: ETH_CHECKSUMMED.toLowerCase(),
          category: 'mixer',
          source: 'graphsense',
          name: 'Tumbler (https://example.org/mixer)',
          list: null,
        },
        {
          network: 'trx',
          address: TRON,
          category: 'cybercrime',
          source: 'graphsense',
          name: 'SomeLocker (https://example.org/report)',
          list: null,
        },
      ],
      read: 3,
      duplicates: 0,
      refused: [],
      skipped: [],
    });
  });

  it('reads the fields of a header: mapping as header fields', () => {
    const parsed = parseTagPack(
      pack(
        'header:',
        '  title: x',
        '  creator: y',
        '  currency: LTC',
        '  source: https://example.org',
        '  abuse: scam',
        'tags:',
        `- address: ${LTC}`,
        '  label: Fake giveaway',
      ),
      'desk',
    );
    expect(parsed.rows).toEqual([
      expect.objectContaining({
        network: 'litecoin',
        category: 'financial_crime',
        source: 'desk',
        name: 'Fake giveaway (https://example.org)',
      }),
    ]);
  });

  it('gives one label per AML category of its category, abuse and concepts', () => {
    const parsed = parseTagPack(
      pack(
        'title: x',
        'creator: y',
        'source: https://example.org',
        'network: ETH',
        'tags:',
        `- address: ${ETH_CHECKSUMMED}`,
        '  label: Laundering hacker',
        '  category: perpetrator',
        '  abuse: service_hack',
        '  concepts: [money_laundering, organization, hacker]',
      ),
      'graphsense',
    );
    expect(parsed.rows.map((r) => r.category)).toEqual([
      'stealing_attack',
      'money_laundering',
      'cybercrime',
    ]);
    expect(parsed.duplicates).toBe(0);
  });

  it('skips a tag without an AML category, for a chain Tollgate lacks, or of a transaction, with the reason', () => {
    const parsed = parseTagPack(
      pack(
        'title: x',
        'creator: y',
        'source: https://example.org',
        'currency: BTC',
        'tags:',
        `- address: ${BTC}`,
        '  label: Some exchange',
        '  category: exchange',
        `- address: ${BTC}`,
        '  label: Just a name',
        `- address: ${ZEC}`,
        '  label: Zcash scam',
        '  currency: ZEC',
        '  abuse: scam',
        '- tx_hash: ab12',
        '  label: A ransom payment',
        '  abuse: ransomware',
      ),
      'graphsense',
    );
    expect(parsed.rows).toEqual([]);
    expect(parsed.read).toBe(4);
    expect(parsed.skipped).toEqual([
      { line: 6, reason: 'category exchange: not an AML risk category of Tollgate' },
      { line: 9, reason: 'no category, abuse or concepts: nothing to flag it for' },
      { line: 11, reason: 'ZEC (Zcash) has no network in Tollgate' },
      { line: 15, reason: 'a transaction tag (tx_hash): Tollgate labels addresses' },
    ]);
  });

  it('refuses a tag with a bad address or a missing field, naming the line it starts on, and keeps the others', () => {
    const parsed = parseTagPack(
      pack(
        'title: x',
        'creator: y',
        'category: scam',
        'currency: ETH',
        'tags:',
        `- address: ${ETH_BAD_CHECKSUM}`,
        '  label: Bad checksum',
        '  source: https://example.org/1',
        '- label: No address',
        '  source: https://example.org/2',
        `- address: ${TRON}`,
        '  label: Tron address on ETH',
        '  source: https://example.org/3',
        `- address: ${BTC}`,
        '  currency: BTC',
        '  label: No source',
        `- address: ${BTC}`,
        '  label: [a, list]',
        '  source: https://example.org/4',
        '  currency: BTC',
        '- just a line of text',
        `- address: ${ETH_CHECKSUMMED}`,
        '  label: Good one',
        '  source: https://example.org/5',
      ),
      'graphsense',
    );
    expect(parsed.read).toBe(7);
    expect(parsed.refused).toEqual([
      { line: 6, reason: expect.stringMatching(/not a valid evm address: .*checksum/) },
      { line: 9, reason: 'address is missing' },
      {
        line: 11,
        reason: expect.stringContaining(
          'it is a valid trx address, which network ETH does not cover',
        ),
      },
      { line: 14, reason: 'source is missing (in the tag or the header)' },
      { line: 17, reason: 'label must be text, not a list or a mapping' },
      { line: 21, reason: expect.stringContaining('a tag must be a mapping') },
    ]);
    expect(parsed.rows).toEqual([
      expect.objectContaining({
        address: ETH_CHECKSUMMED.toLowerCase(),
        name: 'Good one (https://example.org/5)',
      }),
    ]);
  });

  it('counts a tag that repeats an earlier one as a duplicate, keeping the first', () => {
    const parsed = parseTagPack(
      pack(
        'title: x',
        'creator: y',
        'currency: ETH',
        'category: phishing',
        'source: https://example.org',
        'tags:',
        `- address: ${ETH_CHECKSUMMED}`,
        '  label: Fake airdrop',
        `- address: '${ETH_CHECKSUMMED.toLowerCase()}'`,
        '  label: Same address, other label',
        `- address: ${ETH_CHECKSUMMED}`,
        '  label: Fake airdrop',
        '  currency: BSC',
      ),
      'graphsense',
    );
    expect(parsed.read).toBe(3);
    expect(parsed.duplicates).toBe(2);
    expect(parsed.rows).toEqual([
      expect.objectContaining({ name: 'Fake airdrop (https://example.org)' }),
    ]);
  });

  it('reads an unquoted 0x address and other scalars as text, not as numbers', () => {
    const parsed = parseTagPack(
      pack(
        'title: x',
        'creator: y',
        'tags:',
        '- address: 0x000000000000000000000000000000000000dead',
        '  label: 1234',
        '  source: 2024-01-01',
        '  network: eth',
        '  category: Mixing Service',
      ),
      'graphsense',
    );
    expect(parsed.rows).toEqual([
      {
        network: 'evm',
        address: '0x000000000000000000000000000000000000dead',
        category: 'mixer',
        source: 'graphsense',
        name: '1234 (2024-01-01)',
        list: null,
      },
    ]);
  });

  it('refuses a file that is not valid YAML, naming the line, or that is not a TagPack', () => {
    expect(() =>
      parseTagPack(pack('title: x', 'tags:', `  - address: ${BTC}`, '  label: [open'), 'g'),
    ).toThrow(LabelFileError);
    expect(() =>
      parseTagPack(pack('title: x', 'tags:', `  - address: ${BTC}`, '    label: "open'), 'g'),
    ).toThrow(/not valid YAML: line \d+, column \d+: Missing closing "quote/);
    expect(() => parseTagPack(pack('title: x', 'tags: []', '---', 'title: y'), 'g')).toThrow(
      'not valid YAML: line 3, column 1: a TagPack is one YAML document',
    );
    expect(() => parseTagPack(pack('title: x', 'title: y', 'tags: []'), 'g')).toThrow(
      /line 2.*unique/,
    );
    expect(() => parseTagPack(pack('title: x', 'creator: y'), 'g')).toThrow(
      'not a TagPack: it has no tags list',
    );
    expect(() => parseTagPack(pack('title: x', 'tags: some text'), 'g')).toThrow(
      'tags must be a list',
    );
    expect(() => parseTagPack(pack('- a', '- b'), 'g')).toThrow('expected a YAML mapping');
    expect(() => parseTagPack('', 'g')).toThrow('expected a YAML mapping');
    expect(() => parseTagPack(pack('header: !include header.yaml', 'tags: []'), 'g')).toThrow(
      /header must be a mapping/,
    );
  });

  it('reads an empty tags list as nothing', () => {
    expect(parseTagPack(pack('title: x', 'creator: y', 'tags:'), 'g')).toEqual({
      rows: [],
      read: 0,
      duplicates: 0,
      refused: [],
      skipped: [],
    });
    expect(parseTagPack(pack('title: x', 'tags: []'), 'g').read).toBe(0);
  });
});
