import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentError } from '../src/errors.js';
import { ensureUtxoPartitions } from '../src/indexer/utxo/store.js';
import { buildUtxoPayload } from '../src/streams/utxo-payload.js';
import { utxoTxFromIndex } from '../src/txdetail/utxo.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { commitWhileRead } from './helpers/commit-while-read.js';

// A Bitcoin-family stream body and transaction detail are built from the transaction's stored
// rows. A reorg that removes them while they are read must give "no longer in the block" / "not
// found", never the transaction with its inputs and without its outputs. This file writes the
// rows as the indexer stores them.
let db: TestDatabase;
const NETWORK = 'litecoin';
const txid = 'ab'.repeat(32);
const blockHash = 'cd'.repeat(32);
const HEIGHT = 500;
const sender = 'rltc1qsender0000000000000000000000000000';
const receiver = 'rltc1qreceiver00000000000000000000000000';

/** The block and its one transaction, as the indexer stores them. */
async function store(): Promise<void> {
  await db.sql`insert into utxo_blocks (network, height, hash, prev_hash, time, tx_count)
    values (${NETWORK}, ${HEIGHT}, ${blockHash}, ${'ef'.repeat(32)}, 1700000000, 1)`;
  await db.sql`insert into utxo_transactions (network, txid, block_height, block_hash, tx_index, version, size, vsize,
      weight, locktime, fee, hex)
    values (${NETWORK}, ${txid}, ${HEIGHT}, ${blockHash}, 1, 2, 222, 141, 561, 0, 1000, '0200')`;
  await db.sql`insert into utxo_inputs (network, txid, vin, block_height, prev_txid, prev_vout, sequence, script, coinbase,
      prev_value, prev_address, prev_script, prev_type, prev_req_sigs, prev_height, prev_version, prev_coinbase)
    values (${NETWORK}, ${txid}, 0, ${HEIGHT}, ${'12'.repeat(32)}, 1, 4294967294, '', false,
      2100000000000000, ${sender}, '0014aa', 'witness_v0_keyhash', 1, 400, 2, false)`;
  await db.sql`insert into utxo_outputs (network, txid, vout, block_height, value, script, address, type, req_sigs)
    values (${NETWORK}, ${txid}, 0, ${HEIGHT}, 2099999999000000, '0014bb', ${receiver}, 'witness_v0_keyhash', 1),
           (${NETWORK}, ${txid}, 1, ${HEIGHT}, 0, '6a', null, 'nulldata', null)`;
}

/** A reorg's transaction: the block's rows deleted, committed while `read` waits on utxo_outputs. */
const reorgWhile = <T>(read: () => Promise<T>) =>
  commitWhileRead(
    db.sql,
    'utxo_outputs',
    async (tx) => {
      for (const table of ['utxo_outputs', 'utxo_inputs', 'utxo_transactions'] as const)
        await tx`delete from ${tx(table)} where network = ${NETWORK} and block_height = ${HEIGHT}`;
      await tx`delete from utxo_blocks where network = ${NETWORK} and height = ${HEIGHT}`;
    },
    read,
  );

beforeAll(async () => {
  db = await freshDatabase();
  await ensureUtxoPartitions(db.sql, NETWORK);
  await store();
});
afterAll(async () => {
  await db?.drop();
});

const event = {
  network: NETWORK,
  address: receiver,
  tx_hash: txid,
  block_hash: blockHash,
  confirmed: false,
};

describe('a Bitcoin-family stream body', () => {
  it('carries every input and output, amounts exact', async () => {
    const body = (await buildUtxoPayload(db.sql, event)) as Record<string, any>;
    expect(body.inputs).toHaveLength(1);
    expect(body.inputs[0].coin.value).toBe(2_100_000_000_000_000n);
    expect(body.outputs.map((o: { value: bigint }) => o.value)).toEqual([
      2_099_999_999_000_000n,
      0n,
    ]);
    expect(body.mapped).toEqual({
      inputs: [{ address: sender, value: 2_100_000_000_000_000n }],
      outputs: [{ address: receiver, value: 2_099_999_999_000_000n }],
    });
  });

  it('is refused, not built half, when a reorg removes the transaction while it is read', async () => {
    const outcome = await reorgWhile(() => buildUtxoPayload(db.sql, event));
    expect(outcome.value).toBeUndefined();
    expect(outcome.error).toBeInstanceOf(PermanentError);
  });
});

describe('/analyze/tx_detail of a Bitcoin-family transaction, from the index', () => {
  it('gives every output, or nothing when a reorg removes the transaction while it is read', async () => {
    await store();
    const detail = await utxoTxFromIndex(db.sql, NETWORK, txid);
    expect(detail).not.toBeNull();
    const whole = JSON.stringify(detail, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
    expect(whole).toContain(receiver);
    expect(whole).toContain(sender);
    const outcome = await reorgWhile(() => utxoTxFromIndex(db.sql, NETWORK, txid));
    expect(outcome.error).toBeUndefined();
    // Not found in the index (the node is asked next), never the transaction without its outputs.
    expect(outcome.value).toBeNull();
  });
});
