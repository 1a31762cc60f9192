import type { Sql, Db } from '../db/index.js';
import { NETWORKS } from '../config/networks.js';
import { enqueueJob, JOBS } from '../db/jobs.js';
import { queueLiveAmlRescan } from './rescan-queue.js';

/**
 * The stored exposure (table address_exposure, sql/0025_address_exposure.sql): per network,
 * address and label category, how many counterparties carry the category (direct_n) and how many
 * two-hop paths end at an address that does (indirect_n). A request reads one row per category
 * instead of walking two hops of the graph (src/aml/exposure.ts).
 *
 * A row of category '*' holds the address's degree (direct_n: its counterparties), so that one
 * read says whether the address has more counterparties than the exposure looks at.
 *
 * Kept exact, in the transaction of each change:
 * - edges the indexer adds or removes (a batch T of address_edges rows, `exposureEdgesChanged`),
 *   as the difference in counts: the paths that use a row of T;
 * - labels, by the triggers of sql/0025 and 0027 (a category that becomes true or false for an
 *   address on a network changes the counts of its counterparties and of theirs); the deployer of
 *   a labelled contract carries a derived label (sql/0028), so it counts the same way.
 * Their cost: an edge batch reads the labels and stored counts of its own addresses, plus the
 * in-edges of the addresses it links to a labelled one; a label change reads the in-edges of the
 * labelled address and of each of them (two hops inward). On an address with more in-edges than
 * aml.exposure_defer_above that is left to the exposure_apply job (applyPendingExposure), in
 * chunks of the hub's counterparties, each in a transaction of its own (sql/0045; README, AML:
 * bounds).
 */

/**
 * Updates the counts for address_edges rows `rows` that were just inserted (sign 1: the table
 * holds them now) or deleted (sign -1: it no longer does), on one network.
 */
export async function exposureEdgesChanged(
  tx: Db,
  network: string,
  rows: readonly { a: string; b: string }[],
  sign: 1 | -1,
): Promise<void> {
  if (rows.length === 0) return;
  // After a label transaction on this network commits, not beside it (sql/0025: exposure_lock).
  await tx`select exposure_lock(${network})`;
  const a = rows.map((r) => r.a);
  const b = rows.map((r) => r.b);
  const changed = await tx<{ address: string; category: string; zero: boolean }[]>`
    with t as (
      select * from unnest(${a}::text[], ${b}::text[]) as t(a, b)
    ), cats as (
      -- the categories of the batch's addresses, with the state of a hub's pending change: a path
      -- through a labelled address counts its category as its key's chunk has it (sql/0045)
      select * from exposure_known_categories(${network}, array(select a from t union select b from t))
    ), dd as (
      select t.a as address, c.category, count(*) as n
      from t join cats c on c.address = t.b and exposure_counted(c.p_sign, c.p_upward, c.p_edge, t.a)
      group by 1, 2
    ), degree as (
      -- category '*': the address's counterparties, whatever they carry (its degree)
      select t.a as address, '*' as category, count(*) as n from t group by 1
    ), dterm as (
      -- D(B) for the rows' far ends: as stored, plus this batch's own rows when they were added.
      select address, category, sum(n) as n from (
        select x.address, x.category, x.direct_n as n from address_exposure x
        where x.network = ${network} and x.address in (select b from t) and x.direct_n <> 0 and x.category <> '*'
        union all
        select address, category, n from dd where ${sign}::int > 0 and address in (select b from t)
      ) s group by 1, 2
    ), first_hop as (
      -- paths A → B → C over a row A → B of the batch
      select t.a as address, d.category, sum(d.n) as n from t join dterm d on d.address = t.b group by 1, 2
    ), back as (
      -- less the paths A → B → A among them (C must not be A)
      select t.a as address, c.category, count(*) as n
      from t join cats c on c.address = t.a and exposure_counted(c.p_sign, c.p_upward, c.p_edge, t.b)
      where exists (select 1 from address_edges e where e.network = ${network} and e.address = t.b and e.counterparty = t.a)
         or exists (select 1 from t r where r.a = t.b and r.b = t.a)
      group by 1, 2
    ), labelled_far as materialized (
      -- the rows B → C of the batch whose C carries a category, taken first: joined to the edges
      -- before them, a labelled hub's batch met every edge of the hub for each of its rows
      -- (3,000 rows x 6,000 edges: 42 s for one batch)
      select t.a, t.b, c.category
      from t join cats c on c.address = t.b and exposure_counted(c.p_sign, c.p_upward, c.p_edge, t.a)
    ), second_hop as (
      -- paths A → B → C over a row B → C of the batch and a row A → B that is not in it
      select e.address, l.category, count(*) as n
      from labelled_far l
        join address_edges e on e.network = ${network} and e.counterparty = l.a and e.address <> l.b
      where not exists (select 1 from t r where r.a = e.address and r.b = l.a)
      group by 1, 2
    ), delta as (
      select address, category, n as dn, 0::numeric as inn from dd
      union all select address, category, n, 0 from degree
      union all select address, category, 0, n from first_hop
      union all select address, category, 0, -n from back
      union all select address, category, 0, n from second_hop
    )
    insert into address_exposure as x (network, address, category, direct_n, indirect_n)
    select ${network}, address, category, ${sign}::int * sum(dn), ${sign}::int * sum(inn) from delta
    group by 2, 3 having sum(dn) <> 0 or sum(inn) <> 0
    on conflict (network, address, category) do update set
      direct_n = x.direct_n + excluded.direct_n, indirect_n = x.indirect_n + excluded.indirect_n
    returning x.address, x.category, (x.direct_n = 0 and x.indirect_n = 0) as zero`;
  const zero = changed.filter((r) => r.zero);
  if (zero.length)
    await tx`delete from address_exposure x using unnest(${zero.map((r) => r.address)}::text[], ${zero.map((r) => r.category)}::text[]) as z(address, category)
      where x.network = ${network} and x.address = z.address and x.category = z.category
        and x.direct_n = 0 and x.indirect_n = 0`;
}

