/**
 * Deep pages of a wallet's history from kept marks (src/wallet/page-anchors.ts) answer exactly
 * what the OFFSET walk answers, on a seeded random history over two networks with many rows per
 * block time (and one run of equal block times longer than the marks' spacing), before and after
 * the history changes under kept marks: rows added above, among and below the others, a reorg
 * removing a block's rows, the address's rows all removed and added again.
 * TEST_SEED replays a run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPool } from '../src/db/index.js';
import { ensureNetworkPartitions } from '../src/indexer/evm/store.js';
import { PageAnchors, SPACING } from '../src/wallet/page-anchors.js';
import { PageCache } from '../src/wallet/page-cache.js';
import { type WalletTransaction, walletTransactions } from '../src/wallet/transactions.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { fuzzSeed, Rng } from './helpers/fuzz.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
  await ensureNetworkPartitions(db.sql, 'eth');
  await ensureNetworkPartitions(db.sql, 'polygon');
});
afterAll(async () => {
  await db?.drop();
});

const seed = fuzzSeed(process.env.TEST_SEED);
const rng = new Rng(seed);
const who = `0x${'a1'.repeat(20)}`;
let made = 0;

/** Adds (and counts) `count` transactions of `who` (and of a counterparty) at block times drawn from `time()`. */
async function add(count: number, time: () => number): Promise<number> {
  const rows = Array.from({ length: count }, () => {
    made++;
    const network = rng.chance(0.5) ? 'eth' : 'polygon';
    const t = time();
    return { network, hash: `0x${made.toString(16).padStart(64, '0')}`, block: t, t };
  });
  for (let i = 0; i < rows.length; i += 5_000) {
    const chunk = rows.slice(i, i + 5_000);
    await db.sql`insert into evm_transactions (network, hash, block_number, block_hash, tx_index, from_address, to_address, value, gas, nonce, input)
      select network, hash, block, '0xb', 0, ${who}, '0x02', 1, 21000, 0, '0x'
      from json_to_recordset(${chunk as never}::json) as x(network text, hash text, block bigint)`;
    await db.sql`insert into evm_tx_addresses (network, address, block_number, tx_hash, timestamp)
      select network, a, block, hash, t from json_to_recordset(${chunk as never}::json) as x(network text, hash text, block bigint, t bigint),
        unnest(array[${who}, '0x02']) a`;
  }
  return count;
}

/** The ids of a page's items (its JSON text, as the API answers it). */
function ids(json: string): string[] {
  return (JSON.parse(json) as WalletTransaction[]).map((r) => r.id);
}

/** The page as the OFFSET walk reads it. */
async function reference(page: number, limit: number): Promise<string[]> {
  const rows = await db.sql<{ network: string; tx_hash: string }[]>`
    select network, tx_hash from evm_tx_addresses where address = ${who}
    order by timestamp desc, network, block_number desc, tx_hash
    limit ${limit} offset ${(page - 1) * limit}`;
  return rows.map((r) => `${r.network}:${r.tx_hash}`);
}

/** Pages kept across the whole test: after each change they are of an older history. */
const cache = new PageCache(64 * 1024 * 1024);
/** The same pages at every call (so kept ones come back after a change), then random ones. */
const FIXED: [number, number][] = [
  [1, 50],
  [2, 7],
  [30, 100],
  [100, 50],
  [1_300, 1],
  [120, 100],
];

/**
 * Pages deep and shallow, a few beyond the end, each compared with the walk, and each asked
 * again at once: that answer is the kept page, the same text.
 */
async function compareAll(anchors: PageAnchors, total: number, label: string): Promise<void> {
  const hits = cache.hits;
  for (let i = 0; i < 40 + FIXED.length; i++) {
    let page: number;
    let limit: number;
    if (i < FIXED.length) [page, limit] = FIXED[i]!;
    else {
      limit = rng.pick([1, 7, 50, 100]);
      const pages = Math.max(1, Math.ceil(total / limit));
      page = i < FIXED.length + 3 ? pages + i - FIXED.length : 1 + rng.int(pages);
    }
    const got = await walletTransactions(db.sql, who, page, limit, { anchors, cache });
    expect(got.total, `seed ${seed}, ${label}`).toBe(total);
    expect(ids(got.json), `seed ${seed}, ${label}: page ${page} of ${limit}`).toEqual(
      await reference(page, limit),
    );
    const again = await walletTransactions(db.sql, who, page, limit, { anchors, cache });
    expect(again.json).toBe(got.json);
    expect(again.total).toBe(total);
  }
  // Every second asking was answered from the kept page.
  expect(cache.hits - hits, `seed ${seed}, ${label}`).toBeGreaterThanOrEqual(40 + FIXED.length);
}

