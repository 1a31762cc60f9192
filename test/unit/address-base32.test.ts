import { describe, expect, it } from 'vitest';
import { labelSubjects, validateAddress } from '../../src/chains/address/index.js';

/** The string with the character at `index` replaced by `char`. */
function withChar(text: string, index: number, char: string): string {
  if (text[index] === char) throw new Error(`${text} already has ${char} at ${index}`);
  return text.slice(0, index) + char + text.slice(index + 1);
}

const SEP23_ACCOUNT = 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ';
const SEP23_MUXED = 'MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUQ';
const ALGO_DOCS = 'VCMJKWOY5P5P7SKMZFFOCEROPJCZOTIJMNIYNUCKH7LRO45JMJP6UYBIJA';

describe('stellar', () => {
  it("gives a muxed account's labels its account's too (SEP-23: payments to it credit the account)", () => {
    // SEP-23's own pair: the account and its muxed address of memo ID 0.
    expect(labelSubjects('stellar', SEP23_MUXED)).toEqual([SEP23_MUXED, SEP23_ACCOUNT]);
    // Not the other way round: one muxed address is one customer of the account's holder.
    expect(labelSubjects('stellar', SEP23_ACCOUNT)).toEqual([SEP23_ACCOUNT]);
    expect(labelSubjects('eth', '0x0000000000000000000000000000000000000001')).toEqual([
      '0x0000000000000000000000000000000000000001',
    ]);
  });

  it.each([
    'GAAAAAAAACGC6',
    'MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUR',
    'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZA',
    'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUACUSI',
    'G47QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVP2I',
    'MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVAAAAAAAAAAAAAJLKA',
    'MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVAAAAAAAAAAAAAAV75I',
    'M47QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUQ',
    'MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUK===',
    'MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUO',
    'PA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAQACAQDAQCQMBYIBEFAWDANBYHRAEISCMKBKFQXDAMRUGY4DUPB6IAAAAAAAAPM',
    'BAAD6DBUX6J22DMZOHIEZTEQ64CVCHEDRKWZONFEUL5Q26QD7R76RGR4TV',
  ])('refuses the SEP-23 invalid vector %s', (input) => {
    expect(validateAddress('stellar', input)).toMatchObject({ ok: false });
  });

  it.each([
    ['one character changed', withChar(SEP23_ACCOUNT, 20, 'B'), 'CRC-16 checksum mismatch'],
    [
      'one character changed in a muxed account',
      withChar(SEP23_MUXED, 60, 'B'),
      'CRC-16 checksum mismatch',
    ],
    ['lower case', SEP23_ACCOUNT.toLowerCase(), 'expected a G… or M… StrKey'],
    [
      'lower case after the G',
      `G${SEP23_ACCOUNT.slice(1).toLowerCase()}`,
      'expected upper-case base32',
    ],
    [
      'a set unused bit in the last character',
      'MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUR',
      'not a canonical StrKey',
    ],
    [
      'a contract (SEP-23 valid C… vector)',
      'CA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUWDA',
      'expected a G… or M… StrKey',
    ],
    ['an Algorand address', ALGO_DOCS, 'expected a G… or M… StrKey'],
  ])('refuses %s', (_case, input, reason) => {
    expect(validateAddress('stellar', input)).toEqual({
      ok: false,
      reason: expect.stringContaining(reason),
    });
  });
});

describe('algo', () => {
  it.each([
    ['one character changed', withChar(ALGO_DOCS, 10, 'A'), 'checksum mismatch'],
    [
      'the key byte order broken by a swap',
      `${ALGO_DOCS.slice(0, 4)}${ALGO_DOCS[5]}${ALGO_DOCS[4]}${ALGO_DOCS.slice(6)}`,
      'checksum mismatch',
    ],
    [
      'a set unused bit in the last character',
      withChar(ALGO_DOCS, 57, 'B'),
      'not a canonical Algorand address',
    ],
    ['lower case', ALGO_DOCS.toLowerCase(), 'expected 58 upper-case base32 characters'],
    ['57 characters', ALGO_DOCS.slice(0, 57), 'expected 58 upper-case base32 characters'],
    [
      'a Stellar account (56 characters)',
      SEP23_ACCOUNT,
      'expected 58 upper-case base32 characters',
    ],
    [
      'a 1, outside base32',
      withChar(ALGO_DOCS, 3, '1'),
      'expected 58 upper-case base32 characters',
    ],
  ])('refuses %s', (_case, input, reason) => {
    expect(validateAddress('algo', input)).toEqual({
      ok: false,
      reason: expect.stringContaining(reason),
    });
  });
});
