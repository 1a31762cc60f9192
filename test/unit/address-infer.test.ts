import { describe, expect, it } from 'vitest';
import { inferFamily } from '../../src/chains/address/index.js';

const EVM = ['eth', 'bsc', 'polygon', 'avalanche', 'arb', 'op'];

describe('inferFamily', () => {
  it.each([
    [
      '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
      'evm',
      '0xd8da6bf26964af9d7eed9e03e53415d37aa96045',
      [...EVM, 'vet'],
    ],
    [
      '0x259ff8074ab425cbb489f236e18e08f03f1a7856bdf7c7a2877bd64f738b5015',
      'sui',
      '0x259ff8074ab425cbb489f236e18e08f03f1a7856bdf7c7a2877bd64f738b5015',
      ['sui', 'apt'],
    ],
    [
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      'utxo',
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      ['bitcoin'],
    ],
    [
      'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4',
      'utxo',
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      ['bitcoin'],
    ],
    [
      '3Ai1JZ8pdJb2ksieUV8FsxSNVJCpoPi8W6',
      'utxo',
      '3Ai1JZ8pdJb2ksieUV8FsxSNVJCpoPi8W6',
      ['bitcoin', 'litecoin'],
    ],
    [
      'mwXn5Vhicdav8Av3KMokx4YNuHoGRKxtWs',
      'utxo',
      'mwXn5Vhicdav8Av3KMokx4YNuHoGRKxtWs',
      ['bitcoin', 'litecoin', 'doge'],
    ],
    [
      '2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc',
      'utxo',
      '2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc',
      ['bitcoin', 'litecoin', 'doge'],
    ],
    [
      'ltc1qdp7p2rpx4a2f80h7a4crvppczgg4egmv5c78w8',
      'utxo',
      'ltc1qdp7p2rpx4a2f80h7a4crvppczgg4egmv5c78w8',
      ['litecoin'],
    ],
    [
      'rltc1qj08ys4ct2hzzc2hcz6h2hgrvlmsjynawf4nr3r',
      'utxo',
      'rltc1qj08ys4ct2hzzc2hcz6h2hgrvlmsjynawf4nr3r',
      ['litecoin'],
    ],
    ['DBXu2kgc3xtvCUWFcxFE3r9hEYgmuaaCyD', 'utxo', 'DBXu2kgc3xtvCUWFcxFE3r9hEYgmuaaCyD', ['doge']],
    ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', ['trx']],
    ['rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', 'xrp', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', ['xrp']],
    [
      'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
      'solana',
      'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
      ['solana'],
    ],
    [
      'stake1uyehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gh6ffgw',
      'cardano',
      'stake1uyehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gh6ffgw',
      ['ada'],
    ],
    [
      'Ae2tdPwUPEZFRbyhz3cpfC2CumGzNkFBN2L42rcUc2yjQpEkxDbkPodpMAi',
      'cardano',
      'Ae2tdPwUPEZFRbyhz3cpfC2CumGzNkFBN2L42rcUc2yjQpEkxDbkPodpMAi',
      ['ada'],
    ],
    [
      'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ',
      'stellar',
      'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ',
      ['stellar'],
    ],
    [
      'EQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPrHF',
      'ton',
      '0:ca6e321c7cce9ecedf0a8ca2492ec8592494aa5fb5ce0387dff96ef6af982a3e',
      ['ton'],
    ],
    [
      '-1:3333333333333333333333333333333333333333333333333333333333333333',
      'ton',
      '-1:3333333333333333333333333333333333333333333333333333333333333333',
      ['ton'],
    ],
    [
      '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY',
      'polkadot',
      '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5',
      ['dot'],
    ],
    [
      'VCMJKWOY5P5P7SKMZFFOCEROPJCZOTIJMNIYNUCKH7LRO45JMJP6UYBIJA',
      'algorand',
      'VCMJKWOY5P5P7SKMZFFOCEROPJCZOTIJMNIYNUCKH7LRO45JMJP6UYBIJA',
      ['algo'],
    ],
    [
      'cosmos1depk54cuajgkzea6zpgkq36tnjwdzv4afc3d27',
      'cosmos',
      'cosmos1depk54cuajgkzea6zpgkq36tnjwdzv4afc3d27',
      ['atom'],
    ],
    [
      'tz1XdRrrqrMfsFKA8iuw53xHzug9ipr6MuHq',
      'tezos',
      'tz1XdRrrqrMfsFKA8iuw53xHzug9ipr6MuHq',
      ['xtz'],
    ],
    [
      'KT1BDEn6wobs7tDReKkGheXAhoq278TGaNn5',
      'tezos',
      'KT1BDEn6wobs7tDReKkGheXAhoq278TGaNn5',
      ['xtz'],
    ],
    ['eosio.token', 'eos', 'eosio.token', ['eos']],
  ])('%s is %s', (input, family, address, networks) => {
    expect(inferFamily(input)).toEqual({
      family,
      address,
      networks,
      // Test networks' forms (m…/n…, 2…, rltc1…) are said so.
      testnet: /^(m|2M|rltc1)/.test(input),
    });
  });

  it('lists VeChain for a 0x+40-hex address, after the EVM networks, keeping the overlap visible', () => {
    expect(inferFamily('0x0000000000000000000000000000456E65726779')?.networks).toEqual([
      ...EVM,
      'vet',
    ]);
  });

  it('gives the Aptos and Sui framework addresses 0x0–0xf no family: both Move chains use them', () => {
    expect(inferFamily('0x1')).toBeNull();
    expect(inferFamily('0xf')).toBeNull();
    expect(inferFamily(`0x${'0'.repeat(63)}1`)).toEqual({
      family: 'sui',
      address: `0x${'0'.repeat(63)}1`,
      testnet: false,
      networks: ['sui', 'apt'],
    });
  });

  it.each([
    ['an empty string', ''],
    ['whitespace around an address', ' 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
    ['an EIP-55 typo', '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96046'],
    ['a base58check typo', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb'],
    ['a bech32 typo', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5'],
    ['a Kusama address', 'HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F'],
    ['an upper-case word', 'WALLET'],
    ['an e-mail address', 'alice@example.com'],
  ])('is null for %s', (_case, input) => {
    expect(inferFamily(input)).toBeNull();
  });
});
