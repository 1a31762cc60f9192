import { networkInfo } from '../config/networks.js';
import type { Db } from '../db/index.js';
import { EVM_SCOPE } from './labels/types.js';
import { labelSubjects } from '../chains/address/index.js';
import { MALICIOUS_CONTRACTS, isBaseTag, type BaseTag, type Findings } from './tags.js';
import { DEGREE } from './exposure-store.js';

/**
 * What the data says about one address on one network, in one statement where the stored
 * exposure answers (the facts below and its address_exposure rows), else two (no per-row loops):
 *
 * 1. The address itself: its label categories (its network's labels, plus the family-wide 'evm'
 *    ones on an EVM network), whether it deployed a contract that carries any label (EVM), and
 *    its first block time and transaction count in the indexed history (for new_wallet).
 * 2. Its exposure over address_edges (both directions are stored, so one side is enough):
 *    - hop 1: its counterparties, at most `maxCounterparties` of them (most transactions first);
 *    - direct_X: a hop-1 counterparty is X;
 *    - indirect_X: a hop-1 counterparty B has a counterparty C (C not the address, not B) that is X.
 *    The two-hop search walks inward from the labels first: the labelled addresses' own edges
 *    (address_edges primary key), met with the hop-1 set in a hash join; its cost is the sum of
 *    the labelled addresses' degrees. That walk stops after a budget of edges (INWARD_BUDGET; a
 *    labelled hub, a large label set), and then the search walks outward from the hop-1 set
 *    instead: the sum of the hop-1 counterparties' degrees. Both
 *    are exact (each edge is stored in both directions), so the answer is the same either way;
 *    the two-hop neighbourhood is never materialised.
 *    Hop 1 is only sorted (by transactions) when the address has more counterparties than the
 *    cap: below it every counterparty is taken, an index-only scan with no sort (sorting 10,000
 *    text keys was most of the query's time).
 *    "X" for number_of_malicious_contracts_created means "deployed a labelled contract".
 */

export interface AddressFacts {
  findings: Findings;
  /** Block time (Unix s) of the first indexed transaction, or null when never seen. */
  firstSeen: number | null;
  /** Indexed transactions, counted up to `countUpTo` (enough to decide new_wallet). */
  txCount: number;
}

export interface ExposureOptions {
  maxCounterparties: number;
  /** Stop counting transactions here (new_wallet only needs "fewer than M"). */
  countUpTo: number;
  /** Overrides the inward walk's edge budget (0: outward whenever a labelled address has an edge); for checks that both walks agree. */
  inwardBudgetEdges?: number;
  /**
   * Walk the graph even where the stored exposure answers (address_exposure): the reference the
   * stored counts are tested against.
   */
  walk?: boolean;
}

function labelNetworks(network: string): string[] {
  return networkInfo(network)?.family === 'evm' ? [network, EVM_SCOPE] : [network];
}

const onlyTags = (values: readonly string[]): BaseTag[] => values.filter(isBaseTag);

/**
 * How many labelled-address edges the inward two-hop walk may read before it gives way to the
 * outward one: twice the hop-1 set, plus 1,000 (the outward walk reads the hop-1 set times its
 * average degree, so the inward one is tried while it is likely the cheaper).
 */
const INWARD_BUDGET = { perCounterparty: 2, base: 1000 };

