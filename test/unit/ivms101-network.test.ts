import { describe, expect, it } from 'vitest';
import { parseTravelRuleInput } from '../../src/travelrule/ivms101/index.js';

const EVM_A = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const EVM_B = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const BTC_BECH32 = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const BTC_LEGACY = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
const P2SH = '3Ai1JZ8pdJb2ksieUV8FsxSNVJCpoPi8W6'; // bitcoin and litecoin
const LTC_BECH32 = 'ltc1qdp7p2rpx4a2f80h7a4crvppczgg4egmv5c78w8';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const MOVE = '0x259ff8074ab425cbb489f236e18e08f03f1a7856bdf7c7a2877bd64f738b5015'; // sui and apt

const person = (primaryIdentifier: string) => ({
  naturalPerson: {
    name: { nameIdentifier: [{ primaryIdentifier, nameIdentifierType: 'LEGL' }] },
    customerIdentification: 'C-9',
  },
});

function body(
  asset: string,
  decimals: string,
  originator: string,
  beneficiary: string,
  extra: Record<string, unknown> = {},
) {
  return {
    transaction_ref: 'r-1',
    transaction_asset: asset,
    transaction_amount: '2',
    transaction_asset_decimals: decimals,
    originator: { persons: [person('Okafor')], accountNumber: [originator] },
    beneficiary: { persons: [person('Lindqvist')], accountNumber: [beneficiary] },
    ...extra,
  };
}

function networkOf(input: Record<string, unknown>): string {
  const result = parseTravelRuleInput(input, 'create_tx');
  if (!result.ok) throw new Error(result.message);
  return result.value.transaction_network;
}

function refusal(
  input: Record<string, unknown>,
  kind: 'create_tx' | 'receive_without_protocol' = 'create_tx',
) {
  const result = parseTravelRuleInput(input, kind);
  expect(result.ok).toBe(false);
  if (result.ok) throw new Error('accepted');
  return result;
}

describe('transaction_network derived from the wallet addresses (spec note 1)', () => {
  it.each([
    ['ETH', '18', 'eth'],
    ['eth', '18', 'eth'],
    ['POL', '18', 'polygon'],
    ['MATIC', '18', 'polygon'],
    ['BNB', '18', 'bsc'],
    ['BSC', '18', 'bsc'],
    ['AVAX', '18', 'avalanche'],
    ['USDT', '6', 'eth'],
    ['VET', '18', 'vet'],
  ])('an EVM address with asset %s is %s', (asset, decimals, network) => {
    expect(networkOf(body(asset, decimals, EVM_A, EVM_B))).toBe(network);
  });

  it('keeps a network the caller names (ETH on arb) and reports it was not derived', () => {
    const result = parseTravelRuleInput(
      body('ETH', '18', EVM_A, EVM_B, { transaction_network: 'arb' }),
      'create_tx',
    );
    expect(result.ok && result.value.transaction_network).toBe('arb');
    expect(result.ok && result.value.transaction_network_derived).toBe(false);
  });

  it('derives bitcoin from bech32 and legacy addresses, storing bech32 in lower case', () => {
    const result = parseTravelRuleInput(
      body('BTC', '8', BTC_BECH32.toUpperCase(), BTC_LEGACY),
      'create_tx',
    );
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (!result.ok) return;
    expect(result.value.transaction_network).toBe('bitcoin');
    expect(result.value.originator.accountNumber).toEqual([BTC_BECH32]);
    expect(result.value.transaction_amount_base_units).toBe('200000000');
  });

  it("settles a P2SH address shared by bitcoin and litecoin by the other party's address or by the asset", () => {
    expect(networkOf(body('XYZ', '8', P2SH, BTC_BECH32))).toBe('bitcoin');
    expect(networkOf(body('XYZ', '8', P2SH, LTC_BECH32))).toBe('litecoin');
    expect(networkOf(body('LTC', '8', P2SH, P2SH))).toBe('litecoin');
  });

  it('derives trx from a Tron address, whatever the token', () => {
    expect(networkOf(body('USDT', '6', TRON, TRON))).toBe('trx');
    // Bridged: a token under another chain's symbol.
    expect(networkOf(body('ETH', '18', TRON, TRON))).toBe('trx');
  });

  it("refuses another chain's coin on a Bitcoin-family chain, derived or named", () => {
    for (const [asset, address, native, on] of [
      ['BTC', LTC_BECH32, 'bitcoin', 'litecoin'],
      ['LTC', BTC_BECH32, 'litecoin', 'bitcoin'],
      ['ETH', BTC_LEGACY, 'eth', 'bitcoin'],
    ] as const) {
      // Derived from the addresses, or named.
      for (const named of [{}, { transaction_network: on }]) {
        const result = refusal(body(asset, '8', address, address, named));
        expect(result.path).toBe('transaction_asset');
        expect(result.message).toContain(
          `is native to ${native}, but the transaction is on ${on}, which carries no other chain's coin`,
        );
        expect(result.message).not.toContain(address);
      }
    }
    // Their own coin, and a token of no chain's (Omni's USDT on bitcoin), are taken.
    expect(networkOf(body('LTC', '8', LTC_BECH32, LTC_BECH32))).toBe('litecoin');
    expect(networkOf(body('USDT', '8', BTC_BECH32, BTC_LEGACY))).toBe('bitcoin');
  });

  it('refuses a Move address with a token: sui and apt are both possible', () => {
    const result = refusal(body('USDC', '6', MOVE, MOVE));
    expect(result.path).toBe('transaction_network');
    expect(result.message).toMatch(/several networks \(sui, apt\)/);
    expect(result.message).not.toContain(MOVE);
  });

  it('refuses a P2SH address on both sides when the asset does not choose', () => {
    const result = refusal(body('XYZ', '8', P2SH, P2SH));
    expect(result.path).toBe('transaction_network');
    expect(result.message).toMatch(/bitcoin, litecoin/);
    expect(result.message).not.toContain(P2SH);
  });

  it('refuses an asset native to a network the addresses are not on', () => {
    const result = refusal(body('BTC', '8', EVM_A, EVM_B));
    expect(result.path).toBe('transaction_network');
    expect(result.message).toMatch(/native to bitcoin/);
  });

  it('names the first originator account number when it is no address at all', () => {
    const result = refusal(body('ETH', '18', 'Okafor wallet', EVM_B));
    expect(result.path).toBe('originator.accountNumber[0]');
    expect(result.message).not.toContain('Okafor');
  });

  it("names the beneficiary account number that is not on the originator's networks", () => {
    const result = refusal(body('ETH', '18', EVM_A, BTC_BECH32));
    expect(result.path).toBe('beneficiary.accountNumber[0]');
    expect(result.message).toMatch(
      /not a wallet address on eth, bsc, polygon, avalanche, arb, op, vet/,
    );
    expect(result.message).not.toContain(BTC_BECH32);
    expect(result.message).not.toContain(EVM_A);
  });
});

