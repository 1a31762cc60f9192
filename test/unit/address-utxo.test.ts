import { utxoAddressFitsChain } from '../../src/chains/address.js';
import { describe, expect, it } from 'vitest';
import { labelSubjects, validateAddress } from '../../src/chains/address/index.js';

/** The string with the character at `index` replaced by `char`. */
function withChar(text: string, index: number, char: string): string {
  if (text[index] === char) throw new Error(`${text} already has ${char} at ${index}`);
  return text.slice(0, index) + char + text.slice(index + 1);
}

const GENESIS = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
const BIP173_P2WPKH = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const BIP350_TAPROOT = 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0';
const LTC_P2PKH = 'LaMT348PWRnrqeeWArpwQPbuanpXDZGEUz';
const LTC_BECH32 = 'ltc1qdp7p2rpx4a2f80h7a4crvppczgg4egmv5c78w8';
const DOGE_P2PKH = 'DBXu2kgc3xtvCUWFcxFE3r9hEYgmuaaCyD';

describe('bitcoin refuses the BIP-350 invalid segwit vectors', () => {
  it.each([
    [
      'tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut',
      'bech32 prefix is not one of bitcoin',
    ],
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', 'must use bech32m'],
    ['tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf', 'must use bech32m'],
    ['BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL', 'must use bech32m'],
    ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', 'version 0 must use bech32'],
    ['tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47', 'version 0 must use bech32'],
    ['bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4', 'malformed bech32'],
    ['BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R', 'invalid witness version'],
    ['bc1pw5dgrnzv', '2 to 40 bytes'],
    [
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav',
      '2 to 40 bytes',
    ],
    ['BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', 'version 0 program must be 20 or 32 bytes'],
    ['tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq', 'mixed-case bech32'],
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf', 'padding'],
    ['tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j', 'padding'],
    ['bc1gmk9yu', 'invalid witness version'],
  ])('%s', (input, reason) => {
    expect(validateAddress('bitcoin', input)).toEqual({
      ok: false,
      reason: expect.stringContaining(reason),
    });
  });

  it('and the v1 address BIP-173 listed before BIP-350 changed its checksum', () => {
    const old = 'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx';
    expect(validateAddress('bitcoin', old)).toEqual({
      ok: false,
      reason: expect.stringContaining('must use bech32m'),
    });
  });
});

describe.each([
  ['bitcoin', [GENESIS, BIP173_P2WPKH, BIP350_TAPROOT]],
  ['litecoin', [LTC_P2PKH, LTC_BECH32]],
  ['doge', [DOGE_P2PKH, 'nhRsrUaxZou6sewjqaS37cJrMRJRgwVXdk']],
])('%s refuses corrupted copies of valid addresses', (network, addresses) => {
  it.each(addresses)('%s with one character changed', (address) => {
    const index = Math.floor(address.length / 2);
    const swapped = withChar(address, index, address[index] === 'q' ? 'p' : 'q');
    expect(validateAddress(network, swapped)).toEqual({
      ok: false,
      reason: expect.stringMatching(/checksum|malformed/),
    });
  });

  it.each(addresses)('%s with a character dropped or added', (address) => {
    expect(validateAddress(network, address.slice(0, -1))).toMatchObject({ ok: false });
    expect(validateAddress(network, `${address}z`)).toMatchObject({ ok: false });
  });
});

describe("each UTXO network refuses the others' addresses", () => {
  it.each([
    ['bitcoin', LTC_P2PKH, 'version byte 0x30 is not a bitcoin address version'],
    ['bitcoin', LTC_BECH32, "bech32 prefix is not one of bitcoin's"],
    ['bitcoin', DOGE_P2PKH, 'version byte 0x1e is not a bitcoin address version'],
    ['litecoin', GENESIS, 'version byte 0x00 is not a litecoin address version'],
    ['litecoin', BIP173_P2WPKH, "bech32 prefix is not one of litecoin's"],
    [
      'litecoin',
      'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
      "bech32 prefix is not one of litecoin's",
    ],
    ['doge', GENESIS, 'version byte 0x00 is not a doge address version'],
    ['doge', BIP173_P2WPKH, 'none: no segwit'],
    ['doge', LTC_P2PKH, 'version byte 0x30 is not a doge address version'],
    [
      'doge',
      'QXaUgLHkZcbJb2j5XgMYzY8cF9YM48Y81Z',
      'version byte 0x3a is not a doge address version',
    ],
  ])('%s refuses %s', (network, input, reason) => {
    expect(validateAddress(network, input)).toEqual({
      ok: false,
      reason: expect.stringContaining(reason),
    });
  });
});

