import type { Sql, TransactionSql } from '../db/index.js';
import { type AmlTags, trueTags } from '../aml/index.js';

/**
 * Live AML events (table liveaml_events): what the risk worker found about a transaction of a
 * tracked address. The worker records them with recordEvent; GET /v2/liveaml/events lists them.
 */

/** AML tags: tag name → boolean (see the spec's "AML tags object"). */

/**
 * One reason for a tag of a transaction: `counterparty` is the address the transaction shared
 * with the tracked one; `labelled` carries the label (the counterparty itself for direct_, a
 * counterparty of it for indirect_); `sources` the label sources (e.g. "ofac",
 * "onchain:chainalysis_sanctions_oracle").
 */
export interface Trigger {
  tag: string;
  counterparty: string;
  labelled: string;
  sources: string[];
}

/** The spec's live AML event record. */
export interface LiveAmlEventRecord {
  id: string;
  address: string;
  event: {
    hash: string;
    tags: AmlTags;
    score: number;
    hash_tags: AmlTags;
    block_number: number;
    triggered_by: Trigger[];
  };
  created_at: string;
}

export interface NewLiveAmlEvent {
  /** tracked_addresses.id: gives the key and the address. */
  trackedId: string;
  network: string;
  txHash: string;
  blockNumber: bigint;
  blockHash: string;
  /** 0 to 100. */
  score: number;
  /** Every AML tag (base, direct_ and indirect_), as the live AML webhook sends them. */
  tags: AmlTags;
  /** The tags true for this transaction. */
  hashTags: AmlTags;
  /** Which counterparty brought each of them (none for a label change). */
  triggeredBy?: Trigger[];
}

/**
 * Records an event, in the caller's transaction. The key and address come from the tracking row,
 * so an event can never belong to another key. Returns the new id, or null when the row is not
 * tracked for live AML any more or the event was already recorded (same tracking, transaction
 * and block: a replayed block records nothing twice). An event a reorg orphaned whose block came
 * back (the chain went back to the branch it left) is recorded again: listed again, with this
 * check's figures, and its id returned, so that its webhook is written again.
 */
export async function recordEvent(
  tx: Sql | TransactionSql,
  e: NewLiveAmlEvent,
): Promise<string | null> {
  const [row] = await tx<{ id: string }[]>`
    insert into liveaml_events (api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, score, tags, hash_tags, triggered_by)
    select t.api_key_id, t.id, ${e.network}, t.address, ${e.txHash}, ${e.blockNumber.toString()}, ${e.blockHash},
      ${e.score}, ${tx.json(e.tags)}, ${tx.json(e.hashTags)}, ${tx.json((e.triggeredBy ?? []) as never)}
    from tracked_addresses t where t.id = ${e.trackedId} and t.aml_webhook is not null
    on conflict (tracked_id, tx_hash, block_hash) do update set orphaned = false,
      block_number = excluded.block_number, score = excluded.score, tags = excluded.tags,
      hash_tags = excluded.hash_tags, triggered_by = excluded.triggered_by, created_at = now()
      where liveaml_events.orphaned
    returning id`;
  return row ? String(row.id) : null;
}

/**
 * After a reorg removed every block of `network` above `ancestor`: their events are kept but
 * marked orphaned, and so no longer listed. Returns how many were marked.
 */
export async function orphanEventsAbove(
  tx: Sql | TransactionSql,
  network: string,
  ancestor: bigint,
): Promise<number> {
  const rows = await tx`
    update liveaml_events set orphaned = true
    where network = ${network} and block_number > ${ancestor.toString()} and not orphaned
    returning id`;
  return rows.length;
}

/**
 * The `tags` of the event list: only the `indirect_` variants. The spec says so for this list
 * ("Some responses (live AML event list) contain only the indirect_ variants"); the base and
 * direct_ tags stay stored and go to the live AML webhook.
 */
export function indirectTagsOnly(tags: AmlTags): AmlTags {
  return Object.fromEntries(Object.entries(tags).filter(([name]) => name.startsWith('indirect_')));
}

/** This key's events, newest first; orphaned ones are left out. */
export async function listEvents(
  sql: Sql,
  apiKeyId: string,
  page: number,
  limit: number,
): Promise<{ rows: LiveAmlEventRecord[]; total: number }> {
  const [count] = await sql<{ n: number }[]>`
    select count(*)::int as n from liveaml_events where api_key_id = ${apiKeyId} and not orphaned`;
  const rows = await sql<
    {
      id: string;
      address: string;
      tx_hash: string;
      tags: AmlTags;
      score: number;
      hash_tags: AmlTags;
      block_number: string;
      triggered_by: Trigger[];
      created_at: Date;
    }[]
  >`
    select id, address, tx_hash, tags, score, hash_tags, block_number, triggered_by, created_at
    from liveaml_events
    where api_key_id = ${apiKeyId} and not orphaned
    order by created_at desc, id desc
    limit ${limit} offset ${(page - 1) * limit}`;
  return {
    total: count!.n,
    rows: rows.map((r) => ({
      id: String(r.id),
      address: r.address,
      event: {
        hash: r.tx_hash,
        tags: indirectTagsOnly(r.tags),
        score: r.score,
        hash_tags: trueTags(r.hash_tags),
        block_number: Number(r.block_number),
        triggered_by: r.triggered_by,
      },
      created_at: r.created_at.toISOString(),
    })),
  };
}
