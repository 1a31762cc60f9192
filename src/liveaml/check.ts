import { networkInfo } from '../config/networks.js';
import type { Sql, TransactionSql } from '../db/index.js';
import { log } from '../log.js';
import { CHAIN_EVENT_COLUMNS, enqueueEvents } from '../webhooks/enqueue.js';
import {
  type AmlTags,
  analyzeAddress,
  buildTags,
  EVM_SCOPE,
  isBaseTag,
  trueTags,
} from '../aml/index.js';
import type { AmlConfig } from '../config/aml.js';
import { recordEvent, type Trigger } from './events.js';
import { labelSubjects } from '../chains/address/index.js';

/**
 * The live AML risk worker (task `liveaml_check`, enqueued by src/liveaml/enqueue-checks.ts): one
 * transaction of one tracked address. When the transaction brings a risk tag, it records a
 * live AML event and enqueues the live AML webhook, both in one database transaction.
 */

/** The risk tags of an analysis (true, new_wallet aside), sorted. */
export const riskTagsOf = (tags: AmlTags) =>
  Object.entries(tags)
    .filter(([name, v]) => v && name !== 'new_wallet')
    .map(([name]) => name)
    .sort();

/** Records the risk tags now known for a tracked address (merged with what was known). */
export async function rememberRiskTags(
  sql: Sql | TransactionSql,
  trackedId: string,
  tags: AmlTags,
): Promise<void> {
  await sql`
    insert into liveaml_state (tracked_id, risk_tags) values (${trackedId}, ${riskTagsOf(tags)})
    on conflict (tracked_id) do update set
      risk_tags = (select array_agg(distinct t order by t) from unnest(liveaml_state.risk_tags || excluded.risk_tags) t),
      updated_at = now()`;
}

export interface LiveAmlDeps {
  sql: Sql;
  aml: AmlConfig;
  /** max_attempts of the webhook's delivery job (as for streams). */
  webhookMaxAttempts: number;
}

export interface LiveAmlCheck {
  trackedId: string;
  network: string;
  txHash: string;
  blockNumber: bigint;
  blockHash: string;
  /** A past transaction checked by a replay (liveaml_replay): the webhook says "replay": true. */
  replay?: boolean;
}

/** The spec's live AML webhook. `score` is analyzeAddress's (100 = highest risk). */
export interface LiveAmlWebhook {
  address: string;
  score: number;
  /** Every AML tag of the address now (base, direct_, indirect_). */
  tags: AmlTags;
  hash: string;
  block_number: number;
  /** Only the tags true for this transaction. */
  hash_tags: AmlTags;
  /** Not in the spec: which counterparty of the transaction brought each of those tags. */
  triggered_by: Trigger[];
  created_at: string;
  /** Not in the spec: a past transaction, checked because the tracking began with from_block. */
  replay?: true;
}

/** At most this many triggers per tag (a counterparty that is a hub may reach thousands). */
export const MAX_TRIGGERS_PER_TAG = 10;

export type CheckOutcome = 'skipped' | 'clean' | 'recorded' | 'duplicate';

const labelNetworks = (network: string) =>
  networkInfo(network)?.family === 'evm' ? [network, EVM_SCOPE] : [network];

/**
 * The tags a transaction brings to `address`, set-based: the address's own labels when the
 * transaction has a counterparty of it (a labelled address that exchanges value does something
 * risky each time: X), and what its counterparties bring. Its counterparties in this transaction
 * are the other addresses the transaction touched (the family's address table) that are also
 * counterparties of `address` in address_edges (so, as for exposure: sender/recipient and
 * token-transfer parties on EVM, spender/payee pairs on Bitcoin-family chains). A counterparty
 * labelled X gives direct_X; a counterparty with a counterparty labelled X (not `address`, not
 * itself) gives indirect_X. Only true tags are returned.
 */
export async function hashTagsOf(
  sql: Sql,
  check: Omit<LiveAmlCheck, 'trackedId' | 'blockHash'> & {
    address: string;
    family: 'evm' | 'utxo';
  },
): Promise<{ tags: AmlTags; triggeredBy: Trigger[] }> {
  const table = check.family === 'evm' ? sql`evm_tx_addresses` : sql`utxo_tx_addresses`;
  const nets = labelNetworks(check.network);
  const rows = await sql<
    {
      level: 'base' | 'direct' | 'indirect';
      category: string;
      counterparty: string;
      labelled: string;
      sources: string[];
    }[]
  >`
    with cp as materialized (
      select distinct a.address from ${table} a
      join address_edges e on e.network = ${check.network} and e.address = ${check.address} and e.counterparty = a.address
      where a.network = ${check.network} and a.block_number = ${check.blockNumber.toString()} and a.tx_hash = ${check.txHash}
        and a.address <> ${check.address}
    ), hits as (
      select 'base' as level, l.category, ${check.address} as counterparty, ${check.address} as labelled, l.source
        from labels l where l.address = any(${labelSubjects(check.network, check.address)}::text[])
          and l.network = any(${nets}::text[]) and exists (select 1 from cp)
      union all
      select 'direct' as level, l.category, cp.address as counterparty, cp.address as labelled, l.source from cp
        join labels l on l.address = cp.address and l.network = any(${nets}::text[])
      union all
      select 'indirect', l.category, cp.address, e.counterparty, l.source from cp
        join address_edges e on e.network = ${check.network} and e.address = cp.address
        join labels l on l.address = e.counterparty and l.network = any(${nets}::text[])
        where e.counterparty <> ${check.address} and e.counterparty <> cp.address
    ), grouped as (
      select level, category, counterparty, labelled, array_agg(distinct source order by source) as sources,
        row_number() over (partition by level, category order by counterparty, labelled) as n
      from hits group by 1, 2, 3, 4
    )
    select level, category, counterparty, labelled, sources from grouped
    where n <= ${MAX_TRIGGERS_PER_TAG} order by level, category, counterparty, labelled`;
  const known = rows.filter((r) => isBaseTag(r.category));
  const of = (level: string) =>
    known
      .filter((r) => r.level === level)
      .map((r) => r.category)
      .filter(isBaseTag);
  const tags = trueTags(
    buildTags({ base: of('base'), direct: of('direct'), indirect: of('indirect') }),
  );
  // A tag of the address itself comes through no counterparty.
  const triggeredBy = known
    .filter((r) => r.level !== 'base')
    .map((r) => ({
      tag: `${r.level}_${r.category}`,
      counterparty: r.counterparty,
      labelled: r.labelled,
      sources: r.sources,
    }))
    .filter((t) => tags[t.tag] === true);
  return { tags, triggeredBy };
}

