import postgres from 'postgres';
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
    let halfApplied = 0;
    let turnedAround = 0;
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    /** Batches added per network and not yet reorged away, as the indexer would hold blocks. */
    const batches: Record<
      string,
      { id: number; txs: { hash: string; pairs: [string, string][] }[] }[]
    > = { eth: [], bitcoin: [] };
    let nextTx = 0;

    for (let step = 0; step < (deferred ? 120 : 70); step++) {
      const network = pick(NETWORKS);
      const roll = rnd();
      // In deferred runs, often: a queued change to reverse, if there is one (below).
      const turning =
        deferred && rnd() < 0.6
          ? (
              await db.sql<{ network: string; address: string; category: string; sign: number }[]>`
                select network, address, category, sign from exposure_pending order by random() limit 1`
            )[0]
          : undefined;
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
      } else if (turning) {
        // A queued change reversed, maybe half applied: the label removed again, or put back.
        const { network: n, address, category, sign } = turning;
        if (sign === 1)
          await db.sql`delete from labels where address = ${address} and category = ${category}`;
        else
          await db.sql`insert into labels (network, address, category, source)
            values (${n}, ${address}, ${category}, 'back') on conflict do nothing`;
        what = `queued change on ${n} reversed`;
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
      const chunk = 1 + Math.floor(rnd() * 2);
      const roll2 = rnd();
      if (roll2 < 0.15) {
        await applyPendingExposure(db.sql, { chunk });
        await allAgree(`step ${step} after the job (${what}, seed ${seed}, deferred)`);
      } else if (roll2 < 0.6) {
        // Part of the job: a few chunks, then edges and labels change around half-applied changes.
        await applyPendingExposure(db.sql, { chunk, transactions: 1 + Math.floor(rnd() * 2) });
        const [half] = await db.sql<{ upward: number; downward: number }[]>`
          select count(*) filter (where upward and edge is not null)::int as upward,
                 count(*) filter (where not upward)::int as downward from exposure_pending`;
        halfApplied += half!.upward;
        turnedAround += half!.downward;
      }
    }
    await applyPendingExposure(db.sql);
    if (deferred)
      console.log(
        `[exposure] seed ${seed}: at most ${queued} queued; seen ${halfApplied} times half applied, ${turnedAround} times turned around`,
      );

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

  it('applies a hub label in chunks: half applied, each path counts as its chunk says; reversed, it turns around', async () => {
    // A hub with six counterparties k1..k6, each with one of its own (x1..x6); with a bound of 2
    // its label is the job's, applied here two or one counterparties per transaction.
    const a = (prefix: string, i: number) => `0x${prefix}${String(i).padStart(38, '0')}`;
    const hub = a('ee', 0);
    const k = (i: number) => a('c1', i);
    const x = (i: number) => a('d1', i);
    const block = (pairs: [string, string][], t: number) =>
      db.sql.begin((tx) => addEdges(tx, 'eth', [{ timestamp: BigInt(t), pairs }]));
    const pending = async () =>
      (
        await db.sql<{ sign: number; upward: boolean; edge: string | null }[]>`
        select sign, upward, edge from exposure_pending where address = ${hub}`
      )[0];
    const stored = async (address: string) => findings('eth', address, false, 1000);
    const none = { direct: [], indirect: [] };
    const direct = { direct: ['mixer'], indirect: [] };
    const indirect = { direct: [], indirect: ['mixer'] };
    await block(
      [1, 2, 3, 4, 5, 6].flatMap((i): [string, string][] => [
        [k(i), hub],
        [x(i), k(i)],
      ]),
      1_900_000_000,
    );
    await db.sql`update exposure_settings set value = 2 where key = 'defer_fanout_above'`;
    try {
      await db.sql`insert into labels (network, address, category, source) values ('eth', ${hub}, 'mixer', 'hub')`;
      expect(await pending()).toEqual({ sign: 1, upward: true, edge: null });
      expect(await applyPendingExposure(db.sql, { chunk: 2, transactions: 1 })).toBe(0);
      expect(await pending()).toEqual({ sign: 1, upward: true, edge: k(2) });
      // A worker that is stopping applies nothing more and queues the job again for the rest.
      await db.sql`select graphile_worker.remove_job('exposure_apply')`;
      const stopping = new AbortController();
      stopping.abort();
      expect(await applyPendingExposure(db.sql, { signal: stopping.signal })).toBe(0);
      expect(await pending()).toEqual({ sign: 1, upward: true, edge: k(2) });
      expect(
        await db.sql`select 1 from graphile_worker.jobs where task_identifier = 'exposure_apply'`,
      ).toHaveLength(1);
      // Done: k1, k2 and theirs. Not yet: k3..k6 and theirs.
      for (const i of [1, 2]) expect(await stored(k(i))).toEqual(direct);
      for (const i of [1, 2]) expect(await stored(x(i))).toEqual(indirect);
      for (const i of [3, 6]) expect(await stored(k(i))).toEqual(none);
      for (const i of [3, 6]) expect(await stored(x(i))).toEqual(none);

      // The indexer meanwhile: a new counterparty of the hub below the edge (done: counted) and
      // one above it (not yet), and new counterparties of a done and of a pending one.
      const [low, high, y1, y3] = [a('c0', 9), a('c9', 9), a('f1', 1), a('f1', 3)];
      await block(
        [
          [low, hub],
          [high, hub],
          [y1, k(1)],
          [y3, k(3)],
        ],
        1_900_000_001,
      );
      expect(await stored(low)).toEqual(direct);
      expect(await stored(high)).toEqual(none);
      expect(await stored(y1)).toEqual(indirect);
      expect(await stored(y3)).toEqual(none);

      // Removed while half applied: the row turns around; what was done is undone from the top.
      await db.sql`delete from labels where address = ${hub} and source = 'hub'`;
      expect(await pending()).toEqual({ sign: -1, upward: false, edge: k(2) });
      expect(await stored(k(1))).toEqual(direct);
      await applyPendingExposure(db.sql, { chunk: 1, transactions: 1 });
      expect(await pending()).toEqual({ sign: -1, upward: false, edge: k(1) });
      expect(await stored(k(2))).toEqual(none);
      expect(await stored(x(2))).toEqual(none);
      expect(await stored(k(1))).toEqual(direct);
      expect(await stored(high)).toEqual(none);

      // Labelled again before that finished: turned around once more, the keys above k1 to do.
      await db.sql`insert into labels (network, address, category, source) values ('eth', ${hub}, 'mixer', 'hub')`;
      expect(await pending()).toEqual({ sign: 1, upward: true, edge: k(1) });
      // A reorg takes a done counterparty's edges away, and a pending one's.
      await db.sql.begin((tx) =>
        subtractEdges(
          tx,
          'eth',
          tx`select * from unnest(${['r', 'r']}::text[], ${[low, high]}::text[], ${[hub, hub]}::text[]) as p(tx, a, b)`,
        ),
      );
      expect(await stored(low)).toEqual(none);
      expect(await applyPendingExposure(db.sql, { chunk: 2 })).toBe(1);
      expect(await pending()).toBeUndefined();
      for (const address of [
        hub,
        low,
        high,
        y1,
        y3,
        ...[1, 2, 3, 4, 5, 6].flatMap((i) => [k(i), x(i)]),
      ])
        expect(await stored(address), address).toEqual(await findings('eth', address, true, 1000));
      expect(await stored(k(4))).toEqual(direct);
      expect(await stored(y3)).toEqual(indirect);
    } finally {
      await db.sql`update exposure_settings set value = 1000 where key = 'defer_fanout_above'`;
    }
    const kept = await tableOf();
    await rebuildExposure(db.sql, 'eth');
    expect(await tableOf()).toEqual(kept);
  });

  it('a queued change hears of its reversal after every edge of the hub was reorged away', async () => {
    const hub = `0x${'ab'.repeat(20)}`;
    const ks = [1, 2, 3].map((i) => `0x${'ac'.repeat(19)}${String(i).padStart(2, '0')}`);
    const later = `0x${'ad'.repeat(20)}`;
    const rows = (pairs: string[][]) =>
      db.sql`select * from unnest(${pairs.map(() => 'q')}::text[], ${pairs.map((p) => p[0]!)}::text[], ${pairs.map((p) => p[1]!)}::text[]) as p(tx, a, b)`;
    await db.sql.begin((tx) =>
      addEdges(tx, 'eth', [{ timestamp: 1_900_000_100n, pairs: ks.map((k) => [k, hub] as const) }]),
    );
    await db.sql`update exposure_settings set value = 2 where key = 'defer_fanout_above'`;
    try {
      for (const category of ['mixer', 'cybercrime']) {
        // Added (queued), or removed (queued) after a label the counts know.
        if (category === 'cybercrime') {
          await db.sql`insert into labels (network, address, category, source) values ('eth', ${hub}, ${category}, 'gone')`;
          await applyPendingExposure(db.sql);
          await db.sql`delete from labels where address = ${hub} and source = 'gone'`;
        } else
          await db.sql`insert into labels (network, address, category, source) values ('eth', ${hub}, ${category}, 'gone')`;
        expect(await db.sql`select 1 from exposure_pending where address = ${hub}`).toHaveLength(1);
        // The hub's edges go in a reorg; then the change is reversed; then a new edge comes.
        await db.sql.begin((tx) => subtractEdges(tx, 'eth', rows(ks.map((k) => [k, hub]))));
        if (category === 'cybercrime')
          await db.sql`insert into labels (network, address, category, source) values ('eth', ${hub}, ${category}, 'gone')`;
        else await db.sql`delete from labels where address = ${hub} and source = 'gone'`;
        expect(await db.sql`select 1 from exposure_pending where address = ${hub}`).toHaveLength(0);
        await db.sql.begin((tx) =>
          addEdges(tx, 'eth', [{ timestamp: 1_900_000_101n, pairs: [[later, hub]] }]),
        );
        await applyPendingExposure(db.sql);
        expect(await findings('eth', later, false, 1000)).toEqual(
          await findings('eth', later, true, 1000),
        );
        await db.sql.begin((tx) => subtractEdges(tx, 'eth', rows([[later, hub]])));
        await db.sql`delete from labels where address = ${hub}`;
        await db.sql.begin((tx) =>
          addEdges(tx, 'eth', [
            { timestamp: 1_900_000_100n, pairs: ks.map((k) => [k, hub] as const) },
          ]),
        );
      }
    } finally {
      await db.sql`update exposure_settings set value = 1000 where key = 'defer_fanout_above'`;
    }
    const kept = await tableOf();
    await rebuildExposure(db.sql, 'eth');
    expect(await tableOf()).toEqual(kept);
  });

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

  it('a label change follows the edges through their index whatever the planner believes', async () => {
    // Without statistics (address_edges bulk-loaded, not analysed yet), Postgres once planned a
    // 1,000-label insert on 10,000,000 edges as the labels joined with every edge, and filled the
    // disk (sql/0053). Here a session where a table scan costs nothing, which is what a planner
    // believing a table tiny chooses: a label change must still read no edge by scanning.
    const hub = '0x' + 'b0'.repeat(20);
    const spokes = Array.from({ length: 6 }, (_, i) => '0x' + `b${i + 1}`.repeat(20));
    const far = '0x' + 'c0'.repeat(20);
    await db.sql.begin((tx) =>
      addEdges(tx, 'eth', [
        {
          timestamp: 1_900_000_000n,
          pairs: [...spokes.map((s) => [s, hub] as [string, string]), [far, spokes[0]!]],
        },
      ]),
    );
    const scansFree = postgres(db.url, {
      max: 1,
      onnotice: () => {},
      connection: { seq_page_cost: '0', cpu_tuple_cost: '0', cpu_operator_cost: '0' },
    });
    // Counted by the session's own transaction statistics (pg_stat_xact_user_tables), read before
    // and after in one transaction: other sessions' figures, flushed whenever they are, never
    // count here (they did in pg_stat_user_tables, once 440,045 rows of the earlier tests').
    const edgesScannedBy = async (run: (tx: postgres.TransactionSql) => Promise<unknown>) => {
      const read = async (tx: postgres.TransactionSql) => {
        const [r] = await tx<{ n: string }[]>`
          select coalesce(sum(seq_tup_read), 0)::text as n from pg_stat_xact_user_tables
          where relname like 'address_edges%'`;
        return Number(r!.n);
      };
      return scansFree.begin(async (tx) => {
        const before = await read(tx);
        await run(tx);
        return (await read(tx)) - before;
      });
    };
    try {
      // The planner in that session does scan the edges when nothing stops it.
      expect(
        await edgesScannedBy(
          (tx) =>
            tx`select count(*) from address_edges where network = 'eth' and counterparty = ${hub}`,
        ),
      ).toBeGreaterThan(0);

      const scanned = await edgesScannedBy(async (tx) => {
        await tx`insert into labels (network, address, category, source)
          values ('eth', ${hub}, 'mixer', 'plans'), ('evm', ${far}, 'sanctioned', 'plans')`;
        await tx`delete from labels where source = 'plans' and address = ${far}`;
        // A hub's change in chunks (the exposure_apply job's function), rolled back.
        await tx
          .savepoint(async (sp) => {
            await sp`select exposure_apply_label_chunk('eth', ${hub}, 'cybercrime', 1, ${spokes.slice(0, 3)}::text[])`;
            throw new Error('rolled back');
          })
          .catch((err: Error) => {
            if (err.message !== 'rolled back') throw err;
          });
      });
      expect(scanned).toBe(0);
      for (const address of [...spokes, far])
        expect(await findings('eth', address, false, 1000), address).toEqual(
          await findings('eth', address, true, 1000),
        );
      expect(await findings('eth', far, false, 1000)).toEqual({ direct: [], indirect: ['mixer'] });
    } finally {
      await scansFree.end();
      await db.sql`delete from labels where source = 'plans'`;
    }
  });
});
