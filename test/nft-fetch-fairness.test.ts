import { afterAll, beforeAll, expect, it } from 'vitest';
import { FETCHES_PER_PRIORITY_STEP, requestMetadataFetches } from '../src/wallet/nft-store.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';

/**
 * Metadata fetches are fair between contracts: one contract's thousands of tokens (an airdrop
 * whose metadata server never answers, 10 s a fetch) held up every other wallet's metadata for
 * many minutes (found by an outside probe). Each contract's first tokens go at the task's
 * priority, its later ones a step lower per FETCHES_PER_PRIORITY_STEP.
 */

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

it("queues each contract's first tokens ahead of another contract's later ones", async () => {
  const airdrop = '0x' + 'a1'.repeat(20);
  const other = '0x' + 'b2'.repeat(20);
  const many = 2 * FETCHES_PER_PRIORITY_STEP + 20;
  const keys = [
    ...Array.from({ length: many }, (_, i) => ({
      network: 'eth',
      token: airdrop,
      token_id: String(i + 1),
      standard: 'ERC1155' as const,
    })),
    { network: 'eth', token: other, token_id: '7', standard: 'ERC721' as const },
  ];
  expect(await requestMetadataFetches(db.sql, keys)).toBe(many + 1);
  const rows = await db.sql<{ token: string; priority: number; n: number }[]>`
    select split_part(key, ':', 3) as token, priority, count(*)::int as n from graphile_worker.jobs
    where task_identifier = 'fetch_nft_metadata' group by 1, 2 order by 1, 2`;
  expect(rows).toEqual([
    { token: airdrop, priority: 10, n: FETCHES_PER_PRIORITY_STEP },
    { token: airdrop, priority: 11, n: FETCHES_PER_PRIORITY_STEP },
    { token: airdrop, priority: 12, n: 20 },
    { token: other, priority: 10, n: 1 },
  ]);
  // Asked for again: the same jobs, the same places (job keys).
  await requestMetadataFetches(db.sql, keys);
  const [count] = await db.sql<{ n: number }[]>`
    select count(*)::int as n from graphile_worker.jobs where task_identifier = 'fetch_nft_metadata'`;
  expect(count!.n).toBe(many + 1);
});
