import type { PublicClient } from 'viem';
import type { Sql } from '../db/index.js';
import {
  decodeApprovals,
  decodeTransfers,
  type RawLog,
  type TokenTransfer,
} from '../chains/evm/decode.js';
import { tokenMetadata, type TokenMeta } from '../chains/evm/tokens.js';
import { networkInfo } from '../config/networks.js';
import { PermanentError } from '../errors.js';
import { formatUnits } from '../chains/units.js';

/**
 * The stream webhook body for an EVM transaction, in the spec's EVM shape. Chain integers are
 * bigints (written as exact JSON numbers); `formattedValue` is the float the spec shows.
 * `method` is "transfer" for token transfers and "approval" for approvals.
 */

interface TxRow {
  hash: string;
  block_number: string;
  block_hash: string;
  tx_index: number;
  from_address: string;
  to_address: string | null;
  contract_address: string | null;
  value: string;
  gas: string;
  gas_price: string | null;
  input: string;
  status: number | null;
  timestamp: string;
}
interface LogRow {
  log_index: number;
  address: string;
  topics: string[];
  data: string;
}

interface InternalRow {
  trace_index: number;
  kind: 'call' | 'create' | 'selfdestruct';
  from_address: string;
  to_address: string;
  /** Text: numeric(78) is beyond a JSON number. */
  value: string;
}

/**
 * A transaction as a stream body needs it: its row, its block's timestamp, its logs, and its
 * internal transfers (null where its block was not traced).
 */
export type EvmTxForPayload = TxRow & {
  network: string;
  logs: LogRow[];
  internal: InternalRow[] | null;
};

/** Where a stream event's transaction is. */
export interface EvmTxKey {
  network: string;
  tx_hash: string;
  block_hash: string;
}

export const evmTxKey = (k: EvmTxKey) => `${k.network}|${k.tx_hash}|${k.block_hash}`;

/**
 * The transactions of many stream events in one round trip (a dispatcher's batch: an
 * unconfirmed and a confirmed event of one transaction share it), by evmTxKey. A transaction no
 * longer in the event's block (reorged) is absent.
 */
export async function loadEvmTransactions(
  sql: Sql,
  keys: readonly EvmTxKey[],
): Promise<Map<string, EvmTxForPayload>> {
  const unique = [...new Map(keys.map((k) => [evmTxKey(k), k])).values()];
  if (unique.length === 0) return new Map();
  const rows = await sql<EvmTxForPayload[]>`
    select t.network, t.hash, t.block_number, t.block_hash, t.tx_index, t.from_address, t.to_address, t.contract_address, t.value, t.gas,
      t.gas_price, t.input, t.status, b.timestamp,
      coalesce((select json_agg(json_build_object('log_index', l.log_index, 'address', l.address, 'topics', l.topics, 'data', l.data)
          order by l.log_index)
        from evm_logs l where l.network = t.network and l.block_number = t.block_number and l.tx_hash = t.hash), '[]') as logs,
      case when b.traced then coalesce((select json_agg(json_build_object('trace_index', i.trace_index, 'kind', i.kind,
          'from_address', i.from_address, 'to_address', i.to_address, 'value', i.value::text) order by i.trace_index)
        from evm_internal_transfers i where i.network = t.network and i.block_number = t.block_number and i.tx_hash = t.hash), '[]') end as internal
    from unnest(${unique.map((k) => k.network)}::text[], ${unique.map((k) => k.tx_hash)}::text[], ${unique.map((k) => k.block_hash)}::text[])
      as k(network, hash, block_hash)
    join evm_transactions t on t.network = k.network and t.hash = k.hash and t.block_hash = k.block_hash
    join evm_blocks b on b.network = t.network and b.number = t.block_number`;
  return new Map(
    rows.map((r) => [
      evmTxKey({ network: r.network, tx_hash: r.hash, block_hash: r.block_hash }),
      r,
    ]),
  );
}

/**
 * The body for a stream event, from its transaction as loadEvmTransactions gave it (undefined:
 * not there, the transaction was reorged out of the event's block).
 */
