import { networkInfo } from '../config/networks.js';
import type { Sql } from '../db/index.js';
import { EVM_SCOPE } from './labels/types.js';
import { MALICIOUS_CONTRACTS, isBaseTag, type BaseTag, type Findings } from './tags.js';

/**
 * What the data says about one address on one network, in two statements (no per-row loops):
 *
 * 1. The address itself: its label categories (its network's labels, plus the family-wide 'evm'
 *    ones on an EVM network), whether it deployed a contract that carries any label (EVM), and
 *    its first block time and transaction count in the indexed history (for new_wallet).
 * 2. Its exposure over address_edges (both directions are stored, so one side is enough):
 *    - hop 1: its counterparties, at most `maxCounterparties` of them (most transactions first);
 *    - direct_X: a hop-1 counterparty is X;
 *    - indirect_X: a hop-1 counterparty B has a counterparty C (C not the address, not B) that is X.
 *    The two-hop search is one join from the hop-1 set outwards (address_edges primary key, then
 *    labels by address) that keeps only distinct categories: its cost is the sum of the hop-1
 *    counterparties' degrees (about 50,000 index entries for 10,000 counterparties of degree 5),
 *    bounded through max_counterparties; the two-hop neighbourhood is never materialised.
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
}

function labelNetworks(network: string): string[] {
  return networkInfo(network)?.family === 'evm' ? [network, EVM_SCOPE] : [network];
}

const onlyTags = (values: readonly string[]): BaseTag[] => values.filter(isBaseTag);

export async function addressFacts(sql: Sql, network: string, address: string, opts: ExposureOptions): Promise<AddressFacts> {
  const family = networkInfo(network)?.family;
  const nets = labelNetworks(network);
  const evm = family === 'evm';
  const history = evm ? sql`evm_tx_addresses` : family === 'utxo' ? sql`utxo_tx_addresses` : null;

  const [self] = await sql<{ categories: string[]; deployed: boolean; first_seen: string | null; tx_count: number }[]>`
    select
      coalesce((select array_agg(distinct category) from labels where address = ${address} and network = any(${nets}::text[])), '{}') as categories,
      ${evm ? sql`exists (select 1 from evm_transactions t join labels l on l.address = t.contract_address and l.network = any(${nets}::text[])
        where t.network = ${network} and t.from_address = ${address} and t.contract_address is not null)` : sql`false`} as deployed,
      ${history ? sql`(select timestamp from ${history} where address = ${address} and network = ${network} order by timestamp limit 1)` : sql`null::bigint`} as first_seen,
      ${history ? sql`(select count(*)::int from (select 1 from ${history} where address = ${address} and network = ${network} limit ${opts.countUpTo}) s)` : sql`0`} as tx_count`;

  const exposure = family === 'evm' || family === 'utxo' ? await sql<{ level: 'direct' | 'indirect'; category: string }[]>`
    with hop1 as materialized (
      select counterparty as address from address_edges
      where network = ${network} and address = ${address} and counterparty <> ${address}
      order by tx_count desc, counterparty limit ${opts.maxCounterparties}
    )
    select distinct 'direct' as level, l.category from hop1 h
      join labels l on l.address = h.address and l.network = any(${nets}::text[])
    union
    select distinct 'indirect', l.category from hop1 h
      join address_edges e on e.network = ${network} and e.address = h.address
      join labels l on l.address = e.counterparty and l.network = any(${nets}::text[])
      where e.counterparty <> ${address} and e.counterparty <> h.address
    ${evm ? sql`
    union
    select 'direct', ${MALICIOUS_CONTRACTS} where exists (select 1 from hop1 h
      join evm_transactions t on t.network = ${network} and t.from_address = h.address and t.contract_address is not null
      join labels l on l.address = t.contract_address and l.network = any(${nets}::text[]))
    union
    select 'indirect', ${MALICIOUS_CONTRACTS} where exists (select 1 from hop1 h
      join address_edges e on e.network = ${network} and e.address = h.address
      join evm_transactions t on t.network = ${network} and t.from_address = e.counterparty and t.contract_address is not null
      join labels l on l.address = t.contract_address and l.network = any(${nets}::text[])
      where e.counterparty <> ${address} and e.counterparty <> h.address)` : sql``}` : [];

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
