import { networkInfo } from '../config/networks.js';
import type { Sql } from '../db/index.js';
import { log } from '../log.js';
import {
  type AmlTags,
  analyzeAddress,
  explainAnalysis,
  readRescanCategories,
  tagFollowsCategories,
  explanationIds,
  type ExplanationIds,
} from '../aml/index.js';
import {
  insertLiveAmlWebhook,
  isRisky,
  type LiveAmlDeps,
  type LiveAmlWebhook,
  MAX_TRIGGERS_PER_TAG,
  riskTagsOf,
} from './check.js';
import { recordEvent, type Trigger } from './events.js';

/**
 * After a label import changed labels: every address tracked for live AML is analysed again, and
 * one whose risk tags now include a tag not in its last known state (liveaml_state), of a
 * category whose labels changed (sql/0046; e.g. `direct_sanctioned` after an OFAC import), raises
 * a live AML event and webhook, as a transaction would. A newly true tag of another category was
 * not brought by the change (a transaction whose own check has not run yet brought it: that check
 * announces it), so it is only remembered. Such an event names no transaction: `hash` is ""
 * and `block_number` 0; `hash_tags` holds the newly true tags, and `triggered_by` the
 * counterparties through which a new direct_/indirect_ tag reaches the address (as the
 * explanation of /analyze/aml?detail=true finds them; a tag of the address itself has none).
 * The state is then updated, so an import that changes nothing for an address says nothing
 * about it.
 */

/**
 * Who brings each of `fresh` (direct_/indirect_ tags) to the address: the counterparties the
 * explanation names on each network where the tag is true, at most MAX_TRIGGERS_PER_TAG a tag.
 */
async function triggersOf(
  deps: LiveAmlDeps,
  address: string,
  fresh: string[],
  analyses: { network: string; tags: AmlTags }[],
  ids: () => Promise<ExplanationIds>,
): Promise<Trigger[]> {
  const byTag = new Map<string, Trigger[]>();
  for (const { network, tags } of analyses) {
    const wanted = fresh.filter((tag) => tags[tag] === true && /^(direct|indirect)_/.test(tag));
    if (wanted.length === 0) continue;
    const explained = await explainAnalysis(
      deps.sql,
      deps.aml,
      { network, address, tags: Object.fromEntries(wanted.map((tag) => [tag, true])) },
      await ids(),
    );
    for (const tag of wanted) {
      const list = byTag.get(tag) ?? [];
      for (const c of explained.tags[tag]?.counterparties ?? []) {
        if (list.length >= MAX_TRIGGERS_PER_TAG) break;
        if (list.some((t) => t.counterparty === c.address && t.labelled === c.labelled)) continue;
        list.push({
          tag,
          counterparty: c.address,
          labelled: c.labelled,
          sources: [...new Set(c.sources.map((s) => s.source))].sort(),
        });
      }
      byTag.set(tag, list);
    }
  }
  return [...byTag.keys()].sort().flatMap((tag) => byTag.get(tag)!);
}

interface Tracked {
  id: string;
  address: string;
  family: 'evm' | 'utxo';
  risk_tags: string[] | null;
}

/** The networks an address is analysed on: the indexed ones of its family, else the family's first. */
async function networksFor(sql: Sql, family: 'evm' | 'utxo'): Promise<string[]> {
  const rows = await sql<
    { network: string }[]
  >`select network from indexer_cursors order by network`;
  const indexed = rows.map((r) => r.network).filter((n) => networkInfo(n)?.family === family);
  return indexed.length ? indexed : [family === 'evm' ? 'eth' : 'bitcoin'];
}

export async function runLiveAmlRescan(
  deps: LiveAmlDeps,
): Promise<{ checked: number; events: number }> {
  const { sql } = deps;
  // Read now, removed when done: a change queued while this rescan runs queues the next one.
  const queued = await readRescanCategories(sql);
  const { categories } = queued;
  const tracked = await sql<Tracked[]>`
    select t.id, t.address, t.family, s.risk_tags
    from tracked_addresses t
    join api_keys k on k.id = t.api_key_id and k.revoked_at is null
    left join liveaml_state s on s.tracked_id = t.id
    where t.aml_webhook is not null`;
  const networks = { evm: await networksFor(sql, 'evm'), utxo: await networksFor(sql, 'utxo') };
  // The label set's and configuration's ids, read once for every explanation of this rescan.
  let cachedIds: Promise<ExplanationIds> | undefined;
  const ids = () => (cachedIds ??= explanationIds(sql, deps.aml));
  let events = 0;
  for (const t of tracked) {
    // The riskiest view of the address over the networks it is analysed on.
    let best: { network: string; score: number; tags: AmlTags } | undefined;
    const risky = new Set<string>();
    const analyses: { network: string; tags: AmlTags }[] = [];
    for (const network of networks[t.family]) {
      const a = await analyzeAddress(sql, deps.aml, { network, address: t.address, indexed: true });
      for (const tag of riskTagsOf(a.tags)) risky.add(tag);
      analyses.push({ network, tags: a.tags });
      if (!best || a.score > best.score) best = { network, ...a };
    }
    const known = new Set(t.risk_tags ?? []);
    const fresh = [...risky].filter(
      (tag) => !known.has(tag) && tagFollowsCategories(tag, categories),
    );
    const hashTags: AmlTags = Object.fromEntries(fresh.map((tag) => [tag, true]));
    const triggeredBy = isRisky(hashTags)
      ? await triggersOf(deps, t.address, fresh, analyses, ids)
      : [];
    await sql.begin(async (tx) => {
      if (best && isRisky(hashTags)) {
        const [clock] = await tx<{ now: Date }[]>`select now() as now`;
        // Events of a rescan name no block; a block hash of their own keeps them apart.
        const check = {
          trackedId: t.id,
          network: best.network,
          txHash: '',
          blockNumber: 0n,
          blockHash: `labels:${clock!.now.toISOString()}`,
        };
        const id = await recordEvent(tx, {
          ...check,
          score: best.score,
          tags: best.tags,
          hashTags,
          triggeredBy,
        });
        if (id !== null) {
          const body: LiveAmlWebhook = {
            address: t.address,
            score: best.score,
            tags: best.tags,
            hash: '',
            block_number: 0,
            hash_tags: hashTags,
            triggered_by: triggeredBy,
            created_at: clock!.now.toISOString(),
          };
          await insertLiveAmlWebhook(tx, check, JSON.stringify(body));
          events += 1;
        }
      }
      await tx`
        insert into liveaml_state (tracked_id, risk_tags) values (${t.id}, ${[...risky].sort()})
        on conflict (tracked_id) do update set risk_tags = excluded.risk_tags, updated_at = now()`;
    });
  }
  await queued.done();
  log.info({ checked: tracked.length, events }, 'live AML rescan after a label import');
  return { checked: tracked.length, events };
}
