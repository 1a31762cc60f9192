import type { Db } from '../db/index.js';
import { enqueueJob, JOBS } from '../db/jobs.js';
import { LABEL_CATEGORIES } from './labels/types.js';

/**
 * Labels of `categories` changed: queues the live AML rescan (src/liveaml/rescan.ts) in the
 * caller's transaction, with the categories it is about. Changes in a row make one job, which
 * takes every category queued before it runs (sql/0046).
 */
export async function queueLiveAmlRescan(tx: Db, categories: Iterable<string>): Promise<void> {
  const list = [...new Set(categories)];
  if (list.length === 0) return;
  await tx`
    insert into liveaml_rescan_categories (category) select unnest(${list}::text[])
    on conflict (category) do update set queued_at = excluded.queued_at`;
  await enqueueJob(tx, 'liveaml_rescan', {}, { jobKey: JOBS.liveaml_rescan.task });
}

/**
 * The categories queued for the rescan that is starting; `done()` removes them once it has
 * finished (those queued again since it read them stay, for the next rescan).
 */
export async function readRescanCategories(
  sql: Db,
): Promise<{ categories: Set<string>; done(): Promise<void> }> {
  // queued_at as text both ways: microseconds kept (a timestamptz parameter goes through a JS
  // Date, which keeps milliseconds).
  const rows = await sql<{ category: string; queued_at: string }[]>`
    select category, queued_at::text from liveaml_rescan_categories`;
  return {
    categories: new Set(rows.map((r) => r.category)),
    async done() {
      if (rows.length === 0) return;
      await sql`
        delete from liveaml_rescan_categories c
        using unnest(${rows.map((r) => r.category)}::text[], ${rows.map((r) => r.queued_at)}::text[]) as x(category, queued_at)
        where c.category = x.category and c.queued_at = x.queued_at::timestamptz`;
    },
  };
}

const LABELLED: ReadonlySet<string> = new Set(LABEL_CATEGORIES);

/**
 * Whether a label change of `categories` can have made `tag` true: its base category (the tag
 * without direct_/indirect_) is one of them. A tag that no label category names (one computed
 * from chain data, as contracts deployed) can follow any label change.
 */
export function tagFollowsCategories(tag: string, categories: ReadonlySet<string>): boolean {
  const base = tag.replace(/^(direct|indirect)_/, '');
  return !LABELLED.has(base) || categories.has(base);
}
