import { networkInfo } from '../config/networks.js';
import type { Sql } from '../db/index.js';
import { formatUnits } from '../webhooks/evm-payload.js';
import { uniqueParties, type TxCore } from './tx-types.js';

/**
 * A Bitcoin-family transaction for tx_detail, from the index (utxo_* tables). The spec's shape
 * has one `from` and one `to`; a Bitcoin transaction has many of each, so:
 * - from: the address of the coin spent by the first input ('' for a coinbase);
 * - to: the first output address that is not an input address (the payment, not the change),
 *   else the first output address;
 * - value: what left the senders: the outputs to addresses that are not input addresses (all
 *   outputs when every one returns to a sender), in coins (BTC, LTC, DOGE) as a float;
 * - transfers: one per output with an address, from `from`, in coins, token_name/token_symbol
 *   the network's name and asset (e.g. "Litecoin", "LTC");
 * - status: always 'Success' (a mined Bitcoin transaction cannot fail).
 * A txid that occurs twice (BIP 30) gives the later one. Not in the index: null (the node is
 * not asked; Bitcoin-family history starts at the start block).
 */
export async function utxoTxFromIndex(sql: Sql, network: string, txid: string): Promise<TxCore | null> {
  const [tx] = await sql<{ txid: string; block_height: string; time: string }[]>`
    select t.txid, t.block_height, b.time from utxo_transactions t
    join utxo_blocks b on b.network = t.network and b.height = t.block_height
    where t.network = ${network} and t.txid = ${txid} order by t.block_height desc limit 1`;
  if (!tx) return null;
  const [inputs, outputs] = await Promise.all([
    sql<{ prev_address: string | null }[]>`select prev_address from utxo_inputs
      where network = ${network} and txid = ${txid} and block_height = ${tx.block_height} order by vin`,
    sql<{ address: string | null; value: string }[]>`select address, value::text from utxo_outputs
      where network = ${network} and txid = ${txid} and block_height = ${tx.block_height} order by vout`,
  ]);
  const info = networkInfo(network)!;
  const senders = new Set(inputs.map((i) => i.prev_address).filter((a): a is string => !!a));
  const from = inputs[0]?.prev_address ?? '';
  const paid = outputs.filter((o) => o.address && !senders.has(o.address));
  const counted = paid.length ? paid : outputs;
  const coins = (v: bigint) => formatUnits(v, info.decimals);
  return {
    from,
    to: paid[0]?.address ?? outputs.find((o) => o.address)?.address ?? '',
    status: 'Success',
    timestamp: Number(tx.time),
    network,
    hash: tx.txid,
    value: coins(counted.reduce((sum, o) => sum + BigInt(o.value), 0n)),
    transfers: outputs.filter((o) => o.address).map((o) => ({ from, to: o.address!, value: coins(BigInt(o.value)), token_name: info.name, token_symbol: info.asset })),
    parties: uniqueParties([...inputs.map((i) => i.prev_address), ...outputs.map((o) => o.address)]),
  };
}
