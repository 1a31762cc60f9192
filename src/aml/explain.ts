import { createHash } from 'node:crypto';
import type { AmlConfig } from '../config/aml.js';
import { networkInfo } from '../config/networks.js';
import type { Db } from '../db/index.js';
import { formatUnits } from 'viem';
import { EVM_SCOPE } from './labels/types.js';
import { labelSubjects } from '../chains/address/index.js';
import { MALICIOUS_CONTRACTS, parseTag, type AmlTags } from './tags.js';

/**
 * Why an answer of /analyze/aml is what it is (`detail=true`): per true tag, where it comes from.
 * Computed at request time, by walking (it is opt-in): the stored exposure answers whether, this
 * says who. Read-only; the same data as the answer it explains.
 *
 * - a base tag: the address's own labels (source and name: "OFAC SDN (ETH)", a CSV source, an
 *   on-chain list event with its transaction), or for new_wallet its first sighting and count;
 * - direct_X: the counterparties labelled X; indirect_X: the counterparties that have a
 *   counterparty labelled X, each with that labelled address. At most MAX_COUNTERPARTIES each,
 *   with the total;
 * - per counterparty, on EVM networks: the native value sent to it and received from it, internal
 *   transfers included (whole units) and their share of the address's native volume, and the
 *   transactions each way. Token transfers count in `transactions` (the edge's count) but not in
 *   values. Bitcoin-family networks give no per-counterparty value (a transaction's inputs and
 *   outputs do not pair up): null there.
 * - `labels_version` and `scoring_config`: hashes of the label set (count, last id, last change)
 *   and of the scoring configuration that produced the answer, for an audit to tell whether it
 *   would be the same today.
 */

export const MAX_COUNTERPARTIES = 20;

export interface LabelSource {
  source: string;
  name: string;
}

export interface ExplainedCounterparty {
  /** The address's counterparty (one hop). */
  address: string;
  /** The address that carries the label: the counterparty itself (direct), or one of its counterparties (indirect). */
  labelled: string;
  sources: LabelSource[];
  /** Transactions shared with the counterparty (address_edges). */
  transactions: number;
  /** Native value sent to / received from the counterparty, whole units; null where not known. */
  sent: string | null;
  received: string | null;
  /** (sent + received) / the address's native volume, 0 to 1; null where not known. */
  share: number | null;
}

export interface ExplainedTag {
  level: 'base' | 'direct' | 'indirect';
  /** 0: the address itself; 1: a counterparty; 2: a counterparty's counterparty. */
  hops: 0 | 1 | 2;
  sources?: LabelSource[];
  counterparties?: ExplainedCounterparty[];
  counterparty_count?: number;
  first_seen?: number | null;
  transactions?: number;
}

export interface Explanation {
  labels_version: string;
  scoring_config: string;
  tags: Record<string, ExplainedTag>;
}

const shortHash = (prefix: string, value: unknown) =>
  `${prefix}:${createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16)}`;

/** Keys in a fixed order, so that the same configuration always hashes the same. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  return value;
}

export type ExplanationIds = Pick<Explanation, 'labels_version' | 'scoring_config'>;

/**
 * The ids of the label set and of the scoring configuration an answer comes from. One read of
 * the whole labels table: computed once for several explanations of the same moment (a
 * screening's addresses).
 */
export async function explanationIds(sql: Db, config: AmlConfig): Promise<ExplanationIds> {
  const [version] = await sql<{ n: number; last: string | null; changed: Date | null }[]>`
    select count(*)::int as n, max(id)::text as last, max(updated_at) as changed from labels`;
  return {
    labels_version: shortHash('labels', [
      version!.n,
      version!.last,
      version!.changed?.toISOString() ?? null,
    ]),
    scoring_config: shortHash('aml', canonical(config)),
  };
}

