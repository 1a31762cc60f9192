import { describe, expect, it } from 'vitest';
import { inferLabelFormat } from '../../src/aml/labels/load.js';
import { ofacAssetOfFile, ofacAssetRule } from '../../src/aml/labels/ofac-assets.js';
import { parseOfac } from '../../src/aml/labels/ofac.js';

const ETH_CHECKSUMMED = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TRON = 'TBHTJqAy4DhHhmT3dNceJYNRz4SdLofLre';
const BTC_P2PKH = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
const BTC_P2SH = '3E6ZCKRrsdPc35chA9Eftp1h3DLW18NFNV';

describe('OFAC file names and assets', () => {
  it('reads the asset from the file name, and infers the format', () => {
    expect(ofacAssetOfFile('sanctioned_addresses_XBT.txt')).toBe('XBT');
    expect(ofacAssetOfFile('sanctioned_addresses_xbt.txt')).toBeNull();
    expect(ofacAssetOfFile('addresses.txt')).toBeNull();
    expect(inferLabelFormat('/x/config/labels/ofac/sanctioned_addresses_USDT.txt')).toBe('ofac');
    expect(inferLabelFormat('/x/mine.CSV')).toBe('csv');
    expect(inferLabelFormat('/x/LICENSE')).toBeNull();
    expect(inferLabelFormat('/x/list.json')).toBeNull();
  });

  it('maps the assets of the spec and skips the chains Tollgate has no network for', () => {
    expect(ofacAssetRule('XBT')).toEqual({ asset: 'XBT', targets: ['bitcoin'] });
    expect(ofacAssetRule('ETH')).toEqual({ asset: 'ETH', targets: ['evm'] });
    expect(ofacAssetRule('BSC')).toEqual({ asset: 'BSC', targets: ['evm'] });
    for (const asset of ['BCH', 'BSV', 'BTG', 'DASH', 'ETC', 'XMR', 'XVG', 'ZEC']) {
      expect(ofacAssetRule(asset)).toEqual({
        asset,
        skip: expect.stringContaining('has no network in Tollgate'),
      });
    }
  });

  it('maps an asset added later by the network table, and skips one it does not know', () => {
    expect(ofacAssetRule('SOL')).toEqual({ asset: 'SOL', targets: ['solana'] });
    expect(ofacAssetRule('AVAX')).toEqual({ asset: 'AVAX', targets: ['evm'] });
    expect(ofacAssetRule('FOO')).toEqual({
      asset: 'FOO',
      skip: 'FOO is not an asset of any network in Tollgate',
    });
  });
});

describe('parseOfac', () => {
  it('stores EVM addresses family-wide and lower-case, ignoring blank lines and comments, trimming whitespace', () => {
    const parsed = parseOfac(
      `# OFAC ETH\n\n${ETH_CHECKSUMMED}\r\n  0xd882cfc20f52f2599d84b8e8d58c7fb62cfe344b  \n`,
      'ETH',
      'ofac',
    );
    expect(parsed.read).toBe(2);
    expect(parsed.rows).toEqual([
      {
        network: 'evm',
        address: ETH_CHECKSUMMED.toLowerCase(),
        category: 'sanctioned',
        source: 'ofac',
        name: 'OFAC SDN (ETH)',
        list: 'ETH',
      },
      {
        network: 'evm',
        address: '0xd882cfc20f52f2599d84b8e8d58c7fb62cfe344b',
        category: 'sanctioned',
        source: 'ofac',
        name: 'OFAC SDN (ETH)',
        list: 'ETH',
      },
    ]);
    expect(parsed.refused).toEqual([]);
  });

  it('refuses a bad line with its line number and a reason, and goes on', () => {
    const bad = ETH_CHECKSUMMED.slice(0, -1) + 'c'; // breaks the EIP-55 checksum
    const parsed = parseOfac(`${bad}\nnot-an-address\n${ETH_CHECKSUMMED}\n`, 'ETH', 'ofac');
    expect(parsed.rows).toHaveLength(1);
    expect(parsed.refused).toEqual([
      { line: 1, reason: expect.stringContaining('EIP-55 checksum mismatch') },
      { line: 2, reason: expect.stringContaining('not a valid evm address') },
    ]);
  });

  it('refuses an address of another chain in a list, naming where it is valid', () => {
    const parsed = parseOfac(`${BTC_P2PKH}\n${TRON}\n`, 'XBT', 'ofac');
    expect(parsed.rows.map((r) => r.network)).toEqual(['bitcoin']);
    expect(parsed.refused).toEqual([
      {
        line: 2,
        reason: expect.stringMatching(
          /not a valid bitcoin address.*valid trx address, which the XBT list does not cover/,
        ),
      },
    ]);
  });

  it('places each USDT address on the network its format belongs to (Ethereum, Omni on bitcoin, TRC-20 on trx)', () => {
    const parsed = parseOfac(`${ETH_CHECKSUMMED}\n${BTC_P2SH}\n${TRON}\n`, 'USDT', 'ofac');
    expect(parsed.rows.map((r) => [r.network, r.address])).toEqual([
      ['evm', ETH_CHECKSUMMED.toLowerCase()],
      ['bitcoin', BTC_P2SH],
      ['trx', TRON],
    ]);
    expect(parsed.refused).toEqual([]);
  });

  it('skips every address of a chain without a network, with the reason, even one of bitcoin form', () => {
    const parsed = parseOfac(
      `${BTC_P2PKH}\nqpf2cphc5dkuclkqur7lhj2yuqq9pk3hmukle77vhq\n`,
      'BCH',
      'ofac',
    );
    expect(parsed.rows).toEqual([]);
    expect(parsed.read).toBe(2);
    expect(parsed.skipped).toEqual([
      { line: 1, reason: 'BCH (Bitcoin Cash) has no network in Tollgate' },
      { line: 2, reason: 'BCH (Bitcoin Cash) has no network in Tollgate' },
    ]);
  });

  it('counts a repeated address (in any letter case) once, as a duplicate', () => {
    const parsed = parseOfac(
      `${ETH_CHECKSUMMED}\n${ETH_CHECKSUMMED.toLowerCase()}\n`,
      'ETH',
      'ofac',
    );
    expect(parsed.rows).toHaveLength(1);
    expect(parsed.duplicates).toBe(1);
  });

  it('uses the given source', () => {
    expect(parseOfac(`${TRON}\n`, 'TRX', 'ofac-mirror').rows[0]).toMatchObject({
      network: 'trx',
      source: 'ofac-mirror',
      list: 'TRX',
    });
  });
});
