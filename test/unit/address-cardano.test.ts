import { bech32 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { validateAddress } from '../../src/chains/address/index.js';

/** The string with the character at `index` replaced by `char`. */
function withChar(text: string, index: number, char: string): string {
  if (text[index] === char) throw new Error(`${text} already has ${char} at ${index}`);
  return text.slice(0, index) + char + text.slice(index + 1);
}

/** CIP-19 test vectors. */
const BASE =
  'addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x';
const STAKE = 'stake1uyehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gh6ffgw';
const ICARUS = 'Ae2tdPwUPEZFRbyhz3cpfC2CumGzNkFBN2L42rcUc2yjQpEkxDbkPodpMAi';
const DAEDALUS =
  'DdzFFzCqrhsfZHjaBunVySZBU8i9Zom7Gujham6Jz8scCcAdkDmEbD9XSdXKdBiPoa1fjgL4ksGjQXD8ZkSNHGJfT25ieA9rWNCSA5qc';

/** The bytes of a CIP-19 vector re-encoded under another HRP, or cut to another length (valid bech32 each time). */
function reencoded(address: string, prefix: string, cut?: number): string {
  const bytes = bech32
    .fromWords(bech32.decode(address as `${string}1${string}`, false).words)
    .subarray(0, cut);
  return bech32.encode(prefix, bech32.toWords(bytes), false);
}

describe('ada, Shelley', () => {
  it('takes base addresses longer than the 90-character bech32 limit', () => {
    expect(BASE.length).toBeGreaterThan(90);
    expect(validateAddress('ada', BASE)).toEqual({ ok: true, address: BASE });
  });

  it('stores an upper-case address lower-case', () => {
    expect(validateAddress('ada', STAKE.toUpperCase())).toEqual({ ok: true, address: STAKE });
  });

  it.each([
    ['one character changed', withChar(BASE, 40, 'q'), 'bech32 checksum mismatch'],
    ['a character dropped', BASE.slice(0, -1), 'bech32 checksum mismatch'],
    ['mixed case', `ADDR1${BASE.slice(5)}`, 'mixed-case bech32'],
    [
      'a mainnet header under addr_test',
      reencoded(BASE, 'addr_test'),
      'network tag does not match the addr_test prefix',
    ],
    [
      'a stake header under addr',
      reencoded(STAKE, 'addr'),
      'header type 14 is not allowed under the addr prefix',
    ],
    [
      'an enterprise header under stake (the CIP-19 example table slip)',
      'stake1vpu5vlrf4xkxv2qpwngf6cjhtw542ayty80v8dyr49rf5egfu2p0u',
      'header type 6 is not allowed under the stake prefix',
    ],
    [
      'a base address cut to one credential',
      reencoded(BASE, 'addr', 29),
      'wrong payload length for a type 0 address',
    ],
    [
      'a stake address one byte short',
      reencoded(STAKE, 'stake', 28),
      'wrong payload length for a type 14 address',
    ],
    [
      'a pointer address with its pointer cut',
      reencoded('addr1gx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer5pnz75xxcrzqf96k', 'addr', 33),
      'wrong payload length for a type 4 address',
    ],
    ['another bech32 prefix', reencoded(STAKE, 'addr_vk'), 'not a Cardano address'],
  ])('refuses %s', (_case, input, reason) => {
    expect(validateAddress('ada', input)).toEqual({
      ok: false,
      reason: expect.stringContaining(reason),
    });
  });
});

describe('ada, Byron', () => {
  it.each([ICARUS, DAEDALUS])('takes %s as typed', (address) => {
    expect(validateAddress('ada', address)).toEqual({ ok: true, address });
  });

  it.each([
    ['Icarus with one character changed', withChar(ICARUS, 40, 'z')],
    ['Icarus with its last character changed', withChar(ICARUS, ICARUS.length - 1, 'j')],
    ['Daedalus with one character changed', withChar(DAEDALUS, 60, 'x')],
    ['Daedalus with a character dropped', DAEDALUS.slice(0, -1)],
  ])('refuses %s', (_case, input) => {
    expect(validateAddress('ada', input)).toEqual({
      ok: false,
      reason: expect.stringMatching(/CRC-32 mismatch|bad CBOR envelope/),
    });
  });

  it.each([
    [
      'a Bitcoin address (base58, but no CBOR envelope)',
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      'bad CBOR envelope',
    ],
    ['a word that is neither bech32 nor base58', 'cardano_wallet', 'neither bech32'],
  ])('refuses %s', (_case, input, reason) => {
    expect(validateAddress('ada', input)).toEqual({
      ok: false,
      reason: expect.stringContaining(reason),
    });
  });
});
