import type { Sql } from '../../db/index.js';
import { RetryableError } from '../../errors.js';
import {
  outpointKey,
  parseOutput,
  type UtxoBlock,
  type UtxoInput,
  type UtxoTransaction,
} from '../../chains/utxo/block.js';
import type { RawTransaction, UtxoRpc } from '../../chains/utxo/client.js';
import { findStoredOutputs } from './store.js';
import type { Coin, ResolvedBlock, ResolvedInput, ResolvedTransaction } from './resolved.js';

/**
 * Prevout resolution: each input of a block gets the output it spends (its "coin"), and each
 * transaction its fee. In order of cost: an earlier transaction of the same block, then our own
 * utxo_outputs (everything indexed so far), then the node (only for coins created before the
 * indexer's start block: getrawtransaction, batched, by block hash where getblock verbosity 3
 * told the coin's height, else by id, which needs -txindex).
 */

function coinsOf(t: UtxoTransaction, height: bigint, into: Map<string, Coin>): void {
  const coinbase = t.inputs.some((i) => i.coinbase);
  for (const { vout, ...o } of t.outputs)
    into.set(outpointKey(t.txid, vout), { ...o, height, version: t.version, coinbase });
}

/**
 * The node's transactions that created the coins `inputs` spend, with their blocks' heights.
 * Where getblock verbosity 3 gave the coins' heights, each is read by its block's hash (no
 * -txindex needed); otherwise by id (-txindex) and its block's height looked up.
 */
async function nodeTransactions(
  rpc: UtxoRpc,
  inputs: readonly UtxoInput[],
): Promise<(RawTransaction & { height: bigint })[]> {
  const located = new Map<string, bigint>();
  const byId = new Set<string>();
  for (const i of inputs)
    if (i.prevHeight === null) byId.add(i.prevTxid!);
    else located.set(i.prevTxid!, i.prevHeight);
  for (const txid of located.keys()) byId.delete(txid);
  const out: (RawTransaction & { height: bigint })[] = [];

  if (located.size) {
    const heights = [...new Set(located.values())];
    const hashes = new Map(
      (await rpc.blockHashes(heights)).map((hash, k) => [heights[k]!, hash] as const),
    );
    const refs = [...located].map(([txid, h]) => ({ txid, blockHash: hashes.get(h)!, height: h }));
    const txs = await rpc.transactionsInBlocks(refs);
    for (const [k, t] of txs.entries()) out.push({ ...t, height: refs[k]!.height });
  }
  if (byId.size) {
    const txs = await rpc.transactions([...byId]);
    const blocks = [...new Set(txs.map((t) => t.blockhash).filter((h): h is string => Boolean(h)))];
    const heights = blocks.length ? await rpc.blockHeights(blocks) : new Map<string, bigint>();
    for (const t of txs) {
      const height = t.blockhash ? heights.get(t.blockhash) : undefined;
      if (height === undefined)
        throw new RetryableError(`transaction ${t.txid} is not in a block of the node`);
      out.push({ ...t, height });
    }
  }
  return out;
}

export async function resolvePrevouts(
  sql: Sql,
  rpc: UtxoRpc,
  network: string,
  block: UtxoBlock,
  decimals: number,
): Promise<ResolvedBlock> {
  const coins = new Map<string, Coin>();
  // Outputs of this block first: a transaction may spend one of an earlier transaction here.
  for (const t of block.transactions) coinsOf(t, block.height, coins);
  const wanted = block.transactions.flatMap((t) =>
    t.inputs.filter((i) => !i.coinbase).map((i) => ({ txid: i.prevTxid!, vout: i.prevVout! })),
  );

  const notInBlock = wanted.filter((o) => !coins.has(outpointKey(o.txid, o.vout)));
  if (notInBlock.length)
    for (const [k, c] of await findStoredOutputs(sql, network, notInBlock, block.height))
      coins.set(k, c);

  const missing = block.transactions.flatMap((t) =>
    t.inputs.filter((i) => !i.coinbase && !coins.has(outpointKey(i.prevTxid!, i.prevVout!))),
  );
  if (missing.length) {
    for (const t of await nodeTransactions(rpc, missing)) {
      const coinbase = t.vin.some((v) => v.coinbase !== undefined);
      for (const v of t.vout) {
        if (v.ismweb) continue;
        const { vout, ...o } = parseOutput(v, decimals);
        coins.set(outpointKey(t.txid, vout), {
          ...o,
          height: t.height,
          version: t.version,
          coinbase,
        });
      }
    }
  }

  const transactions = block.transactions.map((t): ResolvedTransaction => {
    const inputs = t.inputs.map((i): ResolvedInput => {
      if (i.coinbase) return { ...i, coin: null };
      const coin = coins.get(outpointKey(i.prevTxid!, i.prevVout!));
      if (!coin)
        throw new RetryableError(
          `output ${i.prevTxid}:${i.prevVout} spent in block ${block.height} not found`,
        );
      return { ...i, coin };
    });
    const coinbase = t.inputs.some((i) => i.coinbase);
    const paid = t.outputs.reduce((s, o) => s + o.value, 0n);
    const spent = inputs.reduce((s, i) => s + (i.coin?.value ?? 0n), 0n);
    return { ...t, inputs, fee: coinbase ? 0n : spent - paid };
  });
  return { ...block, transactions };
}