/** Any true tag but new_wallet (a property of the address, never of a transaction). */
export const isRisky = (tags: AmlTags) =>
  Object.entries(tags).some(([name, v]) => v && name !== 'new_wallet');

/**
 * Runs one check. Skipped when the tracking (or its key) is gone or the block is no longer
 * canonical. The block row is read FOR KEY SHARE in the writing transaction, so a reorg either
 * deletes it first (nothing is recorded) or waits and then orphans and retracts what was
 * recorded. Running twice records nothing twice.
 */
export async function runLiveAmlCheck(
  deps: LiveAmlDeps,
  check: LiveAmlCheck,
): Promise<CheckOutcome> {
  const { sql } = deps;
  const family = networkInfo(check.network)?.family;
  if (family !== 'evm' && family !== 'utxo') return 'skipped';
  const [target] = await sql<{ address: string; replaying: boolean }[]>`
    select t.address, t.aml_replay_from is not null as replaying
    from tracked_addresses t join api_keys k on k.id = t.api_key_id and k.revoked_at is null
    where t.id = ${check.trackedId} and t.aml_webhook is not null`;
  if (!target) return 'skipped';
  // A replay in progress checks this transaction itself, in order (liveaml/replay.ts).
  if (target.replaying && !check.replay) return 'skipped';

  const { tags: hashTags, triggeredBy } = await hashTagsOf(sql, {
    ...check,
    address: target.address,
    family,
  });
  if (!isRisky(hashTags)) return 'clean';
  const analysis = await analyzeAddress(sql, deps.aml, {
    network: check.network,
    address: target.address,
    indexed: true,
  });

  const outcome = await sql.begin(async (tx) => {
    if (!(await isCanonical(tx, family, check))) return 'skipped' as const;
    // now() is the transaction's start: the event row's created_at and the webhook's agree.
    const [clock] = await tx<{ now: Date }[]>`select now() as now`;
    const id = await recordEvent(tx, {
      ...check,
      score: analysis.score,
      tags: analysis.tags,
      hashTags,
      triggeredBy,
    });
    if (id === null) return 'duplicate' as const;
    const body: LiveAmlWebhook = {
      address: target.address,
      score: analysis.score,
      tags: analysis.tags,
      hash: check.txHash,
      block_number: Number(check.blockNumber),
      hash_tags: hashTags,
      triggered_by: triggeredBy,
      created_at: clock!.now.toISOString(),
      ...(check.replay ? { replay: true } : {}),
    };
    await insertLiveAmlWebhook(tx, check, JSON.stringify(body));
    await rememberRiskTags(tx, check.trackedId, analysis.tags);
    return 'recorded' as const;
  });
  log.info(
    {
      network: check.network,
      tx_hash: check.txHash,
      block_number: Number(check.blockNumber),
      outcome,
      score: analysis.score,
    },
    'live AML check',
  );
  return outcome;
}

async function isCanonical(
  tx: TransactionSql,
  family: 'evm' | 'utxo',
  c: LiveAmlCheck,
): Promise<boolean> {
  const rows =
    family === 'evm'
      ? await tx`select 1 from evm_blocks where network = ${c.network} and number = ${c.blockNumber.toString()} and hash = ${c.blockHash} for key share`
      : await tx`select 1 from utxo_blocks where network = ${c.network} and height = ${c.blockNumber.toString()} and hash = ${c.blockHash} for key share`;
  return rows.length > 0;
}

/**
 * The webhook_events row of kind 'liveaml', its body frozen now, and its delivery job. It is
 * sent once: confirmation_done from the start, so no confirmed copy ever follows; a reorg
 * retracts it like a stream delivery.
 */
export async function insertLiveAmlWebhook(
  tx: TransactionSql,
  c: LiveAmlCheck,
  body: string,
): Promise<void> {
  await enqueueEvents(
    tx,
    [...CHAIN_EVENT_COLUMNS, 'confirmation_done', 'body'],
    tx`
      select 'liveaml', t.api_key_id, t.id, ${c.network}, t.address, ${c.txHash}, ${c.blockNumber.toString()}, ${c.blockHash},
        false, true, ${body}
      from tracked_addresses t where t.id = ${c.trackedId}`,
  );
}
