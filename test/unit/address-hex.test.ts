import { describe, expect, it } from 'vitest';
import { validateAddress } from '../../src/chains/address/index.js';

const VITALIK = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const VTHO = '0x0000000000000000000000000000456E65726779';
const SUI_VECTOR = '0x259ff8074ab425cbb489f236e18e08f03f1a7856bdf7c7a2877bd64f738b5015';
const APTOS_EXAMPLE = '0x14b6041b77304fe9354aba2e0b1a0ae51d816d0513332ef651a039fac90339cb';

/** The string with the character at `index` replaced by `char`. */
function withChar(text: string, index: number, char: string): string {
  if (text[index] === char) throw new Error(`${text} already has ${char} at ${index}`);
  return text.slice(0, index) + char + text.slice(index + 1);
}

describe.each(['eth', 'bsc', 'polygon', 'avalanche', 'arb', 'op'])('%s refuses', (network) => {
  it.each([
    [
      'one hex digit changed in a checksummed address',
      withChar(VITALIK, 6, '7'),
      'EIP-55 checksum mismatch',
    ],
    ['one letter with its case flipped', withChar(VITALIK, 5, 'a'), 'EIP-55 checksum mismatch'],
    ['39 hex digits', VITALIK.slice(0, 41), 'expected 0x followed by 40 hex digits'],
    ['41 hex digits', `${VITALIK}5`, 'expected 0x followed by 40 hex digits'],
    ['no 0x prefix', VITALIK.slice(2), 'expected 0x followed by 40 hex digits'],
    ['an upper-case 0X prefix', `0X${VITALIK.slice(2)}`, 'expected 0x followed by 40 hex digits'],
    ['a non-hex character', withChar(VITALIK, 10, 'g'), 'expected 0x followed by 40 hex digits'],
    ['a 32-byte Sui address', SUI_VECTOR, 'expected 0x followed by 40 hex digits'],
  ])('%s', (_case, input, reason) => {
    expect(validateAddress(network, input)).toEqual({
      ok: false,
      reason: expect.stringContaining(reason),
    });
  });
});

describe('vet refuses', () => {
  it.each([
    [
      'a checksum-breaking case flip',
      '0x9760b32c0A515F6C8c4E6B7B89AF8964DDaCB985',
      'EIP-55 checksum mismatch',
    ],
    ['39 hex digits', VTHO.slice(0, 41), 'not a VeChain address'],
    ['a non-hex character', withChar(VTHO, 30, 'G'), 'not a VeChain address'],
  ])('%s', (_case, input, reason) => {
    expect(validateAddress('vet', input)).toEqual({
      ok: false,
      reason: expect.stringContaining(reason),
    });
  });
});

describe('sui', () => {
  it.each([
    ['the short form 0x2', '0x2', 'short Sui address'],
    ['63 hex digits', SUI_VECTOR.slice(0, 65), 'short Sui address'],
    ['65 hex digits', `${SUI_VECTOR}0`, 'not a Sui address'],
    ['no 0x prefix', SUI_VECTOR.slice(2), 'not a Sui address'],
    ['a non-hex character', withChar(SUI_VECTOR, 20, 'z'), 'not a Sui address'],
    ['an EVM address', VITALIK, 'short Sui address'],
  ])('refuses %s', (_case, input, reason) => {
    expect(validateAddress('sui', input)).toEqual({
      ok: false,
      reason: expect.stringContaining(reason),
    });
  });
});

describe('apt (AIP-40)', () => {
  it('stores every special address 0x0–0xf in the LONG form', () => {
    for (let n = 0; n < 16; n++) {
      expect(validateAddress('apt', `0x${n.toString(16)}`)).toEqual({
        ok: true,
        address: `0x${n.toString(16).padStart(64, '0')}`,
      });
    }
  });

  it.each([
    ['a short non-special address', '0x10', 'only 0x0–0xf may be short'],
    [
      'an AIP-40 SHORT example of a non-special address',
      '0x43ec2cb158e3569842d537740fd53403e992b9e7349cc5d3dfaa5aff8faaef2',
      'only 0x0–0xf may be short',
    ],
    ['the LONG form without 0x', APTOS_EXAMPLE.slice(2), 'not an Aptos address'],
    ['the SHORT form without 0x', '1', 'not an Aptos address'],
    ['65 hex digits', `${APTOS_EXAMPLE}1`, 'not an Aptos address'],
    ['a non-hex character', withChar(APTOS_EXAMPLE, 12, 'x'), 'not an Aptos address'],
  ])('refuses %s', (_case, input, reason) => {
    expect(validateAddress('apt', input)).toEqual({
      ok: false,
      reason: expect.stringContaining(reason),
    });
  });
});
