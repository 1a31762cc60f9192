import { describe, expect, it } from 'vitest';
import {
  decodeApprovals,
  decodeTransfers,
  topicToAddress,
  touchedAddresses,
  TOPIC,
  type RawLog,
} from '../../src/chains/evm/decode.js';
import { encodeAbiParameters, keccak256, toHex } from 'viem';

const A = '0x' + '11'.repeat(20);
const B = '0x' + '22'.repeat(20);
const C = '0x' + '33'.repeat(20);
const T = '0x' + 'aa'.repeat(20);
const pad = (addr: string) => '0x' + addr.slice(2).padStart(64, '0');
const u256 = (v: bigint) => encodeAbiParameters([{ type: 'uint256' }], [v]);

describe('event topics', () => {
  it('are the keccak of the standard signatures', () => {
    expect(TOPIC.TRANSFER).toBe(keccak256(toHex('Transfer(address,address,uint256)')));
    expect(TOPIC.APPROVAL).toBe(keccak256(toHex('Approval(address,address,uint256)')));
    expect(TOPIC.APPROVAL_FOR_ALL).toBe(keccak256(toHex('ApprovalForAll(address,address,bool)')));
    expect(TOPIC.TRANSFER_SINGLE).toBe(
      keccak256(toHex('TransferSingle(address,address,address,uint256,uint256)')),
    );
    expect(TOPIC.TRANSFER_BATCH).toBe(
      keccak256(toHex('TransferBatch(address,address,address,uint256[],uint256[])')),
    );
  });
});

describe('decodeTransfers', () => {
  it('tells ERC-20 from ERC-721 by the number of topics', () => {
    const logs: RawLog[] = [
      { address: T, topics: [TOPIC.TRANSFER, pad(A), pad(B)], data: u256(10n ** 30n), logIndex: 0 },
      { address: T, topics: [TOPIC.TRANSFER, pad(A), pad(B), u256(42n)], data: '0x', logIndex: 1 },
    ];
    expect(decodeTransfers(logs)).toEqual([
      {
        type: 'ERC20',
        address: T,
        topic: TOPIC.TRANSFER,
        from: A,
        to: B,
        value: 10n ** 30n,
        tokenId: null,
        logIndex: 0,
      },
      {
        type: 'ERC721',
        address: T,
        topic: TOPIC.TRANSFER,
        from: A,
        to: B,
        value: 1n,
        tokenId: 42n,
        logIndex: 1,
      },
    ]);
  });

  it('decodes ERC-1155 single and batch transfers', () => {
    const batchData = encodeAbiParameters(
      [{ type: 'uint256[]' }, { type: 'uint256[]' }],
      [
        [1n, 2n, 3n],
        [10n, 20n, 30n],
      ],
    );
    const logs: RawLog[] = [
      {
        address: T,
        topics: [TOPIC.TRANSFER_SINGLE, pad(C), pad(A), pad(B)],
        data: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [7n, 3n]),
        logIndex: 4,
      },
      {
        address: T,
        topics: [TOPIC.TRANSFER_BATCH, pad(C), pad(A), pad(B)],
        data: batchData,
        logIndex: 5,
      },
    ];
    const out = decodeTransfers(logs);
    expect(out.map((t) => [t.type, t.from, t.to, t.tokenId, t.value, t.logIndex])).toEqual([
      ['ERC1155', A, B, 7n, 3n, 4],
      ['ERC1155', A, B, 1n, 10n, 5],
      ['ERC1155', A, B, 2n, 20n, 5],
      ['ERC1155', A, B, 3n, 30n, 5],
    ]);
  });

  it('skips malformed logs instead of throwing', () => {
    const logs: RawLog[] = [
      { address: T, topics: [TOPIC.TRANSFER, pad(A)], data: '0x', logIndex: 0 },
      { address: T, topics: [TOPIC.TRANSFER, pad(A), pad(B)], data: '0x12', logIndex: 1 },
      {
        address: T,
        topics: [TOPIC.TRANSFER, '0x' + 'ff'.repeat(32), pad(B)],
        data: u256(1n),
        logIndex: 2,
      },
      {
        address: T,
        topics: [TOPIC.TRANSFER_BATCH, pad(C), pad(A), pad(B)],
        data: '0x' + 'ff'.repeat(64),
        logIndex: 3,
      },
      { address: T, topics: [], data: '0x', logIndex: 4 },
    ];
    expect(decodeTransfers(logs)).toEqual([]);
  });
});

describe('decodeApprovals and touchedAddresses', () => {
  it('finds approvals and every party of a transaction', () => {
    const logs: RawLog[] = [
      { address: T, topics: [TOPIC.APPROVAL, pad(A), pad(C)], data: u256(5n), logIndex: 0 },
      {
        address: T,
        topics: [TOPIC.TRANSFER, pad('0x' + '00'.repeat(20)), pad(B)],
        data: u256(1n),
        logIndex: 1,
      },
    ];
    expect(decodeApprovals(logs)).toEqual([
      { address: T, topic: TOPIC.APPROVAL, from: A, to: C, logIndex: 0 },
    ]);
    expect(
      touchedAddresses(
        { from: A.toUpperCase().replace('0X', '0x'), to: T, contractAddress: null },
        logs,
      ).sort(),
    ).toEqual([A, B, C, T].sort());
  });

  it('reads addresses only from 32-byte topics with 12 zero bytes', () => {
    expect(topicToAddress(pad(A))).toBe(A);
    expect(topicToAddress('0x' + '01'.repeat(32))).toBeNull();
    expect(topicToAddress(undefined)).toBeNull();
  });
});
