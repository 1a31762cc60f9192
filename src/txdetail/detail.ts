import type { PublicClient } from 'viem';
import { networkInfo } from '../config/networks.js';
import { mapWithConcurrency } from '../concurrency.js';
import type { Sql } from '../db/index.js';
import { type AmlTags, analyzeAddress, trueTags } from '../aml/index.js';
import type { AmlConfig } from '../config/aml.js';
import { evmTxFromIndex, evmTxFromNode } from './evm.js';
import type { TxCore } from './types.js';
import { utxoTxFromIndex, utxoTxFromNode } from './utxo.js';
import type { UtxoRpc } from '../chains/utxo/client.js';

/**
 * GET /analyze/tx_detail. The transaction's AML data is that of its parties (sender, recipient,
 * token senders and recipients; Bitcoin-family: the addresses of the spent coins and of the
 * outputs): `tags` is the union of their true tags, `score` the highest of their scores (a
 * transaction is as risky as its riskiest party). At most MAX_PARTIES parties are analysed, in
 * order of appearance.
 */

export const MAX_PARTIES = 20;

export type TxDetail = Omit<TxCore, 'parties'> & {
  aml_data: { tags: AmlTags; score: number; threshold: AmlConfig['thresholds'] };
};

export interface TxLookup {
  sql: Sql;
  aml: AmlConfig;
  /** Networks this appliance indexes. */
  indexed: readonly string[];
  evmClients: ReadonlyMap<string, PublicClient>;
  /** Bitcoin-family nodes, for transactions older than the index. */
  utxoClients: ReadonlyMap<string, UtxoRpc>;
}

/** The hash in stored form, or null when it is not a transaction hash of the network's family. */
export function normalizeTxHash(network: string, hash: string): string | null {
  const family = networkInfo(network)?.family;
  if (family === 'evm') return /^0x[0-9a-fA-F]{64}$/.test(hash) ? hash.toLowerCase() : null;
  if (family === 'utxo') return /^[0-9a-fA-F]{64}$/.test(hash) ? hash.toLowerCase() : null;
  return null;
}

/** Index first, then the node; null when neither has it. */
export async function findTransaction(
  deps: TxLookup,
  network: string,
  hash: string,
): Promise<TxCore | null> {
  if (networkInfo(network)?.family === 'utxo') {
    const rpc = deps.utxoClients.get(network);
    return (
      (await utxoTxFromIndex(deps.sql, network, hash)) ??
      (rpc ? utxoTxFromNode(rpc, network, hash) : null)
    );
  }
  const client = deps.evmClients.get(network);
  return (
    (await evmTxFromIndex(deps.sql, client, network, hash)) ??
    (client ? evmTxFromNode(deps.sql, client, network, hash) : null)
  );
}

export async function txDetail(
  deps: TxLookup,
  network: string,
  hash: string,
): Promise<TxDetail | null> {
  const tx = await findTransaction(deps, network, hash);
  if (!tx) return null;
  const indexed = deps.indexed.includes(network);
  const analyses = await mapWithConcurrency(tx.parties.slice(0, MAX_PARTIES), 4, (address) =>
    analyzeAddress(deps.sql, deps.aml, { network, address, indexed }),
  );
  const tags: AmlTags = {};
  for (const a of analyses) Object.assign(tags, trueTags(a.tags));
  const score = Math.max(0, ...analyses.map((a) => a.score));
  const { parties: _parties, ...rest } = tx;
  return { ...rest, aml_data: { tags, score, threshold: { ...deps.aml.thresholds } } };
}
