import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sql } from '../src/db/index.js';
import { searchTransactions } from '../src/dashboard/queries.js';
import { openPool } from '../src/db/index.js';
import { ensureReferenceSearchIndex } from '../src/db/reference-search.js';
import { projectPath } from '../src/paths.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';

// The dashboard's search by part of a reference is served by a trigram index (sql/0047) where
// pg_trgm can be created, and still works, reading every row, where it cannot.
let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

const INDEX = 'travelrule_transactions_ref_trgm';

/** Scans of the trigram index so far (this session's counts flushed first). */
async function trigramScans(sql: Sql): Promise<number> {
  await sql`select pg_stat_force_next_flush()`;
  const [row] = await sql<{ n: string | null }[]>`
    select idx_scan::text as n from pg_stat_user_indexes where indexrelname = ${INDEX}`;
  return Number(row?.n ?? 0);
}

it("serves the search with the trigram index: the query's condition is the index's expression", async () => {
  const one = await db.sql.reserve();
  try {
    // The table is small here: the planner is told not to read it whole, so that it takes the
    // index if (and only if) the condition can use it.
    await one`set enable_seqscan = off`;
    const before = await trigramScans(one as unknown as Sql);
    const found = await searchTransactions(one as unknown as Sql, {
      ref: 'Inv-2026',
      page: 1,
      limit: 50,
    });
    expect(found).toEqual({ rows: [], total: 0 });
    expect(await trigramScans(one as unknown as Sql)).toBeGreaterThan(before);
  } finally {
    one.release();
  }
});

it('applies its migration without pg_trgm (no right to create it): no index, and the search still works', async () => {
  const role = `no_create_${randomBytes(4).toString('hex')}`;
  await db.sql`drop extension pg_trgm cascade`;
  await db.sql.unsafe(`create role ${role}`);
  try {
    const migration = readFileSync(projectPath('sql/0047_transaction_ref_search.sql'), 'utf8');
    await db.sql.begin(async (tx) => {
      await tx.unsafe(`set local role ${role}`);
      await tx.unsafe(migration);
    });
    expect(await db.sql`select 1 from pg_extension where extname = 'pg_trgm'`).toEqual([]);
    expect(await db.sql`select 1 from pg_indexes where indexname = ${INDEX}`).toEqual([]);
    expect(await searchTransactions(db.sql, { ref: 'inv', page: 1, limit: 50 })).toEqual({
      rows: [],
      total: 0,
    });
  } finally {
    await db.sql.unsafe(`drop role ${role}`);
  }
});

it('makes the index at a start once pg_trgm can be created, and says so while it cannot', async () => {
  // As the previous test left it: no extension, no index.
  expect(await db.sql`select 1 from pg_indexes where indexname = ${INDEX}`).toEqual([]);
  // A user that may not create it (nor own the table): no index, no failure.
  const role = `limited_${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  await db.sql.unsafe(`create role ${role} login password '${password}'`);
  const url = new URL(db.url);
  url.username = role;
  url.password = password;
  const limited = openPool(url.href, { max: 1 });
  try {
    expect(await ensureReferenceSearchIndex(limited)).toBe(false);
  } finally {
    await limited.end();
    await db.sql.unsafe(`drop role ${role}`);
  }
  expect(await db.sql`select 1 from pg_indexes where indexname = ${INDEX}`).toEqual([]);
  // The database's owner can: the next start makes it, and the search uses it again.
  expect(await ensureReferenceSearchIndex(db.sql)).toBe(true);
  expect(await db.sql`select 1 from pg_indexes where indexname = ${INDEX}`).toHaveLength(1);
  expect(await ensureReferenceSearchIndex(db.sql)).toBe(true);
});
