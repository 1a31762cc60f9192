import { bech32 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { validateAddress } from '../../src/chains/address/index.js';

/** The string with the character at `index` replaced by `char`. */
function withChar(text: string, index: number, char: string): string {
  if (text[index] === char) throw new Error(`${text} already has ${char} at ${index}`);
  return text.slice(0, index) + char + text.slice(index + 1);
}

/** TON docs example and its raw form; a ton-kotlin test address that has both `_` and `-`. */
const TON_DOCS = 'EQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPrHF';
const TON_DOCS_RAW = '0:ca6e321c7cce9ecedf0a8ca2492ec8592494aa5fb5ce0387dff96ef6af982a3e';
const TON_KOTLIN = 'EQAKtVj024T9MfYaJzU1xnDAkf_GGbHNu-V2mgvyjTuP6rvC';
const COSMOS = 'cosmos1depk54cuajgkzea6zpgkq36tnjwdzv4afc3d27';

describe('ton', () => {
  it('stores the base64 and base64url spellings of one account as its raw form', () => {
    expect(validateAddress('ton', TON_DOCS.replace('-', '+'))).toEqual({
      ok: true,
      address: TON_DOCS_RAW,
    });
    expect(validateAddress('ton', TON_KOTLIN.replace('_', '/').replace('-', '+'))).toEqual({
      ok: true,
      address: '0:0ab558f4db84fd31f61a273535c670c091ffc619b1cdbbe5769a0bf28d3b8fea',
    });
  });

  it.each([
    ['one character changed', withChar(TON_DOCS, 20, 'Q'), 'CRC-16 checksum mismatch'],
    ['unknown flags', withChar(TON_DOCS, 0, 'A'), 'unknown TON address flags'],
    [
      'a workchain other than 0 and -1',
      withChar(TON_DOCS, 2, 'E'),
      'TON workchain must be 0 or -1',
    ],
    ['base64 and base64url mixed', TON_KOTLIN.replace('_', '/'), 'mixes base64 and base64url'],
    ['47 characters', TON_DOCS.slice(0, 47), 'not a TON address'],
    ['raw, workchain 1', `1${TON_DOCS_RAW.slice(1)}`, 'not a TON address'],
    ['raw, 63 hex digits', TON_DOCS_RAW.slice(0, -1), 'not a TON address'],
    ['raw, no workchain', TON_DOCS_RAW.slice(2), 'not a TON address'],
  ])('refuses %s', (_case, input, reason) => {
    expect(validateAddress('ton', input)).toEqual({
      ok: false,
      reason: expect.stringContaining(reason),
    });
  });
});

describe('atom', () => {
  const bytes16 = bech32.encode('cosmos', bech32.toWords(new Uint8Array(16).fill(7)));

  it.each([
    ['one character changed', withChar(COSMOS, 20, 'q'), 'bech32 checksum mismatch'],
    ['a character dropped', COSMOS.slice(0, -1), 'bech32 checksum mismatch'],
    ['mixed case', `COSMOS${COSMOS.slice(6)}`, 'mixed-case bech32'],
    [
      'a Terra address (ENS address-encoder vector)',
      'terra1pdx498r0hrc2fj36sjhs8vuhrz9hd2cw0tmam9',
      'bech32 prefix must be cosmos',
    ],
    [
      'a Kava address (ENS address-encoder vector)',
      'kava1r4v2zdhdalfj2ydazallqvrus9fkphmglhn6u6',
      'bech32 prefix must be cosmos',
    ],
    [
      'a Bitcoin segwit address',
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      'bech32 prefix must be cosmos',
    ],
    ['16 bytes', bytes16, 'must hold 20 or 32 bytes'],
    // Not written as a Cosmos address: not called mixed-case bech32 for its upper-case letters.
    ['an EIP-55 address', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'not a Cosmos address'],
    ['a Tron address', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'not a Cosmos address'],
    ['no separator', 'cosmosdepk54cuajgkzea6zpgkq36tnjwdzv4afc3d27', 'malformed bech32'],
  ])('refuses %s', (_case, input, reason) => {
    expect(validateAddress('atom', input)).toEqual({
      ok: false,
      reason: expect.stringContaining(reason),
    });
  });
});

describe('eos', () => {
  it.each(['a', 'a12345abcdef', 'zzzzzzzzzzzz', 'eosio.ram', '1.2.3'])(
    'takes the name %s',
    (name) => {
      expect(validateAddress('eos', name)).toEqual({ ok: true, address: name });
    },
  );

  it.each([
    ['upper case', 'EOSIO', 'may hold only'],
    ['a 6', 'eosio6', 'may hold only'],
    ['a 0', 'eosio0', 'may hold only'],
    ['a hyphen', 'eos-io', 'may hold only'],
    ['14 characters', 'abcdefghijklmn', '1 to 12 characters'],
    // A 64-bit name's 13th character (a–j, 1–5) is no account's: newaccount refuses them.
    ['13 characters', 'abcdefghijklj', '1 to 12 characters'],
    ['13 characters ending in a digit', 'zzzzzzzzzzzz5', '1 to 12 characters'],
    ['a trailing dot', 'eosio.', 'must not end with .'],
  ])('refuses %s', (_case, input, reason) => {
    expect(validateAddress('eos', input)).toEqual({
      ok: false,
      reason: expect.stringContaining(reason),
    });
  });
});
