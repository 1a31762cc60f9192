import { AML_TAGS } from './webhook-bodies.js';

/**
 * One realistic body per webhook of the OpenAPI document (webhook-contract.ts). Each passes its
 * schema strictly (test/unit/webhook-contract.test.ts). Hashes and raw data are well formed: the
 * Bitcoin example's txid, sizes and scripts are those of its `hex`.
 */

const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const SENDER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const STREAMED = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const EVM_TX = '0x2e7d2c03a9507ae265ecf5b5356885a53393a2029d241394997265a1a25aefc6';
const EVM_BLOCK = '0x18ac3e7343f016890c510e93f935261169d9e3f565436429830faf0934f4f8e4';
const padded = (address: string) => `0x${address.slice(2).padStart(64, '0')}`;

/** An ERC-20 transfer of 1,234.567 USDC to the streamed address, as first sent (unconfirmed). */
export const streamEvmExample = {
  sequence: 8,
  blockNumber: 19_876_543,
  chainId: 1,
  tx: {
    from: SENDER,
    to: USDC,
    hash: EVM_TX,
    input: `0xa9059cbb${padded(STREAMED).slice(2)}000000000000000000000000000000000000000000000000000000004995ff58`,
    address: STREAMED,
    network: 'eth',
    value: 0,
    formattedValue: 0,
    status: 1,
    gas: 62_159,
    gasPrice: 4_218_557_390,
    blockNumber: 19_876_543,
    logs: [
      {
        transactionIndex: 57,
        blockNumber: 19_876_543,
        transactionHash: EVM_TX,
        address: USDC,
        topics: [TRANSFER_TOPIC, padded(SENDER), padded(STREAMED)],
        data: '0x000000000000000000000000000000000000000000000000000000004995ff58',
        logIndex: 211,
        blockHash: EVM_BLOCK,
      },
    ],
  },
  confirmed: false,
  approvals: [],
  erc20Transfers: [
    {
      address: USDC,
      topic: TRANSFER_TOPIC,
      from: SENDER,
      to: STREAMED,
      method: 'transfer',
      type: 'ERC20',
      name: 'USD Coin',
      symbol: 'USDC',
      created_at: '2024-05-15T09:41:23.000Z',
      index: 211,
      decimals: 6,
      value: 1_234_567_000,
      formattedValue: 1234.567,
    },
  ],
  erc721Transfers: [],
  erc1155Transfers: [],
  internalTransfers: [],
  contract_type: 'ERC20',
  network: 'eth',
};

const COIN_ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const PAYEE = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const CHANGE = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

/** A segwit payment of 1.23456789 BTC to the streamed P2PKH address, once confirmed. */
export const streamBitcoinExample = {
  sequence: 2,
  hash: '829b206f4776751b79a6771f8fb602fe0ae4c29ce1ccf0b99f272f2837d1c897',
  hex: '0200000000010184fd9bac333ad79154348296204fa7f8c537a96e08983e5f73b3f5aca8e8edf70100000000fdffffff0215cd5b07000000001976a91477bff20c60e522dfaa3350c39b030a5d004e839a88ac2bad8a0700000000160014e8df018c7e326cc253faac7e46cdc51e68542c4202473044022036c2a1f9e8b3c2d1a0f9e8d7c6b5a4938271605f4e3d2c1b0a99887766554433022071f0e1d2c3b4a5968778695a4b3c2d1e0f1a2b3c4d5e6f708192a3b4c5d6e7f801210279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f8179810d90c00',
  version: 2,
  size: 225,
  vsize: 144,
  weight: 573,
  locktime: 842_000,
  timestamp: 1_714_981_347,
  fee: 14_400,
  inputs: [
    {
      prevout: {
        hash: 'f7ede8a8acf5b3735f3e98086ea937c5f8a74f209682345491d73a33ac9bfd84',
        index: 1,
      },
      sequence: 4_294_967_293,
      script: '',
      coin: {
        version: 2,
        height: 841_870,
        value: 250_000_000,
        script: '0014751e76e8199196d454941c45d1b3a323f1433bd6',
        address: COIN_ADDRESS,
        type: 'witness_v0_keyhash',
        reqSigs: null,
        coinbase: false,
      },
    },
  ],
  outputs: [
    {
      value: 123_456_789,
      script: '76a91477bff20c60e522dfaa3350c39b030a5d004e839a88ac',
      address: PAYEE,
      scriptPubKey: { type: 'pubkeyhash', reqSigs: null },
    },
    {
      value: 126_528_811,
      script: '0014e8df018c7e326cc253faac7e46cdc51e68542c42',
      address: CHANGE,
      scriptPubKey: { type: 'witness_v0_keyhash', reqSigs: null },
    },
  ],
  addresses: [COIN_ADDRESS, PAYEE, CHANGE],
  mapped: {
    inputs: [{ address: COIN_ADDRESS, value: 250_000_000 }],
    outputs: [
      { address: PAYEE, value: 123_456_789 },
      { address: CHANGE, value: 126_528_811 },
    ],
  },
  address: PAYEE,
  confirmed: true,
  network: 'bitcoin',
  blockNumber: 842_001,
  blockHash: '000000000000000000025af2392a948f950e3f93e9f171da623fe6629440bc8d',
};

const MIXER = '0x8589427373d6d84e98730d7795d8f6f8731fda16';
const MIXER_PEER = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';
const RISKY = new Set(['direct_mixer', 'indirect_sanctioned']);

/** ETH received from an address labelled as a mixer that itself dealt with a sanctioned one. */
export const liveAmlExample = {
  sequence: 3,
  address: STREAMED,
  score: 48,
  tags: Object.fromEntries(AML_TAGS.map((tag) => [tag, RISKY.has(tag)])),
  hash: EVM_TX,
  block_number: 19_876_543,
  hash_tags: { direct_mixer: true, indirect_sanctioned: true },
  triggered_by: [
    { tag: 'direct_mixer', counterparty: MIXER, labelled: MIXER, sources: ['mixers.csv'] },
    { tag: 'indirect_sanctioned', counterparty: MIXER, labelled: MIXER_PEER, sources: ['ofac'] },
  ],
  created_at: '2024-05-15T09:41:24.318Z',
};

/** A deposit announced over TRP and accepted by an operator: the backend is asked for the address. */
export const travelRuleExample = {
  transaction_ref: 'trp-6d1e3f0a-8c1b-4f7e-9a52-0c4d2b7e91f3',
  status: 'WAITING_ADDRESS_DATA',
  persons: [
    {
      naturalPerson: {
        name: {
          nameIdentifier: [
            {
              primaryIdentifier: 'Yılmaz',
              secondaryIdentifier: 'Ayşe',
              nameIdentifierType: 'LEGL',
            },
          ],
        },
        dateAndPlaceOfBirth: { dateOfBirth: '1986-03-14', placeOfBirth: 'Izmir, TR' },
        geographicAddress: [
          {
            addressType: 'HOME',
            streetName: 'Cumhuriyet Caddesi',
            buildingNumber: '42',
            postCode: '34367',
            townName: 'Istanbul',
            country: 'TR',
          },
        ],
        customerIdentification: 'CUST-0042-7781',
      },
    },
  ],
  accountNumber: [STREAMED],
};

const { sequence: _original, ...evmFields } = streamEvmExample;

/** The retraction of streamEvmExample after a reorg removed its block: `removed` after `sequence`. */
export const retractionExample = { sequence: 10, removed: true, ...evmFields, confirmed: false };
