import { TransactionNotFoundError, TransactionReceiptNotFoundError, type PublicClient } from 'viem';
import { decodeTransfers, type TokenStandard } from '../chains/evm/decode.js';
import { tokenMetadata, type TokenMeta } from '../chains/evm/tokens.js';
import type { Sql } from '../db/index.js';
import { formatUnits } from '../chains/units.js';
import { networkInfo } from '../config/networks.js';
import { uniqueParties, type TxCore, type TxTransfer } from './types.js';

/**
 * An EVM transaction for tx_detail: from the index (evm_transactions, evm_token_transfers,
 * evm_internal_transfers), or, when the index does not hold it (older than the start block, or
 * not indexed here), from the network's node (its token transfers only: no call trace is asked). `to` of a contract creation is the created contract; status is 'Failed' only
 * when the receipt says so.
 */

interface RawTransfer {
  from: string;
  to: string;
  token: string;
  standard: TokenStandard;
  value: bigint;
}

/** Token names from evm_tokens, read from the contract once when a node is at hand. */
async function tokenNames(
  sql: Sql,
  client: PublicClient | undefined,
  network: string,
  tokens: string[],
): Promise<Map<string, TokenMeta>> {
  if (client) {
    try {
      return await tokenMetadata(sql, client, network, tokens);
    } catch {
      // The node is down: answer with what is cached.
    }
  }
  const rows = await sql<
    { address: string; name: string | null; symbol: string | null; decimals: number | null }[]
  >`
    select address, name, symbol, decimals from evm_tokens where network = ${network} and address = any(${tokens})`;
  return new Map(rows.map((r) => [r.address, r]));
}

async function toTransfers(
  sql: Sql,
  client: PublicClient | undefined,
  network: string,
  raw: RawTransfer[],
): Promise<TxTransfer[]> {
  const meta = await tokenNames(sql, client, network, [...new Set(raw.map((t) => t.token))]);
  return raw.map((t) => {
    const m = meta.get(t.token);
    const value =
      t.standard === 'ERC20' && m?.decimals != null
        ? formatUnits(t.value, m.decimals)
        : Number(t.value);
    return {
      from: t.from,
      to: t.to,
      value,
      token_name: m?.name ?? '',
      token_symbol: m?.symbol ?? '',
    };
  });
}

function core(
  network: string,
  tx: {
    hash: string;
    from: string;
    to: string;
    status: 'Success' | 'Failed';
    timestamp: number;
    value: bigint;
  },
  transfers: TxTransfer[],
): TxCore {
  const decimals = networkInfo(network)?.decimals ?? 18;
  return {
    from: tx.from,
    to: tx.to,
    status: tx.status,
    timestamp: tx.timestamp,
    network,
    hash: tx.hash,
    value: formatUnits(tx.value, decimals),
    transfers,
    parties: uniqueParties([tx.from, tx.to, ...transfers.flatMap((t) => [t.from, t.to])]),
  };
}

export async function evmTxFromIndex(
  sql: Sql,
  client: PublicClient | undefined,
  network: string,
  hash: string,
): Promise<TxCore | null> {
  // One statement, one snapshot: a reorg that removes the transaction meanwhile gives "not in
  // the index", never the transaction without its token transfers.
  const [tx] = await sql<
    {
      hash: string;
      from_address: string;
      to_address: string | null;
      contract_address: string | null;
      value: string;
      status: number | null;
      timestamp: string;
      transfers: {
        from_address: string;
        to_address: string;
        token: string;
        standard: TokenStandard;
        value: string;
      }[];
      internal: { from_address: string; to_address: string; value: string }[];
    }[]
  >`
    select t.hash, t.from_address, t.to_address, t.contract_address, t.value::text, t.status, b.timestamp,
      coalesce((select json_agg(json_build_object('from_address', x.from_address, 'to_address', x.to_address, 'token', x.token,
          'standard', x.standard, 'value', x.value::text) order by x.log_index, x.batch_index)
        from evm_token_transfers x where x.network = t.network and x.tx_hash = t.hash and x.block_number = t.block_number), '[]') as transfers,
      coalesce((select json_agg(json_build_object('from_address', i.from_address, 'to_address', i.to_address, 'value', i.value::text)
          order by i.trace_index)
        from evm_internal_transfers i where i.network = t.network and i.tx_hash = t.hash and i.block_number = t.block_number), '[]') as internal
    from evm_transactions t join evm_blocks b on b.network = t.network and b.number = t.block_number
    where t.network = ${network} and t.hash = ${hash}`;
  if (!tx) return null;
  const transfers = tx.transfers;
  const raw = transfers.map((t) => ({
    from: t.from_address,
    to: t.to_address,
    token: t.token,
    standard: t.standard,
    value: BigInt(t.value),
  }));
  return core(
    network,
    {
      hash: tx.hash,
      from: tx.from_address,
      to: tx.to_address ?? tx.contract_address ?? '',
      status: tx.status === 0 ? 'Failed' : 'Success',
      timestamp: Number(tx.timestamp),
      value: BigInt(tx.value),
    },
    [...internalTransfers(network, tx.internal), ...(await toTransfers(sql, client, network, raw))],
  );
}

/**
 * Internal transfers (coin a contract's calls moved inside the transaction: a mixer's payout) as
 * transfers of the network's coin, in the call tree's order, before the token transfers. Their
 * parties count for aml_data like any transfer's.
 */
function internalTransfers(
  network: string,
  rows: readonly { from_address: string; to_address: string; value: string }[],
): TxTransfer[] {
  const info = networkInfo(network);
  return rows.map((r) => ({
    from: r.from_address,
    to: r.to_address,
    value: formatUnits(BigInt(r.value), info?.decimals ?? 18),
    token_name: info?.name ?? '',
    token_symbol: info?.asset ?? '',
  }));
}

/** From the node; null when the node does not know the transaction or it is not mined yet. */
export async function evmTxFromNode(
  sql: Sql,
  client: PublicClient,
  network: string,
  hash: string,
): Promise<TxCore | null> {
  try {
    const h = hash as `0x${string}`;
    const [tx, receipt] = await Promise.all([
      client.getTransaction({ hash: h }),
      client.getTransactionReceipt({ hash: h }),
    ]);
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    const logs = receipt.logs.map((l) => ({
      address: l.address.toLowerCase(),
      topics: l.topics,
      data: l.data,
      logIndex: l.logIndex,
    }));
    const raw = decodeTransfers(logs).map((t) => ({
      from: t.from,
      to: t.to,
      token: t.address,
      standard: t.type,
      value: t.value,
    }));
    return core(
      network,
      {
        hash: tx.hash.toLowerCase(),
        from: tx.from.toLowerCase(),
        to: (tx.to ?? receipt.contractAddress ?? '').toLowerCase(),
        status: receipt.status === 'reverted' ? 'Failed' : 'Success',
        timestamp: Number(block.timestamp),
        value: tx.value,
      },
      await toTransfers(sql, client, network, raw),
    );
  } catch (err) {
    if (err instanceof TransactionNotFoundError || err instanceof TransactionReceiptNotFoundError)
      return null;
    throw err;
  }
}