export async function addressFacts(
  sql: Db,
  network: string,
  address: string,
  opts: ExposureOptions,
): Promise<AddressFacts> {
  const family = networkInfo(network)?.family;
  const nets = labelNetworks(network);
  const evm = family === 'evm';
  // A network with chain data (EVM or Bitcoin-family): a history and a counterparty graph.
  const chain = evm || family === 'utxo';
  const history = evm ? sql`evm_tx_addresses` : chain ? sql`utxo_tx_addresses` : null;

  // The stored exposure (address_exposure) is read in the same statement as the address's own
  // facts: one round trip for an answer the counts give.
  const readStored = chain && !opts.walk;
  // The statement is prepared once per connection and, with every parameter an equality, Postgres
  // runs its generic plan instead of planning each call (planning was ~0.6 ms of a ~0.7 ms call).
  // That needs the count's limit as a literal (a parameter counts as 10% of the table), and its
  // `order by` (the history index's own order): without it, the generic plan for an address
  // the statistics think common is a sequential scan, stopping after `countUpTo` rows of it.
  if (!Number.isSafeInteger(opts.countUpTo) || opts.countUpTo < 0)
    throw new Error(`countUpTo must be a whole number ≥ 0, not ${opts.countUpTo}`);
  const countLimit = sql.unsafe(String(opts.countUpTo));
  const [self] = await sql<
    {
      categories: string[];
      deployed: boolean;
      first_seen: string | null;
      tx_count: number;
      stored: StoredRow[] | null;
    }[]
  >`
    select
      coalesce((select array_agg(distinct category) from labels where address = any(${labelSubjects(network, address)}::text[]) and network = any(${nets}::text[])), '{}') as categories,
      ${
        evm
          ? sql`exists (select 1 from evm_transactions t join labels l on l.address = t.contract_address and l.network = any(${nets}::text[]) and l.source <> 'derived:deployer'
        where t.network = ${network} and t.from_address = ${address} and t.contract_address is not null)`
          : sql`false`
      } as deployed,
      ${history ? sql`(select timestamp from ${history} where address = ${address} and network = ${network} order by timestamp limit 1)` : sql`null::bigint`} as first_seen,
      ${history ? sql`(select count(*)::int from (select 1 from ${history} where address = ${address} and network = ${network} order by timestamp desc limit ${countLimit}) s)` : sql`0`} as tx_count,
      ${
        readStored
          ? sql`(select json_agg(json_build_object('category', category, 'direct', direct_n::text, 'indirect', indirect_n::text))
        from address_exposure where network = ${network} and address = ${address})`
          : sql`null::json`
      } as stored`;

  const stored = readStored
    ? storedFindings(self!.stored ?? [], opts.maxCounterparties)
    : undefined;
  const exposure = stored
    ? stored
    : chain
      ? await sql<{ level: 'direct' | 'indirect'; category: string }[]>`
    with degree as materialized (
      select count(*) as n from (select 1 from address_edges
        where network = ${network} and address = ${address} and counterparty <> ${address} limit ${opts.maxCounterparties + 1}) s
    ), hop1 as materialized (
      select counterparty as address from address_edges
      where (select n from degree) <= ${opts.maxCounterparties}
        and network = ${network} and address = ${address} and counterparty <> ${address}
      union all
      (select counterparty from address_edges
      where (select n from degree) > ${opts.maxCounterparties}
        and network = ${network} and address = ${address} and counterparty <> ${address}
      order by tx_count desc, counterparty limit ${opts.maxCounterparties})
    ), flagged as materialized (
      select address, category from labels where network = any(${nets}::text[])
    ), budget as materialized (
      select ${opts.inwardBudgetEdges ?? sql`${INWARD_BUDGET.perCounterparty} * (select count(*) from hop1) + ${INWARD_BUDGET.base}`}::bigint as edges
    ), reach as materialized (
      select e.counterparty as via, f.address, f.category from flagged f
        join address_edges e on e.network = ${network} and e.address = f.address
      limit (select edges + 1 from budget)
    ), inward as materialized (
      select (select count(*) from reach) <= (select edges from budget) as ok
    )
    select distinct 'direct' as level, f.category from hop1 h
      join flagged f on f.address = h.address
    union
    select distinct 'indirect', r.category from reach r
      join hop1 h on h.address = r.via
      where (select ok from inward) and r.address <> ${address} and r.address <> h.address
    union
    select distinct 'indirect', f.category from hop1 h
      join address_edges e on e.network = ${network} and e.address = h.address
      join flagged f on f.address = e.counterparty
      where not (select ok from inward) and e.counterparty <> ${address} and e.counterparty <> h.address
    ${
      evm
        ? sql`
    union
    select 'direct', ${MALICIOUS_CONTRACTS} where exists (select 1 from hop1 h
      join evm_transactions t on t.network = ${network} and t.from_address = h.address and t.contract_address is not null
      join labels l on l.address = t.contract_address and l.network = any(${nets}::text[]) and l.source <> 'derived:deployer')
    union
    select 'indirect', ${MALICIOUS_CONTRACTS} where exists (select 1 from hop1 h
      join address_edges e on e.network = ${network} and e.address = h.address
      join evm_transactions t on t.network = ${network} and t.from_address = e.counterparty and t.contract_address is not null
      join labels l on l.address = t.contract_address and l.network = any(${nets}::text[]) and l.source <> 'derived:deployer'
      where e.counterparty <> ${address} and e.counterparty <> h.address)`
        : sql``
    }`
      : [];

  const base = onlyTags(self!.categories);
  if (self!.deployed) base.push(MALICIOUS_CONTRACTS);
  return {
    findings: {
      base,
      direct: onlyTags(exposure.filter((r) => r.level === 'direct').map((r) => r.category)),
      indirect: onlyTags(exposure.filter((r) => r.level === 'indirect').map((r) => r.category)),
    },
    firstSeen: self!.first_seen === null ? null : Number(self!.first_seen),
    txCount: self!.tx_count,
  };
}

/** A row of address_exposure as the facts' statement reads it (counts as decimal strings). */
interface StoredRow {
  category: string;
  direct: string;
  indirect: string;
}

/**
 * The exposure as stored (address_exposure, src/aml/exposure-store.ts): one indexed read (the
 * deployers of labelled contracts carry a derived label, sql/0028, so they count as any). Undefined
 * when the address has more counterparties than the exposure looks at (`max`): then only the
 * busiest `max` count, which the walk decides.
 */
function storedFindings(
  rows: readonly StoredRow[],
  max: number,
): { level: 'direct' | 'indirect'; category: string }[] | undefined {
  const degree = Number(rows.find((r) => r.category === DEGREE)?.direct ?? 0);
  if (degree > max) return undefined;
  const out: { level: 'direct' | 'indirect'; category: string }[] = [];
  for (const r of rows) {
    if (r.category === DEGREE) continue;
    if (BigInt(r.direct) > 0n) out.push({ level: 'direct', category: r.category });
    if (BigInt(r.indirect) > 0n) out.push({ level: 'indirect', category: r.category });
  }
  return out;
}