describe('wallet history pages from kept marks', () => {
  it('answers every page as the OFFSET walk does, through changes of the history', async () => {
    // 12,000 rows over ~3,000 block times, and 1,500 rows at one block time.
    await add(12_000, () => 1_000_000 + rng.int(3_000));
    await add(1_500, () => 1_001_500);
    let total = 13_500;
    const anchors = new PageAnchors(db.sql, { takeAfterDeepPages: false });

    // No marks yet: the walk.
    await compareAll(anchors, total, 'before marks');
    expect(anchors.hits).toBe(0);
    await anchors.take(who);
    await compareAll(anchors, total, 'with marks');
    expect(anchors.hits, `seed ${seed}`).toBeGreaterThan(0);

    const changes: [string, () => Promise<number>][] = [
      ['rows added above', () => add(300, () => 1_004_000 + rng.int(100))],
      ['rows added among', () => add(700, () => 1_000_000 + rng.int(3_000))],
      ['rows added below', () => add(200, () => 900_000 + rng.int(100))],
      [
        'a reorg',
        async () => {
          const [row] = await db.sql<{ block: string }[]>`
            select block_number as block from evm_tx_addresses where address = ${who} and network = 'eth'
            order by timestamp desc limit 1 offset ${SPACING * 3}`;
          const gone =
            await db.sql`delete from evm_tx_addresses where network = 'eth' and block_number >= ${row!.block} returning address`;
          return -gone.filter((r) => r.address === who).length;
        },
      ],
    ];
    for (const [label, change] of changes) {
      const before = anchors.hits;
      total += await change();
      await compareAll(anchors, total, `${label}, old marks`);
      // The marks were of another history: never used until taken again.
      expect(anchors.hits, `seed ${seed}, ${label}`).toBe(before);
      await anchors.take(who);
      await compareAll(anchors, total, `${label}, new marks`);
      expect(anchors.hits, `seed ${seed}, ${label}`).toBeGreaterThan(before);
    }

    // Every row removed and as many added again: a new history, not the old version.
    const hits = anchors.hits;
    await db.sql`delete from evm_tx_addresses where address = ${who}`;
    await add(total, () => 2_000_000 + rng.int(3_000));
    await compareAll(anchors, total, 'removed and added again');
    expect(anchors.hits, `seed ${seed}`).toBe(hits);
  });

  it('answers a kept page only at the version and on the server it was read at', async () => {
    const fresh = new PageCache(1024 * 1024);
    const got = await walletTransactions(db.sql, who, 3, 50, { cache: fresh });
    const kept = fresh.get(who, 3, 50)!;
    expect(kept.json).toBe(got.json);
    const [srv] = await db.sql<{ s: string }[]>`select pg_postmaster_start_time()::text as s`;
    expect(kept.server).toBe(srv!.s);
    // A page kept at this version on this server is answered as it is kept: the statement does
    // not build it (the proof: a page no history could give comes back).
    const marker = '[{"id":"kept"}]';
    fresh.put(who, 3, 50, { ...kept, json: marker });
    expect((await walletTransactions(db.sql, who, 3, 50, { cache: fresh })).json).toBe(marker);
    // The same version from another server (a promoted replica that lost the last commits gives
    // their transaction ids again): built anew.
    fresh.put(who, 3, 50, { ...kept, server: '2000-01-01 00:00:00+00', json: marker });
    expect((await walletTransactions(db.sql, who, 3, 50, { cache: fresh })).json).toBe(got.json);
    // Another version of the history: built anew.
    fresh.put(who, 3, 50, { ...kept, version: String(BigInt(kept.version) - 1n), json: marker });
    expect((await walletTransactions(db.sql, who, 3, 50, { cache: fresh })).json).toBe(got.json);
  });

  it('takes marks by itself after a deep page, one address at a time', async () => {
    const anchors = new PageAnchors(db.sql);
    const [kept] = await db.sql<
      { n: number }[]
    >`select n::int from address_tx_counts where address = ${who}`;
    await walletTransactions(db.sql, who, 40, 100, { anchors });
    for (let i = 0; i < 100 && anchors.hits === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const got = await walletTransactions(db.sql, who, 40, 100, { anchors });
      expect(ids(got.json)).toEqual(await reference(40, 100));
      expect(got.total).toBe(kept!.n);
    }
    expect(anchors.hits).toBeGreaterThan(0);
  });

  it('is planned once per connection: Postgres keeps its generic plan of the page', async () => {
    // A statement Postgres plans anew at every execution costs the planning each time (the page
    // with its limit as a parameter did: its generic plan hashed the whole transactions table,
    // so every execution got a custom plan). On one connection, after Postgres's five custom
    // plans, every further execution must run the kept generic plan, at each limit and page.
    // Postgres chooses by comparing the generic plan's cost with its custom plans' average on
    // that connection, from the table's statistics: both made known here (a connection of its
    // own, with no earlier custom plans; the statistics current, as autovacuum keeps them).
    await db.sql`analyze evm_tx_addresses`;
    await db.sql`analyze evm_transactions`;
    const one = openPool(db.url, { max: 1 });
    try {
      for (const limit of [50, 7]) {
        for (let i = 0; i < 12; i++) await walletTransactions(one, who, 1 + (i % 3) * 40, limit);
      }
      const plans = await one<{ generic: number; custom: number; limit: string }[]>`
        select generic_plans::int as generic, custom_plans::int as custom, substring(statement from 'limit ([0-9]+)') as limit
        from pg_prepared_statements where statement like '%with kept as%' and statement like '%from evm_tx_addresses%'
          and statement not like '%pg_prepared_statements%'
        order by 3`;
      expect(plans.map((p) => [p.limit, p.custom, p.generic])).toEqual([
        ['50', 5, 7],
        ['7', 5, 7],
      ]);
    } finally {
      await one.end();
    }
  });

  it('refuses a limit outside 1 to 100 (the limit is part of the statement)', async () => {
    for (const limit of [0, 101, 1.5, Number.NaN])
      await expect(walletTransactions(db.sql, who, 1, limit)).rejects.toThrow(RangeError);
  });
});
