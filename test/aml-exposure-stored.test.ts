import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressFacts } from '../src/aml/exposure.js';
import { applyPendingExposure, rebuildExposure } from '../src/aml/exposure-store.js';
import { addEdges, subtractEdges, type TxPairs } from '../src/indexer/edges.js';
import { ensurePartitions } from '../src/indexer/partitions.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';

/**
 * The stored exposure (address_exposure) against today's walk, its reference: random graphs on
 * two networks (an EVM one, where family-wide 'evm' labels count, and a Bitcoin-family one),
 * built and torn down the way the indexer does it (addEdges; subtractEdges for a reorg) while
 * labels are added and removed in between. After every step, every address's direct and
 * indirect findings are the same both ways; at the end, the counts equal a rebuild from scratch.
 * The seed is printed; EXPOSURE_SEED replays one.
 */

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
  await ensurePartitions(db.sql, 'evm', 'eth', []);
  await ensurePartitions(db.sql, 'utxo', 'bitcoin', []);
});
afterAll(async () => {
  await db?.drop();
});

/** mulberry32: a small seeded generator, so that a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NETWORKS = ['eth', 'bitcoin'] as const;
const CATEGORIES = ['mixer', 'sanctioned', 'cybercrime'] as const;
const POOL = Array.from({ length: 24 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`);

async function findings(network: string, address: string, walk: boolean, max: number) {
  const f = await addressFacts(db.sql, network, address, {
    maxCounterparties: max,
    countUpTo: 1,
    walk,
  });
  return {
    direct: [...f.findings.direct].sort(),
    indirect: [...f.findings.indirect].sort(),
  };
}

async function allAgree(step: string): Promise<void> {
  for (const network of NETWORKS)
    for (const address of POOL)
      for (const max of [1000, 3]) {
        const walked = await findings(network, address, true, max);
        const stored = await findings(network, address, false, max);
        expect(stored, `${step}: ${network} ${address} (max ${max})`).toEqual(walked);
      }
}

const tableOf = () =>
  db.sql`select network, address, category, direct_n::text, indirect_n::text from address_exposure
    order by network, address, category`;

describe('stored exposure', () => {
  it('answers what the walk answers through edges added and reorged away and labels added and removed', async () => {
    await randomRun(false);
  }, 240_000);

  it('leaves label changes of addresses above the bound to the job; once it ran, the counts are exact', async () => {
    // Every address with more than 2 in-edges counts as a hub here: many label changes queue.
    await db.sql`update exposure_settings set value = 2 where key = 'defer_fanout_above'`;
    try {
      const queued = await randomRun(true);
      expect(queued).toBeGreaterThan(0);
      expect(
        await db.sql`select 1 from graphile_worker.jobs where task_identifier = 'exposure_apply'`,
      ).not.toHaveLength(0);
    } finally {
      await db.sql`update exposure_settings set value = 1000 where key = 'defer_fanout_above'`;
    }
  }, 240_000);

  /**
   * Random steps on the graph and the labels, compared with the walk after each (deferred: only
   * after the job's work ran, at random points, since queued changes are not counted yet).
   * Returns how many changes were queued for the job.
   */
  async function randomRun(deferred: boolean): Promise<number> {
    const seed = Number(process.env.EXPOSURE_SEED ?? Math.floor(Math.random() * 2 ** 31));
    console.log(`[exposure] EXPOSURE_SEED=${seed}${deferred ? ' (deferred)' : ''}`);
    const rnd = random(seed);
    let queued = 0;
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    /** Batches added per network and not yet reorged away, as the indexer would hold blocks. */
    const batches: Record<
      string,
      { id: number; txs: { hash: string; pairs: [string, string][] }[] }[]
    > = { eth: [], bitcoin: [] };
    let nextTx = 0;

    for (let step = 0; step < 70; step++) {
      const network = pick(NETWORKS);
      const roll = rnd();
      let what: string;
      if (roll < 0.45) {
        // A block: a few transactions, each with one or more pairs (a repeated pair, a reversed one).
        const txs = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => ({
          hash: `t${nextTx++}`,
          pairs: Array.from(
            { length: 1 + Math.floor(rnd() * 3) },
            () => [pick(POOL), pick(POOL)] as [string, string],
          ),
        }));
        await db.sql.begin((tx) =>
          addEdges(
            tx,
            network,
            txs.map((t): TxPairs => ({ timestamp: BigInt(1_700_000_000 + step), pairs: t.pairs })),
          ),
        );
        batches[network]!.push({ id: step, txs });
        what = `block on ${network}`;
      } else if (roll < 0.6 && batches[network]!.length) {
        // A reorg: the newest blocks of the network go, their edges subtracted.
        const depth = 1 + Math.floor(rnd() * Math.min(3, batches[network]!.length));
        const gone = batches[network]!.splice(-depth).flatMap((b) => b.txs);
        const rows = gone.flatMap((t) => t.pairs.map(([a, b]) => ({ tx: t.hash, a, b })));
        await db.sql.begin((tx) =>
          subtractEdges(
            tx,
            network,
            tx`select * from unnest(${rows.map((r) => r.tx)}::text[], ${rows.map((r) => r.a)}::text[], ${rows.map((r) => r.b)}::text[]) as p(tx, a, b)`,
          ),
        );
        what = `reorg of ${depth} on ${network}`;
      } else if (roll < 0.85) {
        // A label: on the network, or family-wide ('evm'), from one of two sources.
        const scope = network === 'eth' && rnd() < 0.5 ? 'evm' : network;
        await db.sql`insert into labels (network, address, category, source)
          values (${scope}, ${pick(POOL)}, ${pick(CATEGORIES)}, ${pick(['a', 'b'])}) on conflict do nothing`;
        what = `label on ${scope}`;
      } else {
        const [row] = await db.sql<
          { id: string }[]
        >`select id from labels order by random() limit 1`;
        if (row) await db.sql`delete from labels where id = ${row.id}`;
        what = 'label removed';
      }
      if (!deferred) {
        await allAgree(`step ${step} (${what}, seed ${seed})`);
        continue;
      }
      const [{ n }] =
        (await db.sql`select count(*)::int as n from exposure_pending`) as unknown as [
          { n: number },
        ];
      queued = Math.max(queued, n);
      if (rnd() < 0.3) {
        await applyPendingExposure(db.sql);
        await allAgree(`step ${step} after the job (${what}, seed ${seed}, deferred)`);
      }
    }
    await applyPendingExposure(db.sql);

    // Several labels in one statement, and all of them removed in one (an import, a --replace).
    await db.sql`insert into labels (network, address, category, source)
      select 'evm', a, 'mixer', 'bulk' from unnest(${POOL.slice(0, 8)}::text[]) a on conflict do nothing`;
    await applyPendingExposure(db.sql);
    await allAgree(`bulk insert (seed ${seed})`);
    await db.sql`delete from labels where source = 'bulk'`;
    await applyPendingExposure(db.sql);
    await allAgree(`bulk delete (seed ${seed})`);

    // The counts kept step by step are the counts computed from scratch.
    const kept = await tableOf();
    for (const network of NETWORKS) await rebuildExposure(db.sql, network);
    expect(await tableOf()).toEqual(kept);
    return queued;
  }

  it('an edge and a label that meet in two concurrent transactions are counted once', async () => {
    const [x, l, y] = ['0x' + 'a1'.repeat(20), '0x' + 'a2'.repeat(20), '0x' + 'a3'.repeat(20)];
    await db.sql.begin((tx) =>
      addEdges(tx, 'eth', [{ timestamp: 1_800_000_000n, pairs: [[y, x]] }]),
    );
    // The indexer's transaction adds x → l and holds on; meanwhile l is labelled in another.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let added!: () => void;
    const edgeIn = new Promise<void>((resolve) => (added = resolve));
    const indexer = db.sql.begin(async (tx) => {
      await addEdges(tx, 'eth', [{ timestamp: 1_800_000_001n, pairs: [[x, l]] }]);
      added();
      await held;
    });
    await edgeIn;
    const label =
      db.sql`insert into labels (network, address, category, source) values ('eth', ${l}, 'mixer', 'race')`.execute();
    await new Promise((r) => setTimeout(r, 200)); // the label's statement is running by now
    release();
    await Promise.all([indexer, label]);
    for (const address of [x, y, l])
      expect(await findings('eth', address, false, 1000), address).toEqual(
        await findings('eth', address, true, 1000),
      );
    expect(await findings('eth', x, false, 1000)).toEqual({ direct: ['mixer'], indirect: [] });
    expect(await findings('eth', y, false, 1000)).toEqual({ direct: [], indirect: ['mixer'] });
  });
});