export async function explainAnalysis(
  sql: Db,
  config: AmlConfig,
  input: { network: string; address: string; tags: AmlTags },
  ids?: ExplanationIds,
): Promise<Explanation> {
  const { network, address } = input;
  const info = networkInfo(network);
  const evm = info?.family === 'evm';
  const nets = evm ? [network, EVM_SCOPE] : [network];
  const explanation: Explanation = {
    ...(ids ?? (await explanationIds(sql, config))),
    tags: {},
  };
  const wanted = Object.entries(input.tags)
    .filter(([, v]) => v)
    .map(([name]) => ({ name, parsed: parseTag(name) }))
    .filter((t) => t.parsed !== undefined);
  if (wanted.length === 0) return explanation;

  // The address's own labels, by category.
  const own = await sql<{ category: string; source: string; name: string }[]>`
    select category, source, name from labels where address = any(${labelSubjects(network, address)}::text[]) and network = any(${nets}::text[])
    order by category, source`;
  // Native values with each counterparty and the address's volume (EVM only; a reverted
  // transaction moved none): its transactions' own values and the internal transfers (coin a
  // contract's calls moved) it paid or was paid.
  const values = new Map<string, { sent: bigint; received: bigint }>();
  let volume = 0n;
  if (evm) {
    const rows = await sql<{ counterparty: string | null; sent: string; received: string }[]>`
      with moves as (
        select t.from_address as from_a, t.to_address as to_a, t.value
        from (select distinct tx_hash from evm_tx_addresses where address = ${address} and network = ${network}) x
        join evm_transactions t on t.network = ${network} and t.hash = x.tx_hash
        where (t.from_address = ${address} or t.to_address = ${address}) and t.status is distinct from 0
        union all
        select from_address, to_address, value from evm_internal_transfers
        where network = ${network} and from_address = ${address}
        union all
        select from_address, to_address, value from evm_internal_transfers
        where network = ${network} and to_address = ${address} and from_address <> ${address}
      )
      select case when from_a = ${address} then to_a else from_a end as counterparty,
        coalesce(sum(value) filter (where from_a = ${address}), 0)::text as sent,
        coalesce(sum(value) filter (where from_a <> ${address}), 0)::text as received
      from moves group by 1`;
    for (const r of rows) {
      const sent = BigInt(r.sent);
      const received = BigInt(r.received);
      volume += sent + received;
      if (r.counterparty) values.set(r.counterparty, { sent, received });
    }
  }
  const decimals = info?.decimals ?? 18;
  const withValues = (c: {
    address: string;
    labelled: string;
    sources: LabelSource[];
    transactions: number;
  }): ExplainedCounterparty => {
    const v = values.get(c.address);
    if (!evm)
      return { ...c, sent: null, received: null, share: null } satisfies ExplainedCounterparty;
    const sent = v?.sent ?? 0n;
    const received = v?.received ?? 0n;
    return {
      ...c,
      sent: formatUnits(sent, decimals),
      received: formatUnits(received, decimals),
      share:
        volume === 0n ? 0 : Math.round(Number(((sent + received) * 1_000_000n) / volume)) / 1e6,
    };
  };

  for (const { name, parsed } of wanted) {
    const { tag, level } = parsed!;
    if (level === 'base') {
      if (tag === 'new_wallet') {
        const [seen] = await sql<{ first: string | null; n: number }[]>`
          select min(timestamp)::text as first, count(*)::int as n from (
            select timestamp from ${evm ? sql`evm_tx_addresses` : sql`utxo_tx_addresses`}
            where address = ${address} and network = ${network} limit ${config.new_wallet_min_tx}) s`;
        explanation.tags[name] = {
          level,
          hops: 0,
          first_seen: seen?.first === null || seen?.first === undefined ? null : Number(seen.first),
          transactions: seen?.n ?? 0,
        };
      } else if (tag === MALICIOUS_CONTRACTS) {
        const deployed = await deployedLabelled(sql, network, nets, address);
        explanation.tags[name] = {
          level,
          hops: 0,
          sources: deployed.map((d) => ({
            source: d.source,
            name: `${d.name} (contract ${d.contract})`,
          })),
        };
      } else {
        explanation.tags[name] = {
          level,
          hops: 0,
          sources: own
            .filter((l) => l.category === tag)
            .map(({ source, name }) => ({ source, name })),
        };
      }
      continue;
    }
    const { rows, count } = await paths(sql, network, nets, address, tag, level);
    const byKey = new Map<
      string,
      { address: string; labelled: string; transactions: number; sources: LabelSource[] }
    >();
    for (const r of rows) {
      const key = `${r.counterparty}\n${r.labelled}`;
      const entry = byKey.get(key) ?? {
        address: r.counterparty,
        labelled: r.labelled,
        transactions: Number(r.transactions),
        sources: [],
      };
      entry.sources.push({ source: r.source, name: r.name });
      byKey.set(key, entry);
    }
    const all = [...byKey.values()].sort(
      (a, b) => b.transactions - a.transactions || a.address.localeCompare(b.address),
    );
    explanation.tags[name] = {
      level,
      hops: level === 'direct' ? 1 : 2,
      counterparty_count: count,
      counterparties: all.slice(0, MAX_COUNTERPARTIES).map(withValues),
    };
  }
  return explanation;
}