describe('base58 and bech32 form rules', () => {
  it.each([
    ['bitcoin', `${GENESIS.slice(0, 10)}0${GENESIS.slice(11)}`, 'not base58'],
    ['bitcoin', `${GENESIS.slice(0, 10)}l${GENESIS.slice(11)}`, 'not base58'],
    ['bitcoin', 'bC1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'mixed-case bech32'],
    ['litecoin', 'LTC1QDP7P2RPX4A2F80H7A4CRVPPCZGG4EGMV5C78W8', null],
    // the WIF private key of the Bitcoin wiki example: base58check, but 33 bytes of payload
    [
      'bitcoin',
      '5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ',
      'payload must be a version byte and a 20-byte hash',
    ],
    ['bitcoin', '1111111111111111111114oLvT2', null], // the all-zero hash160 P2PKH (a burn address) is valid
  ])('%s %s', (network, input, reason) => {
    const stored = input.startsWith('LTC1') ? input.toLowerCase() : input;
    const expected = reason
      ? { ok: false, reason: expect.stringContaining(reason) }
      : { ok: true, address: stored };
    expect(validateAddress(network, input)).toEqual(expected);
  });
});

describe('litecoin P2SH', () => {
  // OFAC's listed M8yFL6… (sanctioned_addresses_LTC.txt) and the legacy spelling of the same
  // script hash, version 0x05: the same OP_HASH160 <h> OP_EQUAL output to Litecoin Core.
  const LISTED = 'M8yFL6SFC6TreATegTyuSYkDfDRbisdpT3';
  const LEGACY = '32m72D2HEycRqfBkaazZcuVpLWq9k3sYdt';

  it('stores a legacy 3… address as the M… address Litecoin Core writes for its script', () => {
    expect(validateAddress('litecoin', LEGACY)).toEqual({ ok: true, address: LISTED });
    expect(validateAddress('litecoin', LISTED)).toEqual({ ok: true, address: LISTED });
    // On Bitcoin 3… is the address itself.
    expect(validateAddress('bitcoin', LEGACY)).toEqual({ ok: true, address: LEGACY });
  });

  it('looks labels up under both spellings (a label imported before 3… was respelt is under 3…)', () => {
    expect(labelSubjects('litecoin', LISTED)).toEqual([LISTED, LEGACY]);
    expect(labelSubjects('bitcoin', LEGACY)).toEqual([LEGACY]);
    expect(labelSubjects('litecoin', 'ltc1qdp7p2rpx4a2f80h7a4crvppczgg4egmv5c78w8')).toHaveLength(
      1,
    );
  });

  it("stores a test network's legacy 2… address as its Q… address (regtest's litecoind writes Q…)", () => {
    const legacy = validateAddress('litecoin', '2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc');
    expect(legacy).toMatchObject({ ok: true, address: expect.stringMatching(/^Q/) });
    const again = validateAddress('litecoin', (legacy as { address: string }).address);
    expect(again).toEqual(legacy);
  });
});

describe('utxoAddressFitsChain (the chain a network node runs)', () => {
  const TB = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx'; // BIP173
  const BCRT = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080'; // the same program, regtest
  const TLTC = 'tltc1qh50sy0823vxn4l9zk2820w4fuj0q4fgv48ma6c';
  it('takes mainnet forms on main only, and tells testnet bech32 from regtest bech32', () => {
    const fits = (network: string, address: string) =>
      ['main', 'test', 'signet', 'regtest'].map((c) => utxoAddressFitsChain(network, address, c));
    expect(fits('bitcoin', BIP173_P2WPKH)).toEqual([true, false, false, false]);
    expect(fits('bitcoin', TB)).toEqual([false, true, true, false]);
    expect(fits('bitcoin', BCRT)).toEqual([false, false, false, true]);
    expect(fits('litecoin', LTC_BECH32)).toEqual([true, false, false, false]);
    expect(fits('litecoin', TLTC)).toEqual([false, true, true, false]);
    // A base58 test form is one on every test chain (its version does not say which).
    expect(fits('bitcoin', 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn')).toEqual([
      false,
      true,
      true,
      true,
    ]);
  });

  it('says nothing of a chain it does not know, or of an address the rules refuse', () => {
    expect(utxoAddressFitsChain('bitcoin', TB, 'liquidv1')).toBeUndefined();
    expect(utxoAddressFitsChain('bitcoin', 'not-an-address', 'main')).toBeUndefined();
    expect(utxoAddressFitsChain('eth', TB, 'main')).toBeUndefined();
  });
});