/** The category of the row that holds an address's degree (its number of counterparties). */
export const DEGREE = '*';

/** Recomputes a network's counts from its edges and labels (a graph written by other means). */
export async function rebuildExposure(sql: Db, network: string): Promise<void> {
  await sql`select exposure_rebuild(${network})`;
}

/** Forgets a network's counts (its chain data is being forgotten). */
export async function forgetExposure(tx: Db, network: string): Promise<void> {
  await tx`delete from address_exposure where network = ${network}`;
}

/**
 * Tells the database what its exposure triggers read: which networks are EVM (label scope
 * 'evm'), from config/networks.json, and above how many in-edges a label change is left to the
 * job (aml.exposure_defer_above). Idempotent; run at each start.
 */
export async function syncExposureSettings(sql: Db, deferAbove: number): Promise<void> {
  const entries = Object.values(NETWORKS);
  await sql`
    insert into network_families (network, family)
    select * from unnest(${entries.map((n) => n.symbol)}::text[], ${entries.map((n) => n.family)}::text[])
    on conflict (network) do update set family = excluded.family where network_families.family <> excluded.family`;
  await sql`
    insert into exposure_settings (key, value) values ('defer_fanout_above', ${deferAbove})
    on conflict (key) do update set value = excluded.value where exposure_settings.value <> excluded.value`;
}

/** Counterparties of a hub per transaction of the exposure_apply job (sql/0045). */
export const EXPOSURE_APPLY_CHUNK = 1000;

export interface ApplyPendingOptions {
  /** Counterparties of the hub per transaction (default EXPOSURE_APPLY_CHUNK). */
  chunk?: number;
  /** At most this many transactions, then return with the rest still pending. */
  transactions?: number;
  /**
   * The worker is stopping (graphile-worker's abortSignal): stop after the chunk in hand and queue
   * the job again for what is left.
   */
  signal?: AbortSignal;
}

/**
 * The job's work (graphile-worker task exposure_apply): applies the queued label changes of hubs,
 * oldest first, each in chunks of the hub's counterparties in address order (sql/0045), every
 * chunk in a transaction of its own under its network's exposure lock (taken before the queued
 * row is read, as the label triggers do): the network's indexer waits for one chunk at most, not
 * for the whole hub. A change cancelled meanwhile is gone and skipped; one reversed meanwhile is
 * undone where it was done. Returns how many changes were completed; when a chunk was applied,
 * the live AML rescan follows (the counts changed).
 */
export async function applyPendingExposure(
  sql: Sql,
  opts: ApplyPendingOptions = {},
): Promise<number> {
  const chunk = opts.chunk ?? EXPOSURE_APPLY_CHUNK;
  if (!Number.isInteger(chunk) || chunk < 1) throw new RangeError(`chunk ${chunk}`);
  let left = opts.transactions ?? Number.POSITIVE_INFINITY;
  let completed = 0;
  const changed = new Set<string>();
  for (; left > 0; left--) {
    const [next] = await sql<{ network: string; address: string; category: string }[]>`
      select network, address, category from exposure_pending order by queued_at, network, address, category limit 1`;
    if (!next) break;
    if (opts.signal?.aborted) {
      await enqueueJob(sql, 'exposure_apply', {}, { jobKey: JOBS.exposure_apply.task });
      break;
    }
    const { network, address, category } = next;
    await sql.begin(async (tx) => {
      await tx`select exposure_lock(${network})`;
      const [row] = await tx<{ sign: number; upward: boolean; edge: string | null }[]>`
        select sign, upward, edge from exposure_pending
        where network = ${network} and address = ${address} and category = ${category}`;
      if (!row) return;
      // Upward: the next keys above the edge (from the first when none is done yet). Not upward:
      // the keys at or below it, from the top, one more than the chunk: that one is where the
      // edge goes (it stays to do). Fewer than that: this chunk is the last.
      const take = row.upward ? chunk : chunk + 1;
      const range =
        row.upward && row.edge === null
          ? tx``
          : row.upward
            ? tx`and address > ${row.edge}`
            : tx`and address <= ${row.edge}`;
      const keys = (
        await tx<{ address: string }[]>`
          select address from address_edges where network = ${network} and counterparty = ${address} ${range}
          order by address ${row.upward ? tx`asc` : tx`desc`} limit ${take}`
      ).map((k) => k.address);
      const now = keys.slice(0, chunk);
      if (now.length > 0) {
        await tx`select exposure_apply_label_chunk(${network}, ${address}, ${category}, ${row.sign}::int, ${now}::text[])`;
        changed.add(category);
      }
      if (keys.length < take) {
        await tx`delete from exposure_pending
          where network = ${network} and address = ${address} and category = ${category}`;
        completed += 1;
      } else
        await tx`update exposure_pending set edge = ${row.upward ? now.at(-1)! : keys[chunk]!}
          where network = ${network} and address = ${address} and category = ${category}`;
    });
  }
  await queueLiveAmlRescan(sql, changed);
  return completed;
}