export async function buildEvmPayload(
  sql: Sql,
  client: PublicClient,
  event: {
    network: string;
    address: string;
    tx_hash: string;
    block_hash: string;
    confirmed: boolean;
    /** A past transaction of a stream created with from_block: the body says "replay": true. */
    replay?: boolean;
  },
  chainId: number,
  tx: EvmTxForPayload | undefined,
) {
  if (!tx)
    throw new PermanentError(
      `transaction ${event.tx_hash} is no longer in block ${event.block_hash} (reorged)`,
    );
  const logs = tx.logs;

  const raw: RawLog[] = logs.map((l) => ({
    address: l.address,
    topics: l.topics,
    data: l.data,
    logIndex: l.log_index,
  }));
  const transfers = decodeTransfers(raw);
  const approvals = decodeApprovals(raw);
  const meta = await tokenMetadata(
    sql,
    client,
    event.network,
    transfers.map((t) => t.address),
  );
  const blockNumber = BigInt(tx.block_number);
  const createdAt = new Date(Number(tx.timestamp) * 1000).toISOString();
  const nativeDecimals = networkInfo(event.network)?.decimals ?? 18;
  const value = BigInt(tx.value);

  const transferItem = (t: TokenTransfer) => {
    const m: TokenMeta = meta.get(t.address) ?? { name: null, symbol: null, decimals: null };
    const decimals = t.type === 'ERC20' ? (m.decimals ?? 0) : 0;
    return {
      address: t.address,
      topic: t.topic,
      from: t.from,
      to: t.to,
      method: 'transfer',
      type: t.type,
      name: m.name ?? '',
      symbol: m.symbol ?? '',
      created_at: createdAt,
      index: t.logIndex,
      decimals,
      value: t.value,
      formattedValue: formatUnits(t.value, decimals),
      ...(t.type !== 'ERC20' ? { tokenID: t.tokenId! } : {}),
      ...(t.type === 'ERC1155' ? { tokenValue: t.value } : {}),
    };
  };
  const erc20 = transfers.filter((t) => t.type === 'ERC20').map(transferItem);
  const erc721 = transfers.filter((t) => t.type === 'ERC721').map(transferItem);
  const erc1155 = transfers.filter((t) => t.type === 'ERC1155').map(transferItem);

  return {
    blockNumber,
    chainId,
    tx: {
      from: tx.from_address,
      to: tx.to_address ?? tx.contract_address ?? '',
      hash: tx.hash,
      input: tx.input,
      address: event.address,
      network: event.network,
      value,
      formattedValue: formatUnits(value, nativeDecimals),
      // A receipt from before Byzantium has no status (a root instead): unknown, not a success
      // (it was announced as 1; found by an outside probe).
      status: tx.status,
      gas: BigInt(tx.gas),
      gasPrice: tx.gas_price === null ? 0n : BigInt(tx.gas_price),
      blockNumber,
      logs: logs.map((l) => ({
        transactionIndex: tx.tx_index,
        blockNumber,
        transactionHash: tx.hash,
        address: l.address,
        topics: l.topics,
        data: l.data,
        logIndex: l.log_index,
        blockHash: tx.block_hash,
      })),
    },
    confirmed: event.confirmed,
    ...(event.replay ? { replay: true } : {}),
    approvals: approvals.map((a) => ({
      address: a.address,
      topic: a.topic,
      from: a.from,
      to: a.to,
      method: 'approval',
      index: a.logIndex,
    })),
    erc20Transfers: erc20,
    erc721Transfers: erc721,
    erc1155Transfers: erc1155,
    // Not in the spec: coin the transaction's calls moved (a contract paying out), in the call
    // tree's order; absent where the block was not traced (the node has no call traces).
    ...(tx.internal
      ? {
          internalTransfers: tx.internal.map((x) => {
            const v = BigInt(x.value);
            return {
              from: x.from_address,
              to: x.to_address,
              type: x.kind,
              index: x.trace_index,
              value: v,
              formattedValue: formatUnits(v, nativeDecimals),
            };
          }),
        }
      : {}),
    // The spec types it a string: "" for a transaction without token transfers.
    contract_type: transfers[0]?.type ?? '',
    network: event.network,
  };
}