describe('receive_tx_without_protocol', () => {
  const HASH = `0x${'AB'.repeat(32)}`;
  const receive = (extra: Record<string, unknown> = {}) =>
    body('ETH', '18', EVM_A, EVM_B, {
      transaction_hash: HASH,
      created_at: '2024-05-01T15:00:00+03:00',
      ...extra,
    });

  it('accepts the input plus transaction_hash and created_at, normalised', () => {
    const result = parseTravelRuleInput(receive(), 'receive_without_protocol');
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (!result.ok || result.value.kind !== 'receive_without_protocol') return;
    expect(result.value.transaction_hash).toBe(HASH.toLowerCase());
    expect(result.value.created_at).toBe('2024-05-01T12:00:00.000Z');
    expect(result.value.transaction_network).toBe('eth');
  });

  it.each([
    [
      'transaction_hash missing',
      { transaction_hash: undefined },
      'transaction_hash',
      /is required/,
    ],
    [
      'transaction_hash not an EVM hash',
      { transaction_hash: '0x1234' },
      'transaction_hash',
      /0x and 64 hex digits on eth/,
    ],
    ['created_at missing', { created_at: undefined }, 'created_at', /is required/],
    [
      'created_at a date only',
      { created_at: '2024-05-01' },
      'created_at',
      /ISO 8601 timestamp with a time zone/,
    ],
    [
      'created_at without a time zone',
      { created_at: '2024-05-01T12:00:00' },
      'created_at',
      /ISO 8601 timestamp with a time zone/,
    ],
    [
      'created_at in year 0, which the database cannot store',
      { created_at: '0000-06-01T12:00:00Z' },
      'created_at',
      /must be a time from year 1 to 9999/,
    ],
    [
      'created_at in the future',
      { created_at: new Date(Date.now() + 86_400_000).toISOString() },
      'created_at',
      /must not be in the future/,
    ],
    [
      'beneficiary_vasp_id present',
      { beneficiary_vasp_id: '3f2504e0-4f89-11d3-9a0c-0305e82c3301' },
      'beneficiary_vasp_id',
      /not accepted on receive_tx_without_protocol/,
    ],
  ])('refuses %s', (_case, extra, path, reason) => {
    const result = refusal(receive(extra), 'receive_without_protocol');
    expect(result.path).toBe(path);
    expect(result.message).toMatch(reason);
  });

  it('applies the create_tx rules too (the originator must be identified)', () => {
    const input = receive();
    input.originator.persons[0]!.naturalPerson.customerIdentification = '';
    const result = refusal(input, 'receive_without_protocol');
    expect(result.path).toBe('originator.persons[0].naturalPerson');
  });

  it('accepts a Bitcoin hash of 64 hex digits and refuses a 0x one', () => {
    const btc = (hash: string) =>
      body('BTC', '8', BTC_BECH32, BTC_LEGACY, {
        transaction_hash: hash,
        created_at: '2024-05-01T12:00:00Z',
      });
    expect(parseTravelRuleInput(btc('ab'.repeat(32)), 'receive_without_protocol').ok).toBe(true);
    expect(refusal(btc(`0x${'ab'.repeat(32)}`), 'receive_without_protocol').path).toBe(
      'transaction_hash',
    );
  });

  it('create_tx takes no transaction_hash and created_at (they are dropped)', () => {
    const result = parseTravelRuleInput(receive(), 'create_tx');
    expect(result.ok).toBe(true);
    expect(result.ok && result.value).not.toHaveProperty('transaction_hash');
  });
});
