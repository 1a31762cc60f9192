import { describe, expect, it } from 'vitest';
import { validateAddress } from '../../src/chains/address/index.js';

/** The string with the character at `index` replaced by `char`. */
function withChar(text: string, index: number, char: string): string {
  if (text[index] === char) throw new Error(`${text} already has ${char} at ${index}`);
  return text.slice(0, index) + char + text.slice(index + 1);
}

const USDT_TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const XRP_GENESIS = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const TZ1 = 'tz1XdRrrqrMfsFKA8iuw53xHzug9ipr6MuHq';
const ALICE_POLKADOT = '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5';

describe('trx refuses', () => {
  it.each([
    ['one character changed', withChar(USDT_TRON, 11, 'H'), 'checksum mismatch'],
    ['a character dropped', USDT_TRON.slice(0, -1), 'checksum mismatch'],
    [
      'a Bitcoin address (version 0x00)',
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      'version byte must be 0x41',
    ],
    // The hex form (41 and 40 hex digits) is taken (test/unit/address.test.ts); a short one is not.
    [
      'a hex form one byte short',
      '41a614f803b6fd780986a42c78ec9c7f77e6ded1',
      '41 followed by 40 hex',
    ],
    ['an EVM address', '0xa614f803B6FD780986A42c78Ec9c7f77e6DeD13C', 'it starts with T'],
  ])('%s', (_case, input, reason) => {
    expect(validateAddress('trx', input)).toEqual({
      ok: false,
      reason: expect.stringContaining(reason),
    });
  });
});

describe('xrp refuses', () => {
  it.each([
    ['one character changed', withChar(XRP_GENESIS, 12, 'x'), 'checksum mismatch'],
    ['a character dropped', XRP_GENESIS.slice(0, -1), 'checksum mismatch'],
    [
      'a Bitcoin address (other alphabet)',
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      'checksum mismatch',
    ],
    ['a character outside the Ripple alphabet', withChar(XRP_GENESIS, 5, '0'), 'not base58'],
  ])('%s', (_case, input, reason) => {
    expect(validateAddress('xrp', input)).toEqual({
      ok: false,
      reason: expect.stringContaining(reason),
    });
  });
});

describe('solana', () => {
  it('has no checksum: a changed character is another valid address, and is taken', () => {
    const other = withChar(TOKEN_PROGRAM, 10, 'Z');
    expect(validateAddress('solana', other)).toEqual({ ok: true, address: other });
  });

  it.each([
    ['31 bytes (a character dropped)', TOKEN_PROGRAM.slice(0, -1), 'must decode to 32 bytes'],
    ['33 bytes (a character added)', `${TOKEN_PROGRAM}A`, 'must decode to 32 bytes'],
    ['too short', '1111111111111111111111111111111', 'expected 32 to 44 base58 characters'],
    ['a 0, outside base58', withChar(TOKEN_PROGRAM, 3, '0'), 'expected 32 to 44 base58 characters'],
    [
      'an l, outside base58',
      withChar(TOKEN_PROGRAM, 3, 'l'),
      'expected 32 to 44 base58 characters',
    ],
    ['a Polkadot address (35 bytes)', ALICE_POLKADOT, 'expected 32 to 44 base58 characters'],
  ])('refuses %s', (_case, input, reason) => {
    expect(validateAddress('solana', input)).toEqual({
      ok: false,
      reason: expect.stringContaining(reason),
    });
  });
});

describe('xtz refuses', () => {
  it.each([
    ['one character changed', withChar(TZ1, 12, 'x'), 'checksum mismatch'],
    ['a character dropped', TZ1.slice(0, -1), 'checksum mismatch'],
    [
      'a Bitcoin address',
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      'expected a tz1, tz2, tz3, tz4 or KT1 prefix',
    ],
    ['a Tron address', USDT_TRON, 'expected a tz1, tz2, tz3, tz4 or KT1 prefix'],
    [
      'an ed25519 public key (edpk), not an address',
      'edpkuBknW28nW72KG6RoHtYW7p12T6GKc7nAbwYX5m8Wd9sDVC9yav',
      'expected a tz1, tz2, tz3, tz4 or KT1 prefix',
    ],
  ])('%s', (_case, input, reason) => {
    expect(validateAddress('xtz', input)).toEqual({
      ok: false,
      reason: expect.stringContaining(reason),
    });
  });
});

describe('dot', () => {
  it('stores the generic Substrate (42) spelling of an account as its Polkadot (0) spelling', () => {
    const generic = validateAddress('dot', '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY');
    expect(generic).toEqual(validateAddress('dot', ALICE_POLKADOT));
  });

  it.each([
    ['one character changed', withChar(ALICE_POLKADOT, 20, 'z'), 'SS58'],
    ['a character dropped', ALICE_POLKADOT.slice(0, -1), 'SS58'],
    [
      'a Kusama address (prefix 2)',
      'HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F',
      'neither Polkadot (0) nor generic Substrate (42)',
    ],
    [
      'a Kusama address (prefix 2)',
      'CpjsLDC1JFyrhm3ftC9Gs4QoyrkHKhZKtK7YqGTRFtTafgp',
      'neither Polkadot (0) nor generic Substrate (42)',
    ],
    ['a Solana address (32 bytes, no prefix)', TOKEN_PROGRAM, 'must hold a 32-byte account ID'],
    ['a 0, outside base58', withChar(ALICE_POLKADOT, 5, '0'), 'not SS58'],
  ])('refuses %s', (_case, input, reason) => {
    expect(validateAddress('dot', input)).toEqual({
      ok: false,
      reason: expect.stringContaining(reason),
    });
  });
});
