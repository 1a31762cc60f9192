import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { listStreams, subscribe, unsubscribe } from '../src/streams/index.js';
import { listTracking } from '../src/liveaml/tracking.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';

/**
 * The per-key subscription counts behind the lists' page_count (sql/0037: a trigger on
 * tracked_addresses) against the rows themselves, after a seeded random run of what the API
 * does: streams and live AML trackings created, updated and deleted, by two keys, on shared
 * addresses.
 */

let db: TestDatabase;
let keys: string[];

beforeAll(async () => {
  db = await freshDatabase();
  keys = [(await createApiKey(db.sql, 'a')).id, (await createApiKey(db.sql, 'b')).id];
});

afterAll(async () => {
  await db?.drop();
});

/** mulberry32: the same run for a seed. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function counted(): Promise<Record<string, number>[]> {
  return db.sql<Record<string, number>[]>`
    select k.id as api_key_id,
      coalesce(c.streams, 0) as streams, coalesce(c.trackings, 0) as trackings,
      (select count(*)::int from tracked_addresses t where t.api_key_id = k.id and t.stream_webhook is not null) as real_streams,
      (select count(*)::int from tracked_addresses t where t.api_key_id = k.id and t.aml_webhook is not null) as real_trackings
    from api_keys k left join subscription_counts c on c.api_key_id = k.id order by k.id`;
}

describe('subscription counts', () => {
  it('equal the rows after every change, for any mix of creates, updates and deletes', async () => {
    const seed = Number(process.env.TEST_SEED ?? Date.now() % 1_000_000);
    const random = rng(seed);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
    const addresses = Array.from({ length: 12 }, (_, i) => `0x${String(i).padStart(40, '0')}`);
    for (let step = 0; step < 300; step++) {
      const key = pick(keys);
      const address = pick(addresses);
      const op = pick(['stream', 'aml', 'both', 'unstream', 'unaml'] as const);
      if (op === 'stream')
        await subscribe(db.sql, key, address, 'evm', { stream: `https://s/${step}` });
      else if (op === 'aml')
        await subscribe(db.sql, key, address, 'evm', { aml: `https://a/${step}` });
      else if (op === 'both')
        await subscribe(db.sql, key, address, 'evm', { stream: 'https://s', aml: 'https://a' });
      else await unsubscribe(db.sql, key, address, op === 'unstream' ? 'stream' : 'aml');
      for (const row of await counted()) {
        expect(row.streams, `seed ${seed}, step ${step}`).toBe(row.real_streams);
        expect(row.trackings, `seed ${seed}, step ${step}`).toBe(row.real_trackings);
      }
    }
    // The lists' totals are these counts, and their pages hold every row once, oldest first.
    for (const key of keys) {
      const all = await listStreams(db.sql, key, 1, 100);
      const paged = [
        ...(await listStreams(db.sql, key, 1, 5)).rows,
        ...(await listStreams(db.sql, key, 2, 5)).rows,
        ...(await listStreams(db.sql, key, 3, 5)).rows,
      ];
      expect(paged).toEqual(all.rows.slice(0, 15));
      expect(all.total).toBe(all.rows.length);
      const tracking = await listTracking(db.sql, key, 1, 100);
      expect(tracking.total).toBe(tracking.rows.length);
      // Past the last page: no rows, the same total.
      expect(await listStreams(db.sql, key, 99, 100)).toEqual({ total: all.total, rows: [] });
    }
  });

  it('answers created_at exactly as toISOString() of the stored time', async () => {
    const [row] = await db.sql<{ stream_created_at: Date }[]>`
      select stream_created_at from tracked_addresses where stream_webhook is not null limit 1`;
    const { rows } = await listStreams(db.sql, keys[0]!, 1, 100);
    const all = [...rows, ...(await listStreams(db.sql, keys[1]!, 1, 100)).rows];
    expect(all.map((r) => r.created_at)).toContain(row!.stream_created_at.toISOString());
  });
});
