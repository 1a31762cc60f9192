import { networkInfo } from '../config/networks.js';
import type { Sql } from '../db/index.js';
import { parseOutput, parseTransaction } from '../chains/utxo/block.js';
import type { UtxoRpc } from '../chains/utxo/client.js';
import { formatUnits } from '../chains/units.js';
import { uniqueParties, type TxCore } from './types.js';

/**
 * A Bitcoin-family transaction for tx_detail. The spec's shape has one `from` and one `to`; a
 * Bitcoin transaction has many of each, so:
 * - from: the address of the coin spent by the first input ('' for a coinbase);
 * - to: the first output address that is not an input address (the payment, not the change),
 *   else the first output address;
 * - value: what left the senders: the outputs not paying an input address, those to a script
 *   without an address (P2PK, bare multisig) included (all outputs when every one returns to a
 *   sender), in coins (BTC, LTC, DOGE) as a float;
 * - transfers: one per output that carries value, from `from`, in coins, token_name/token_symbol
 *   the network's name and asset (e.g. "Litecoin", "LTC"); `to` is '' for a script without an
 *   address. An output of no value without an address (OP_RETURN data, a witness commitment) is
 *   no transfer. Outputs to scripts without an address were left out of both, so a payment to one
 *   read as no payment (found by an outside probe);
 * - status: always 'Success' (a mined Bitcoin transaction cannot fail).
 */
function utxoTxCore(
  network: string,
  txid: string,
  time: number,
  spentFrom: readonly (string | null)[],
  outputs: readonly { address: string | null; value: bigint }[],
): TxCore {
  const info = networkInfo(network)!;
  const senders = new Set(spentFrom.filter((a): a is string => !!a));
  const from = spentFrom[0] ?? '';
  const moved = outputs.filter((o) => o.address || o.value > 0n);
  const paid = moved.filter((o) => !o.address || !senders.has(o.address));
  const counted = paid.length ? paid : moved;
  const coins = (v: bigint) => formatUnits(v, info.decimals);
  return {
    from,
    to: paid.find((o) => o.address)?.address ?? outputs.find((o) => o.address)?.address ?? '',
    status: 'Success',
    timestamp: time,
    network,
    hash: txid,
    value: coins(counted.reduce((sum, o) => sum + o.value, 0n)),
    transfers: moved.map((o) => ({
      from,
      to: o.address ?? '',
      value: coins(o.value),
      token_name: info.name,
      token_symbol: info.asset,
    })),
    parties: uniqueParties([...spentFrom, ...outputs.map((o) => o.address)]),
  };
}

/** From the index (utxo_* tables); a txid that occurs twice (BIP 30) gives the later one. */
export async function utxoTxFromIndex(
  sql: Sql,
  network: string,
  txid: string,
): Promise<TxCore | null> {
  // One statement, one snapshot: a reorg that removes the transaction meanwhile gives "not
  // found", never the transaction without its outputs.
  const [tx] = await sql<
    {
      txid: string;
      time: string;
      inputs: (string | null)[];
      outputs: { address: string | null; value: string }[];
    }[]
  >`
    select t.txid, b.time,
      -- A coinbase's input has no address: a NULL element, read as null (the driver's patch,
      -- src/db/patched-driver.ts; it was the text "NULL", found by an outside probe).
      coalesce((select array_agg(i.prev_address order by i.vin) from utxo_inputs i
        where i.network = t.network and i.txid = t.txid and i.block_height = t.block_height), '{}') as inputs,
      coalesce((select json_agg(json_build_object('address', o.address, 'value', o.value::text) order by o.vout) from utxo_outputs o
        where o.network = t.network and o.txid = t.txid and o.block_height = t.block_height), '[]') as outputs
    from utxo_transactions t
    join utxo_blocks b on b.network = t.network and b.height = t.block_height
    where t.network = ${network} and t.txid = ${txid} order by t.block_height desc limit 1`;
  if (!tx) return null;
  const { inputs, outputs } = tx;
  return utxoTxCore(
    network,
    tx.txid,
    Number(tx.time),
    inputs,
    outputs.map((o) => ({ address: o.address, value: BigInt(o.value) })),
  );
}

/**
 * From the node, for a transaction older than the index (getrawtransaction, which needs the
 * node's -txindex; the spent coins' addresses from their own transactions). Null when the node
 * has no such transaction, or has it only in its mempool (not mined: nothing to detail yet).
 */
export async function utxoTxFromNode(
  rpc: UtxoRpc,
  network: string,
  txid: string,
): Promise<TxCore | null> {
  const raw = await rpc.transaction(txid);
  if (!raw || raw.blocktime === undefined) return null;
  const decimals = networkInfo(network)!.decimals;
  const tx = parseTransaction(raw, 0, decimals);
  const prevIds = [...new Set(tx.inputs.flatMap((i) => (i.prevTxid ? [i.prevTxid] : [])))];
  const prevs = new Map((await rpc.transactions(prevIds)).map((p) => [p.txid, p]));
  const spentFrom = tx.inputs.map((i) => {
    const out =
      i.prevTxid === null ? undefined : prevs.get(i.prevTxid)?.vout.find((v) => v.n === i.prevVout);
    return out ? parseOutput(out, decimals).address : null;
  });
  return utxoTxCore(network, tx.txid, raw.blocktime, spentFrom, tx.outputs);
}
