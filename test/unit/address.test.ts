import { base58xrp } from '@scure/base';
import { decodeBase58Check, encodeBase58Check } from '../../src/chains/address/base58check.js';
import { describe, expect, it } from 'vitest';
import { crc16Xmodem } from '../../src/chains/address/checksum.js';
import { inferFamily, labelSubjects, validateAddress } from '../../src/chains/address/index.js';
import { bytesToHex } from '@noble/hashes/utils';
import { NETWORK_SYMBOLS } from '../../src/config/networks.js';

/**
 * Published addresses, each with its stored form (null: stored as typed). Sources: EIP-55 test
 * vectors and well-known contracts and exchange wallets; BIP-173/BIP-350 vectors; the Bitcoin,
 * Litecoin and Dogecoin Core key_io/base58 test data; ENS address-encoder vectors; CIP-19 and
 * the Byron-format wiki; SEP-23; TON docs; Octez base58 test vectors; AIP-40 examples.
 */
const VALID: readonly (readonly [network: string, input: string, stored: string | null])[] = [
  [
    'eth',
    '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
    '0xd8da6bf26964af9d7eed9e03e53415d37aa96045',
  ], // vitalik.eth
  [
    'eth',
    '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
    '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
  ], // WETH
  [
    'eth',
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
  ], // EIP-55 vector
  [
    'eth',
    '0x52908400098527886E0F7030069857D2E4169EE7',
    '0x52908400098527886e0f7030069857d2e4169ee7',
  ], // EIP-55, all caps
  [
    'eth',
    '0xde709f2102306220921060314715629080e2fb77',
    '0xde709f2102306220921060314715629080e2fb77',
  ], // EIP-55, all lower
  [
    'bsc',
    '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c',
    '0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c',
  ], // WBNB
  [
    'bsc',
    '0xF977814e90dA44bFA03b6295A0616a897441aceC',
    '0xf977814e90da44bfa03b6295a0616a897441acec',
  ], // Binance hot wallet
  [
    'polygon',
    '0x0d500B1d8E8eF31E21C99d1Db9A6444d3ADf1270',
    '0x0d500b1d8e8ef31e21c99d1db9a6444d3adf1270',
  ], // WPOL
  [
    'polygon',
    '0xBE0eB53F46cd790Cd13851d5EFf43D12404d33E8',
    '0xbe0eb53f46cd790cd13851d5eff43d12404d33e8',
  ], // Binance cold wallet
  [
    'avalanche',
    '0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7',
    '0xb31f66aa3c1e785363f0875a1b74e27b85fd66c7',
  ], // WAVAX
  [
    'avalanche',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359',
  ], // EIP-55 vector
  [
    'arb',
    '0x912CE59144191C1204E64559FE8253a0e49E6548',
    '0x912ce59144191c1204e64559fe8253a0e49e6548',
  ], // ARB token
  [
    'arb',
    '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1',
    '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
  ], // WETH on Arbitrum
  [
    'op',
    '0x4200000000000000000000000000000000000042',
    '0x4200000000000000000000000000000000000042',
  ], // OP token
  [
    'op',
    '0x4200000000000000000000000000000000000006',
    '0x4200000000000000000000000000000000000006',
  ], // WETH predeploy
  ['bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', null], // genesis coinbase
  ['bitcoin', '3Ai1JZ8pdJb2ksieUV8FsxSNVJCpoPi8W6', null],
  [
    'bitcoin',
    'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4',
    'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
  ], // BIP-173
  ['bitcoin', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', null], // BIP-350, taproot
  ['bitcoin', 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', null], // BIP-173, testnet P2WSH
  ['bitcoin', 'BC1SW50QGDZ25J', 'bc1sw50qgdz25j'], // BIP-350, witness v16 (future versions stay valid)
  ['bitcoin', 'bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs', null], // BIP-350, witness v2
  ['bitcoin', 'tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c', null], // BIP-350, testnet v1
  ['bitcoin', 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080', null], // regtest form of the BIP-173 program
  ['bitcoin', 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', null], // Bitcoin Core base58 test data, testnet P2PKH
  ['bitcoin', '2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc', null], // Bitcoin Core base58 test data, testnet P2SH
  ['litecoin', 'LaMT348PWRnrqeeWArpwQPbuanpXDZGEUz', null],
  ['litecoin', 'MQMcJhpWHYVeQArcZR3sBgyPZxxRtnH441', null],
  ['litecoin', 'ltc1qdp7p2rpx4a2f80h7a4crvppczgg4egmv5c78w8', null],
  ['litecoin', 'mwXn5Vhicdav8Av3KMokx4YNuHoGRKxtWs', null], // Litecoin Core key_io, testnet P2PKH
  ['litecoin', 'QXaUgLHkZcbJb2j5XgMYzY8cF9YM48Y81Z', null], // Litecoin Core key_io, testnet P2SH (Q)
  ['litecoin', 'tltc1qh50sy0823vxn4l9zk2820w4fuj0q4fgv48ma6c', null], // Litecoin MWEB tests, testnet
  ['litecoin', 'rltc1qj08ys4ct2hzzc2hcz6h2hgrvlmsjynawf4nr3r', null], // THORChain litecoind -regtest fixture
  ['doge', 'DBXu2kgc3xtvCUWFcxFE3r9hEYgmuaaCyD', null],
  ['doge', 'AF8ekvSf6eiSBRspJjnfzK6d1EM6pnPq3G', null],
  ['doge', '9tg8sLnB9okjuNSdgtAWrNPcgijs1yMwBE', null], // Dogecoin Core key_io, P2SH starting with 9
  ['doge', 'nhRsrUaxZou6sewjqaS37cJrMRJRgwVXdk', null], // Dogecoin Core base58 test data, testnet P2PKH
  ['doge', '2MsvyG12kxxipe276Au4zKqvd2xdrBuHWb3', null], // Dogecoin Core base58 test data, testnet P2SH
  ['trx', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', null], // USDT contract
  ['trx', 'TUrMmF9Gd4rzrXsQ34ui3Wou94E7HFuJQh', null],
  ['xrp', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', null], // genesis account
  ['xrp', 'rf1BiGeXwwQoi8Z2ueFYTEXSwuJYfV2Jpn', null],
  ['xrp', 'rrrrrrrrrrrrrrrrrrrrrhoLvTp', null], // ACCOUNT_ZERO
  // XLS-5d X-addresses (the codec's published vectors), stored as typed (the tag names a
  // customer): without a tag, with tag 1, on a test network (T…), another account without a tag.
  ['xrp', 'X7AcgcsBL6XDcUb289X4mJ8djcdyKaB5hJDWMArnXr61cqZ', null],
  ['xrp', 'X7AcgcsBL6XDcUb289X4mJ8djcdyKaGZMhc9YTE92ehJ2Fu', null],
  ['xrp', 'T719a5UwUCnEs54UsxG9CJYYDhwmFCqkr7wxCcNcfZ6p5GZ', null],
  ['xrp', 'XVLhHMPHU98es4dbozjVtdWzVrDjtV5fdx1mHp98tDMoQXb', null],
  ['solana', '11111111111111111111111111111111', null], // System Program
  ['solana', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', null], // SPL Token program
  ['solana', 'So11111111111111111111111111111111111111112', null], // wrapped SOL mint
  [
    'ada',
    'addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x',
    null,
  ], // CIP-19 type 0
  ['ada', 'addr1gx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer5pnz75xxcrzqf96k', null], // CIP-19 type 4, pointer
  ['ada', 'addr1w8phkx6acpnf78fuvxn0mkew3l0fd058hzquvz7w36x4gtcyjy7wx', null], // CIP-19 type 7, enterprise script
  ['ada', 'stake1uyehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gh6ffgw', null], // CIP-19 type 14
  [
    'ada',
    'addr_test1qz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgs68faae',
    null,
  ],
  ['ada', 'stake_test17rphkx6acpnf78fuvxn0mkew3l0fd058hzquvz7w36x4gtcljw6kf', null], // CIP-19 type 15, testnet
  ['ada', 'Ae2tdPwUPEZFRbyhz3cpfC2CumGzNkFBN2L42rcUc2yjQpEkxDbkPodpMAi', null], // Byron, Icarus
  [
    'ada',
    'DdzFFzCqrhsiMfvZtvTgqbR5jT4UAMEwJCT2bBvWSTiN736tSSxhnhHbmJYUhTiuZGgojfi3jizinGRVUdBF9QHgWHi11nEVpwK36gC9',
    null,
  ], // Byron, Daedalus
  [
    'ada',
    '37btjrVyb4KDXBNC4haBVPCrro8AQPHwvCMp3RFhhSVWwfFmZ6wwzSK6JK1hY6wHNmtrpTf1kdbva8TCneM2YsiXT7mrzT21EacHnPpz5YyUdj64na',
    null,
  ], // CIP-19 Byron, testnet
  ['stellar', 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ', null], // SEP-23
  ['stellar', 'GAI3GJ2Q3B35AOZJ36C4ANE3HSS4NK7WI6DNO4ZSHRAX6NG7BMX6VJER', null],
  ['stellar', 'MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUQ', null], // SEP-23, muxed id 0
  ['stellar', 'MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVAAAAAAAAAAAAAJLK', null], // SEP-23, id 2^63
  ['sui', '0x0000000000000000000000000000000000000000000000000000000000000002', null], // Sui framework
  ['sui', '0x259ff8074ab425cbb489f236e18e08f03f1a7856bdf7c7a2877bd64f738b5015', null], // Trust Wallet Core vector
  [
    'sui',
    '0x259FF8074AB425CBB489F236E18E08F03F1A7856BDF7C7A2877BD64F738B5015',
    '0x259ff8074ab425cbb489f236e18e08f03f1a7856bdf7c7a2877bd64f738b5015',
  ],
  [
    'ton',
    'EQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPrHF',
    '0:ca6e321c7cce9ecedf0a8ca2492ec8592494aa5fb5ce0387dff96ef6af982a3e',
  ], // TON docs
  [
    'ton',
    'UQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPuwA',
    '0:ca6e321c7cce9ecedf0a8ca2492ec8592494aa5fb5ce0387dff96ef6af982a3e',
  ], // non-bounceable
  [
    'ton',
    'kQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPgpP',
    '0:ca6e321c7cce9ecedf0a8ca2492ec8592494aa5fb5ce0387dff96ef6af982a3e',
  ], // test-only
  [
    'ton',
    '0:CA6E321C7CCE9ECEDF0A8CA2492EC8592494AA5FB5CE0387DFF96EF6AF982A3E',
    '0:ca6e321c7cce9ecedf0a8ca2492ec8592494aa5fb5ce0387dff96ef6af982a3e',
  ],
  [
    'ton',
    'Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF',
    '-1:3333333333333333333333333333333333333333333333333333333333333333',
  ], // elector
  ['ton', '-1:3333333333333333333333333333333333333333333333333333333333333333', null],
  ['dot', '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5', null], // //Alice, Polkadot prefix
  ['dot', '13UVJyLnbVp9RBZYFwFGyDvVd1y27Tt8tkntv6Q7JVPhFsTB', null], // Treasury
  ['dot', '1FRMM8PEiWXYax7rpS6X4XZX1aAAxSWx1CrKTyrVYhV24fg', null],
  [
    'dot',
    '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY',
    '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5',
  ], // //Alice, prefix 42
  ['apt', '0x0000000000000000000000000000000000000000000000000000000000000001', null], // framework, LONG
  ['apt', '0x1', '0x0000000000000000000000000000000000000000000000000000000000000001'], // framework, SHORT
  ['apt', '0xA', '0x000000000000000000000000000000000000000000000000000000000000000a'], // AIP-40 special
  ['apt', '0x14b6041b77304fe9354aba2e0b1a0ae51d816d0513332ef651a039fac90339cb', null], // AIP-40 example
  ['apt', '0x043ec2cb158e3569842d537740fd53403e992b9e7349cc5d3dfaa5aff8faaef2', null], // AIP-40 example
  [
    'vet',
    '0x0000000000000000000000000000456E65726779',
    '0x0000000000000000000000000000456e65726779',
  ], // VTHO "Energy"
  [
    'vet',
    '0x9760b32C0A515F6C8c4E6B7B89AF8964DDaCB985',
    '0x9760b32c0a515f6c8c4e6b7b89af8964ddacb985',
  ],
  ['algo', 'VCMJKWOY5P5P7SKMZFFOCEROPJCZOTIJMNIYNUCKH7LRO45JMJP6UYBIJA', null], // Algorand docs
  ['algo', 'Y76M3MSY6DKBRHBL7C3NNDXGS5IIMQVQVUAB6MP4XEMMGVF2QWNPL226CA', null], // mainnet fee sink
  ['algo', '737777777777777777777777777777777777777777777777777UFEJ2CI', null], // mainnet rewards pool
  ['algo', 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAY5HFKQ', null], // zero address
  ['atom', 'cosmos1depk54cuajgkzea6zpgkq36tnjwdzv4afc3d27', null],
  ['atom', 'cosmos1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu', null], // bytes 0x01..0x14, Cosmos SDK tests
  [
    'atom',
    'COSMOS1DEPK54CUAJGKZEA6ZPGKQ36TNJWDZV4AFC3D27',
    'cosmos1depk54cuajgkzea6zpgkq36tnjwdzv4afc3d27',
  ],
  ['xtz', 'tz1XdRrrqrMfsFKA8iuw53xHzug9ipr6MuHq', null],
  ['xtz', 'tz2Cfwk4ortcaqAGcVJKSxLiAdcFxXBLBoyY', null],
  ['xtz', 'tz3NdTPb3Ax2rVW2Kq9QEdzfYFkRwhrQRPhX', null],
  ['xtz', 'tz4HVR6aty9KwsQFHh81C1G7gBdhxT8kuytm', null], // Octez BLS test vector
  ['xtz', 'KT1BDEn6wobs7tDReKkGheXAhoq278TGaNn5', null],
  ['eos', 'eosio', null],
  ['eos', 'eosio.token', null],
  ['eos', 'eosio.stake', null],
  ['eos', 'eosio.null', null],
];

/** The test networks' forms of VALID (testnet, signet, regtest): said so (`testnet: true`). */
const TEST_FORMS = new Set([
  'T719a5UwUCnEs54UsxG9CJYYDhwmFCqkr7wxCcNcfZ6p5GZ',
  '2MsvyG12kxxipe276Au4zKqvd2xdrBuHWb3',
  '2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc',
  'QXaUgLHkZcbJb2j5XgMYzY8cF9YM48Y81Z',
  'addr_test1qz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgs68faae',
  'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080',
  'kQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPgpP',
  'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn',
  'mwXn5Vhicdav8Av3KMokx4YNuHoGRKxtWs',
  'nhRsrUaxZou6sewjqaS37cJrMRJRgwVXdk',
  'rltc1qj08ys4ct2hzzc2hcz6h2hgrvlmsjynawf4nr3r',
  'stake_test17rphkx6acpnf78fuvxn0mkew3l0fd058hzquvz7w36x4gtcljw6kf',
  'tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c',
  'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
  'tltc1qh50sy0823vxn4l9zk2820w4fuj0q4fgv48ma6c',
]);

describe('validateAddress accepts published addresses', () => {
  it.each(VALID)('%s %s', (network, input, stored) => {
    expect(validateAddress(network, input)).toEqual({
      ok: true,
      address: stored ?? input,
      ...(TEST_FORMS.has(input) ? { testnet: true } : {}),
    });
  });

  it('covers every network symbol with at least two addresses', () => {
    for (const symbol of NETWORK_SYMBOLS) {
      expect(VALID.filter(([network]) => network === symbol).length, symbol).toBeGreaterThanOrEqual(
        2,
      );
    }
  });
});

describe('validateAddress refuses what no network takes', () => {
  const firstPerNetwork = NETWORK_SYMBOLS.map(
    (symbol) => VALID.find(([network]) => network === symbol)!,
  );

  it.each(firstPerNetwork)('%s: whitespace around or inside %s', (network, input) => {
    for (const spaced of [
      ` ${input}`,
      `${input}\n`,
      `${input.slice(0, 4)} ${input.slice(4)}`,
      `\t${input}`,
    ]) {
      expect(validateAddress(network, spaced)).toEqual({
        ok: false,
        reason: 'address contains whitespace',
      });
    }
  });

  it.each(NETWORK_SYMBOLS)('%s: empty and oversized input', (network) => {
    expect(validateAddress(network, '')).toEqual({ ok: false, reason: 'address is missing' });
    expect(validateAddress(network, 'a'.repeat(257))).toEqual({
      ok: false,
      reason: 'address is too long',
    });
  });

  it('an unknown network', () => {
    expect(validateAddress('btc', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toEqual({
      ok: false,
      reason: 'unknown network "btc"',
    });
    expect(validateAddress('__proto__', 'x')).toMatchObject({ ok: false });
  });

  it('an XRP X-address that is not one: a checksum, a flag, a tag or a prefix wrong', () => {
    expect(validateAddress('xrp', 'X7AcgcsBL6XDcUb289X4mJ8djcdyKaB5hJDWMArnXr61cqY')).toEqual({
      ok: false,
      reason: 'base58check checksum mismatch',
    });
    // Built around the account of the published vector, with their checksums made right.
    const account = decodeBase58Check('r9cZA1mLK5R5Am25ArfXFmqgNwjZgnfk59', base58xrp);
    if (!account.ok) throw new Error('vector');
    const x = (prefix: number[], flag: number, tag: number[]) =>
      encodeBase58Check(
        Uint8Array.from([...prefix, ...account.payload.subarray(1), flag, ...tag]),
        base58xrp,
      );
    const none = [0, 0, 0, 0, 0, 0, 0, 0];
    const built = x([0x05, 0x44], 0, none);
    expect(built).toBe('X7AcgcsBL6XDcUb289X4mJ8djcdyKaB5hJDWMArnXr61cqZ');
    expect(validateAddress('xrp', built)).toEqual({ ok: true, address: built });
    // What is said of the account is said of its X-addresses (labels), with or without a tag.
    for (const [xaddr, account] of [
      [built, 'r9cZA1mLK5R5Am25ArfXFmqgNwjZgnfk59'],
      ['X7AcgcsBL6XDcUb289X4mJ8djcdyKaGZMhc9YTE92ehJ2Fu', 'r9cZA1mLK5R5Am25ArfXFmqgNwjZgnfk59'],
      ['XVLhHMPHU98es4dbozjVtdWzVrDjtV5fdx1mHp98tDMoQXb', 'rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf'],
    ])
      expect(labelSubjects('xrp', xaddr!)).toEqual([xaddr, account]);
    expect(labelSubjects('xrp', 'rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf')).toEqual([
      'rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf',
    ]);
    for (const [bad, reason] of [
      [x([0x05, 0x44], 2, none), 'XRP X-address flag byte must be 0 or 1'],
      [x([0x05, 0x44], 0, [1, 0, 0, 0, 0, 0, 0, 0]), 'XRP X-address tag bytes are malformed'],
      [x([0x05, 0x44], 1, [1, 0, 0, 0, 0, 0, 0, 1]), 'XRP X-address tag bytes are malformed'],
      [x([0x05, 0x45], 0, none), 'not an XRP X-address: unknown network prefix'],
    ] as const)
      expect(validateAddress('xrp', bad)).toEqual({ ok: false, reason });
  });

  it('a Tron account in its hex form (41 and 40 hex digits), stored in its T… form', () => {
    const t = 'TBHTJqAy4DhHhmT3dNceJYNRz4SdLofLre';
    const decoded = decodeBase58Check(t);
    const hex = decoded.ok ? bytesToHex(decoded.payload) : '';
    expect(hex).toBe('410e6b8e34dc115a2848f585851af23d99d09b8463');
    for (const form of [hex, hex.toUpperCase(), t])
      expect(validateAddress('trx', form)).toEqual({ ok: true, address: t });
    expect(validateAddress('trx', `0x${hex}`)).toEqual({
      ok: false,
      reason: 'not a Tron address: it starts with T (base58check) or 41 (hex, no 0x)',
    });
    for (const short of [hex.slice(0, -2), `${hex}00`])
      expect(validateAddress('trx', short)).toEqual({
        ok: false,
        reason: 'a hex Tron address is 41 followed by 40 hex digits',
      });
    expect(inferFamily(hex)).toMatchObject({ family: 'tron', address: t, networks: ['trx'] });
  });

  it('an address of another family, with a reason', () => {
    const result = validateAddress('trx', '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045');
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.reason).toMatch(/\S/);
  });
});

describe('crc16Xmodem', () => {
  it('gives the catalogue check value', () => {
    expect(crc16Xmodem(new TextEncoder().encode('123456789'))).toBe(0x31c3);
  });
});
