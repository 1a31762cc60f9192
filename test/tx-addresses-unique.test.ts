import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureNetworkPartitions } from '../src/indexer/evm/store.js';
import { ensureUtxoPartitions } from '../src/indexer/utxo/store.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';

// evm_tx_addresses and utxo_tx_addresses have no primary key since sql/0054: their unique history
// index keeps an (address, transaction) row from being stored twice, as the key did.
let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
  await ensureNetworkPartitions(db.sql, 'eth');
  await ensureUtxoPartitions(db.sql, 'litecoin');
});
afterAll(async () => {
  await db?.drop();
});

const ADDRESS = `0x${'ab'.repeat(20)}`;
const HASH = `0x${'cd'.repeat(32)}`;

it.each([
  ['evm_tx_addresses', 'eth'],
  ['utxo_tx_addresses', 'litecoin'],
] as const)('%s refuses the same address and transaction twice', async (table, network) => {
  const insert = (address: string, block: number) =>
    db.sql`insert into ${db.sql(table)} (network, address, block_number, tx_hash, timestamp)
      values (${network}, ${address}, ${block}, ${HASH}, 1700000000)`;
  await insert(ADDRESS, 7);
  await expect(insert(ADDRESS, 7)).rejects.toMatchObject({ code: '23505' });
  // Another address of the same transaction, and the same pair in another block, are rows of
  // their own.
  await insert(`0x${'ef'.repeat(20)}`, 7);
  await insert(ADDRESS, 8);
  const [row] = await db.sql<{ n: number }[]>`
    select count(*)::int as n from ${db.sql(table)} where network = ${network} and tx_hash = ${HASH}`;
  expect(row!.n).toBe(3);
  // What enforces it is the history index, the one wallet history reads.
  const indexes = await db.sql<{ name: string; unique: boolean }[]>`
    select c.relname as name, i.indisunique as unique from pg_index i
    join pg_class c on c.oid = i.indexrelid where i.indrelid = ${table}::regclass order by 1`;
  expect(indexes).toEqual([
    { name: `${table}_block`, unique: false },
    { name: `${table}_history`, unique: true },
  ]);
});
