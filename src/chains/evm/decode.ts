/**
 * Pure decoding of EVM token events from raw logs: ERC-20/721 Transfer, ERC-1155 TransferSingle
 * and TransferBatch, Approval and ApprovalForAll. No RPC; unit-tested alone.
 */

export const TOPIC = {
  /** Transfer(address,address,uint256): ERC-20 (3 topics) and ERC-721 (4 topics). */
  TRANSFER: '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
  /** Approval(address,address,uint256) */
  APPROVAL: '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925',
  /** ApprovalForAll(address,address,bool) */
  APPROVAL_FOR_ALL: '0x17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31',
  /** TransferSingle(address,address,address,uint256,uint256) */
  TRANSFER_SINGLE: '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62',
  /** TransferBatch(address,address,address,uint256[],uint256[]) */
  TRANSFER_BATCH: '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb',
} as const;

export interface RawLog {
  address: string;
  topics: readonly string[];
  data: string;
  logIndex: number;
}

export type TokenStandard = 'ERC20' | 'ERC721' | 'ERC1155';

export interface TokenTransfer {
  type: TokenStandard;
  /** Token contract, lower-case. */
  address: string;
  topic: string;
  from: string;
  to: string;
  /** Amount moved (ERC-20 units; 1 for ERC-721; the ERC-1155 amount). */
  value: bigint;
  tokenId: bigint | null;
  logIndex: number;
}

export interface TokenApproval {
  address: string;
  topic: string;
  from: string;
  to: string;
  logIndex: number;
}

/** The address in a 32-byte topic, lower-case, or null when the topic is not an address. */
export function topicToAddress(topic: string | undefined): string | null {
  if (!topic || !/^0x[0-9a-fA-F]{64}$/.test(topic)) return null;
  if (!/^0x0{24}/.test(topic)) return null;
  return ('0x' + topic.slice(26)).toLowerCase();
}

function word(data: string, index: number): bigint | null {
  const start = 2 + index * 64;
  if (data.length < start + 64) return null;
  return BigInt('0x' + data.slice(start, start + 64));
}

/** Decodes a uint256[] at the byte offset found in word `index` of ABI-encoded data. */
function uintArray(data: string, index: number): bigint[] | null {
  const offset = word(data, index);
  if (offset === null || offset % 32n !== 0n || offset > BigInt(data.length)) return null;
  const at = Number(offset / 32n);
  const length = word(data, at);
  if (length === null || length > 10_000n) return null;
  const out: bigint[] = [];
  for (let i = 0; i < Number(length); i++) {
    const v = word(data, at + 1 + i);
    if (v === null) return null;
    out.push(v);
  }
  return out;
}

export function decodeTransfers(logs: readonly RawLog[]): TokenTransfer[] {
  const out: TokenTransfer[] = [];
  for (const log of logs) {
    const [t0, t1, t2, t3] = log.topics;
    const address = log.address.toLowerCase();
    const topic = t0?.toLowerCase();
    if (topic === TOPIC.TRANSFER) {
      const from = topicToAddress(t1);
      const to = topicToAddress(t2);
      if (!from || !to) continue;
      if (log.topics.length === 3) {
        const value = word(log.data, 0);
        if (value === null) continue;
        out.push({
          type: 'ERC20',
          address,
          topic,
          from,
          to,
          value,
          tokenId: null,
          logIndex: log.logIndex,
        });
      } else if (log.topics.length === 4 && t3) {
        out.push({
          type: 'ERC721',
          address,
          topic,
          from,
          to,
          value: 1n,
          tokenId: BigInt(t3),
          logIndex: log.logIndex,
        });
      }
    } else if (topic === TOPIC.TRANSFER_SINGLE && log.topics.length === 4) {
      const from = topicToAddress(t2);
      const to = topicToAddress(t3);
      const id = word(log.data, 0);
      const value = word(log.data, 1);
      if (!from || !to || id === null || value === null) continue;
      out.push({
        type: 'ERC1155',
        address,
        topic,
        from,
        to,
        value,
        tokenId: id,
        logIndex: log.logIndex,
      });
    } else if (topic === TOPIC.TRANSFER_BATCH && log.topics.length === 4) {
      const from = topicToAddress(t2);
      const to = topicToAddress(t3);
      const ids = uintArray(log.data, 0);
      const values = uintArray(log.data, 1);
      if (!from || !to || !ids || !values || ids.length !== values.length) continue;
      for (const [i, id] of ids.entries())
        out.push({
          type: 'ERC1155',
          address,
          topic,
          from,
          to,
          value: values[i]!,
          tokenId: id,
          logIndex: log.logIndex,
        });
    }
  }
  return out;
}

export function decodeApprovals(logs: readonly RawLog[]): TokenApproval[] {
  const out: TokenApproval[] = [];
  for (const log of logs) {
    const topic = log.topics[0]?.toLowerCase();
    if (topic !== TOPIC.APPROVAL && topic !== TOPIC.APPROVAL_FOR_ALL) continue;
    const from = topicToAddress(log.topics[1]);
    const to = topicToAddress(log.topics[2]);
    if (!from || !to) continue;
    out.push({ address: log.address.toLowerCase(), topic, from, to, logIndex: log.logIndex });
  }
  return out;
}

/**
 * Every address a transaction touches: sender, recipient, the contract it created, the parties
 * of its internal transfers (coin its calls moved), and the parties of its token transfers and
 * approvals. Lower-case, without duplicates.
 */
export function touchedAddresses(
  tx: {
    from: string;
    to: string | null;
    contractAddress: string | null;
    internal?: readonly { from: string; to: string }[];
  },
  logs: readonly RawLog[],
): string[] {
  const set = new Set<string>();
  set.add(tx.from.toLowerCase());
  if (tx.to) set.add(tx.to.toLowerCase());
  if (tx.contractAddress) set.add(tx.contractAddress.toLowerCase());
  for (const x of tx.internal ?? []) {
    set.add(x.from);
    set.add(x.to);
  }
  for (const t of decodeTransfers(logs)) {
    set.add(t.from);
    set.add(t.to);
  }
  for (const a of decodeApprovals(logs)) {
    set.add(a.from);
    set.add(a.to);
  }
  set.delete('0x0000000000000000000000000000000000000000');
  return [...set];
}