interface PathRow {
  counterparty: string;
  labelled: string;
  transactions: string;
  source: string;
  name: string;
}

/** Rows listed per tag, before grouping by counterparty (a counterparty may have several labels). */
const MAX_ROWS = 1000;

/**
 * The paths behind a direct_ or indirect_ tag: labelled X one hop away (the counterparty itself)
 * or two (a counterparty of it, not the address); for the malicious-contract tag, the deployer of
 * a labelled contract there. The rows (most transactions first, at most MAX_ROWS) and the number
 * of distinct counterparties.
 */
async function paths(
  sql: Db,
  network: string,
  nets: string[],
  address: string,
  tag: string,
  level: 'direct' | 'indirect',
): Promise<{ rows: PathRow[]; count: number }> {
  const labelledAt = level === 'direct' ? sql`h.counterparty` : sql`e.counterparty`;
  const hop2 =
    level === 'direct'
      ? sql``
      : sql`join address_edges e on e.network = ${network} and e.address = h.counterparty
            and e.counterparty <> ${address} and e.counterparty <> h.counterparty`;
  const label =
    tag === MALICIOUS_CONTRACTS
      ? sql`join evm_transactions t on t.network = ${network} and t.from_address = ${labelledAt} and t.contract_address is not null
            join labels l on l.address = t.contract_address and l.network = any(${nets}::text[]) and l.source <> 'derived:deployer'`
      : sql`join labels l on l.address = ${labelledAt} and l.network = any(${nets}::text[]) and l.category = ${tag}`;
  const name =
    tag === MALICIOUS_CONTRACTS
      ? sql`l.name || ' (contract ' || t.contract_address || ')'`
      : sql`l.name`;
  const from = sql`from address_edges h ${hop2} ${label}
    where h.network = ${network} and h.address = ${address} and h.counterparty <> ${address}`;
  const rows = await sql<PathRow[]>`
    select h.counterparty, ${labelledAt} as labelled, h.tx_count::text as transactions, l.source, ${name} as name
    ${from} order by h.tx_count desc, h.counterparty, 2, l.source limit ${MAX_ROWS}`;
  const [counted] = await sql<
    { n: number }[]
  >`select count(distinct h.counterparty)::int as n ${from}`;
  return { rows, count: counted!.n };
}

/** Contracts carrying a label that the address deployed. */
function deployedLabelled(
  sql: Db,
  network: string,
  nets: string[],
  deployer: string,
): Promise<{ contract: string; source: string; name: string }[]> {
  return sql`
    select t.contract_address as contract, l.source, l.name
    from evm_transactions t join labels l on l.address = t.contract_address and l.network = any(${nets}::text[]) and l.source <> 'derived:deployer'
    where t.network = ${network} and t.from_address = ${deployer} and t.contract_address is not null
    order by 1, 2 limit ${MAX_ROWS}`;
}
