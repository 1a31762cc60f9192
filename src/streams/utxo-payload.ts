import type { Sql } from '../db/index.js';
import { PermanentError } from '../errors.js';

/**
 * The stream webhook body for a Bitcoin-family transaction, in the spec's Bitcoin shape, from
 * the database only. Amounts (`value`, `fee`) are bigints in the smallest unit, written as exact
 * JSON numbers. Decisions where the spec is silent:
 * - `hash` is the txid; `timestamp` the block time; `fee` is inputs minus outputs (0 for a coinbase).
 * - A coinbase input has `prevout` {hash: 64 zeros, index: 4294967295}, its coinbase data as
 *   `script`, and `coin: null` (it spends no coin).
 * - `address` is null where a script pays no single address (OP_RETURN, bare multisig, non-standard).
 * - `addresses`: every address of the coins spent and the outputs, once each, inputs first.
 * - `mapped`: per address, the sum it spent (inputs) and received (outputs), in order of first
 *   appearance; scripts without an address are left out there.
 * - Extras at the top level: `address` (the streamed address this delivery is for, as EVM's
 *   `tx.address`), `confirmed`, `network`, `blockNumber`, `blockHash`.
 */

interface TxRow {
  txid: string;
  hex: string;
  version: string;
  size: number;
  vsize: number;
  weight: number;
  locktime: string;
  fee: string;
  block_height: string;
  block_hash: string;
  time: string;
}
interface InputRow {
  prev_txid: string | null;
  prev_vout: number | null;
  sequence: string;
  script: string;
  coinbase: boolean;
  prev_value: string | null;
  prev_address: string | null;
  prev_script: string | null;
  prev_type: string | null;
  prev_req_sigs: number | null;
  prev_height: string | null;
  prev_version: string | null;
  prev_coinbase: boolean | null;
}
interface OutputRow {
  value: string;
  script: string;
  address: string | null;
  type: string;
  req_sigs: number | null;
}

const COINBASE_PREVOUT = { hash: '0'.repeat(64), index: 0xffffffff };

/** Sums of value per address, in order of first appearance; entries without an address are left out. */
function mapByAddress(
  entries: readonly { address: string | null; value: bigint }[],
): { address: string; value: bigint }[] {
  const sums = new Map<string, bigint>();
  for (const e of entries)
    if (e.address !== null) sums.set(e.address, (sums.get(e.address) ?? 0n) + e.value);
  return [...sums].map(([address, value]) => ({ address, value }));
}

export async function buildUtxoPayload(
  sql: Sql,
  event: {
    network: string;
    address: string;
    tx_hash: string;
    block_hash: string;
    confirmed: boolean;
    /** A past transaction of a stream created with from_block: the body says "replay": true. */
    replay?: boolean;
  },
): Promise<object> {
  // The transaction, its inputs and its outputs in one statement: one snapshot, so a reorg that
  // removes them meanwhile gives "no longer in the block", never a body missing its inputs or
  // outputs. Big numbers as text in the JSON (as postgres.js gives them in columns).
  const [tx] = await sql<(TxRow & { inputs: InputRow[]; outputs: OutputRow[] })[]>`
    select t.txid, t.hex, t.version, t.size, t.vsize, t.weight, t.locktime, t.fee, t.block_height, t.block_hash, b.time,
      coalesce((select json_agg(json_build_object('prev_txid', i.prev_txid, 'prev_vout', i.prev_vout, 'sequence', i.sequence::text,
          'script', i.script, 'coinbase', i.coinbase, 'prev_value', i.prev_value::text, 'prev_address', i.prev_address,
          'prev_script', i.prev_script, 'prev_type', i.prev_type, 'prev_req_sigs', i.prev_req_sigs, 'prev_height', i.prev_height::text,
          'prev_version', i.prev_version::text, 'prev_coinbase', i.prev_coinbase) order by i.vin)
        from utxo_inputs i where i.network = t.network and i.txid = t.txid and i.block_height = t.block_height), '[]') as inputs,
      coalesce((select json_agg(json_build_object('value', o.value::text, 'script', o.script, 'address', o.address, 'type', o.type,
          'req_sigs', o.req_sigs) order by o.vout)
        from utxo_outputs o where o.network = t.network and o.txid = t.txid and o.block_height = t.block_height), '[]') as outputs
    from utxo_transactions t join utxo_blocks b on b.network = t.network and b.height = t.block_height
    where t.network = ${event.network} and t.txid = ${event.tx_hash} and t.block_hash = ${event.block_hash}`;
  if (!tx)
    throw new PermanentError(
      `transaction ${event.tx_hash} is no longer in block ${event.block_hash} (reorged)`,
    );
  const { inputs: inputRows, outputs: outputRows } = tx;

  const inputs = inputRows.map((i) => ({
    prevout: i.coinbase ? COINBASE_PREVOUT : { hash: i.prev_txid!, index: i.prev_vout! },
    sequence: Number(i.sequence),
    script: i.script,
    coin: i.coinbase
      ? null
      : {
          version: Number(i.prev_version),
          height: Number(i.prev_height),
          value: BigInt(i.prev_value!),
          script: i.prev_script!,
          address: i.prev_address,
          type: i.prev_type,
          reqSigs: i.prev_req_sigs,
          coinbase: i.prev_coinbase!,
        },
  }));
  const outputs = outputRows.map((o) => ({
    value: BigInt(o.value),
    script: o.script,
    address: o.address,
    scriptPubKey: { type: o.type, reqSigs: o.req_sigs },
  }));
  const spent = inputs.flatMap((i) =>
    i.coin ? [{ address: i.coin.address, value: i.coin.value }] : [],
  );
  const paid = outputs.map((o) => ({ address: o.address, value: o.value }));
  const addresses = [
    ...new Set([...spent, ...paid].map((e) => e.address).filter((a): a is string => a !== null)),
  ];

  return {
    hash: tx.txid,
    hex: tx.hex,
    version: Number(tx.version),
    size: tx.size,
    vsize: tx.vsize,
    weight: tx.weight,
    locktime: Number(tx.locktime),
    timestamp: Number(tx.time),
    fee: BigInt(tx.fee),
    inputs,
    outputs,
    addresses,
    mapped: { inputs: mapByAddress(spent), outputs: mapByAddress(paid) },
    address: event.address,
    confirmed: event.confirmed,
    ...(event.replay ? { replay: true } : {}),
    network: event.network,
    blockNumber: BigInt(tx.block_height),
    blockHash: tx.block_hash,
  };
}
