import { describe, expect, it } from 'vitest';
import { LabelFileError, parseCsvLabels } from '../../src/aml/labels/csv-labels.js';

const HEADER = 'address,network,category,name,source\n';
const ETH1 = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const ETH2 = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const BTC = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';

describe('parseCsvLabels', () => {
  it('reads rows with quoted fields, family-wide evm and per-network rows, normalising addresses', () => {
    const parsed = parseCsvLabels(
      HEADER +
        `${ETH1},evm,mixer,"Mixer, Inc. ""Tumbler""",intel\n"${ETH2}",BSC,Phishing_Activities,"two\nlines",intel\n${BTC},bitcoin,darkweb_transactions,,intel\n`,
      undefined,
    );
    expect(parsed.refused).toEqual([]);
    expect(parsed.read).toBe(3);
    expect(parsed.rows).toEqual([
      {
        network: 'evm',
        address: ETH1.toLowerCase(),
        category: 'mixer',
        source: 'intel',
        name: 'Mixer, Inc. "Tumbler"',
        list: null,
      },
      {
        network: 'bsc',
        address: ETH2.toLowerCase(),
        category: 'phishing_activities',
        source: 'intel',
        name: 'two\nlines',
        list: null,
      },
      {
        network: 'bitcoin',
        address: BTC,
        category: 'darkweb_transactions',
        source: 'intel',
        name: '',
        list: null,
      },
    ]);
  });

  it('refuses bad rows with their line numbers and the reason, and keeps the good ones', () => {
    const parsed = parseCsvLabels(
      HEADER +
        [
          `${ETH1},eth,unknown_tag,x,intel`, // 2
          `${ETH1.slice(0, -1)}9,eth,mixer,x,intel`, // 3: checksum
          `${BTC},eth,mixer,x,intel`, // 4: wrong network for the address
          `${BTC},tron,mixer,x,intel`, // 5: no such network
          `${ETH1},eth,mixer,x`, // 6: a field short
          `${ETH1},eth,mixer,bad "quote",intel`, // 7: malformed CSV
          `${ETH1},,mixer,x,intel`, // 8: network missing
          `${ETH2},eth,mixer,ok,intel`, // 9: good
        ].join('\n') +
        '\n',
      undefined,
    );
    expect(parsed.rows.map((r) => r.address)).toEqual([ETH2.toLowerCase()]);
    expect(parsed.read).toBe(8);
    expect(parsed.refused).toEqual([
      { line: 2, reason: expect.stringContaining('unknown category "unknown_tag"') },
      {
        line: 3,
        reason: 'not a valid eth address: EIP-55 checksum mismatch in a mixed-case address',
      },
      { line: 4, reason: expect.stringContaining('not a valid eth address') },
      { line: 5, reason: expect.stringContaining('unknown network "tron"') },
      { line: 6, reason: 'expected 5 fields, found 4' },
      { line: 7, reason: expect.stringContaining('double quote') },
      { line: 8, reason: 'network is missing' },
    ]);
  });

  it('takes the source from --source when the column is absent or empty, and refuses a row without one', () => {
    expect(
      parseCsvLabels(`address,network,category\n${BTC},bitcoin,mixer\n`, 'desk').rows[0],
    ).toMatchObject({ source: 'desk', name: '' });
    expect(parseCsvLabels(HEADER + `${BTC},bitcoin,mixer,x,\n`, 'desk').rows[0]).toMatchObject({
      source: 'desk',
    });
    expect(parseCsvLabels(HEADER + `${BTC},bitcoin,mixer,x,\n`, undefined).refused).toEqual([
      { line: 2, reason: expect.stringContaining('source is missing') },
    ]);
  });

  it('accepts the columns in any order and case', () => {
    const parsed = parseCsvLabels(
      `Category,Source,Address,Network\nmixer,intel,${BTC},bitcoin\n`,
      undefined,
    );
    expect(parsed.rows).toEqual([
      {
        network: 'bitcoin',
        address: BTC,
        category: 'mixer',
        source: 'intel',
        name: '',
        list: null,
      },
    ]);
  });

  it('refuses the whole file for a bad header or an empty file', () => {
    expect(() => parseCsvLabels(`${BTC},bitcoin,mixer,x,intel\n`, undefined)).toThrow(
      LabelFileError,
    );
    expect(() => parseCsvLabels('address,network,name\n', undefined)).toThrow(/lacks category/);
    expect(() => parseCsvLabels('address,network,category,address\n', undefined)).toThrow(
      /appears twice/,
    );
    expect(() => parseCsvLabels('\n\n', undefined)).toThrow(/empty/);
    expect(() => parseCsvLabels('"address,network\n', undefined)).toThrow(/line 1: unterminated/);
  });

  it('counts a repeated label once', () => {
    const parsed = parseCsvLabels(
      HEADER +
        `${ETH1},evm,mixer,a,intel\n${ETH1.toLowerCase()},evm,mixer,b,intel\n${ETH1},evm,cybercrime,c,intel\n`,
      undefined,
    );
    expect(parsed.rows.map((r) => r.category)).toEqual(['mixer', 'cybercrime']);
    expect(parsed.duplicates).toBe(1);
  });
});
