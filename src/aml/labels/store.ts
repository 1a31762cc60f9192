import type { Db } from '../../db/index.js';
import type { LabelRow } from './types.js';

/** Rows per upsert statement: one statement per batch, columns as unnest arrays. */
export const LABEL_BATCH_ROWS = 1000;

/**
 * Inserts new labels and merges existing ones, in batches. A row that comes from a list (OFAC
 * asset) adds that list to the stored row's lists and takes the name `<listNamePrefix> (<lists>)`;
 * a row without a list (CSV) replaces the stored name. A row already stored as it would be is
 * not written (counted unchanged), so a second import of the same file changes nothing.
 */
export async function upsertLabels(
  tx: Db,
  rows: readonly LabelRow[],
  listNamePrefix: string,
): Promise<{ inserted: number; updated: number; unchanged: number }> {
  let inserted = 0;
  let updated = 0;
  for (let start = 0; start < rows.length; start += LABEL_BATCH_ROWS) {
    const batch = rows.slice(start, start + LABEL_BATCH_ROWS);
    const [counts] = await tx<{ inserted: number; updated: number }[]>`
      with input as (
        select * from unnest(${batch.map((r) => r.network)}::text[], ${batch.map((r) => r.address)}::text[],
          ${batch.map((r) => r.category)}::text[], ${batch.map((r) => r.source)}::text[],
          ${batch.map((r) => r.name)}::text[], ${batch.map((r) => r.list ?? '')}::text[])
          as t(network, address, category, source, name, list)
      ), upserted as (
        insert into labels as l (network, address, category, source, name, lists)
        select network, address, category, source, name, case when list = '' then '{}'::text[] else array[list] end from input
        on conflict (network, address, category, source) do update set
          lists = array(select distinct x from unnest(l.lists || excluded.lists) as x order by x),
          name = case when cardinality(excluded.lists) = 0 then excluded.name
                 else ${listNamePrefix}::text || ' (' || array_to_string(array(select distinct x from unnest(l.lists || excluded.lists) as x order by x), ', ') || ')' end,
          updated_at = now()
        where not (l.lists @> excluded.lists) or (cardinality(excluded.lists) = 0 and l.name is distinct from excluded.name)
        returning (xmax = 0) as inserted
      )
      select (count(*) filter (where inserted))::int as inserted, (count(*) filter (where not inserted))::int as updated from upserted`;
    inserted += counts!.inserted;
    updated += counts!.updated;
  }
  return { inserted, updated, unchanged: rows.length - inserted - updated };
}

/**
 * De-lists: the labels of `source` carried by `list` whose (network, address, category) is not
 * in `keep` (the list's new content) lose that list; a label left with no list is deleted, one
 * still carried by another list of the source stays, renamed. Returns the labels de-listed.
 */
export async function removeDelisted(
  tx: Db,
  source: string,
  list: string,
  keep: readonly LabelRow[],
  listNamePrefix: string,
): Promise<number> {
  const [row] = await tx<{ removed: number }[]>`
    with keep as (
      select * from unnest(${keep.map((r) => r.network)}::text[], ${keep.map((r) => r.address)}::text[], ${keep.map((r) => r.category)}::text[])
        as k(network, address, category)
    ), gone as (
      select l.id, l.lists from labels l
      where l.source = ${source} and ${list} = any(l.lists)
        and not exists (select 1 from keep k where k.network = l.network and k.address = l.address and k.category = l.category)
    ), deleted as (
      delete from labels l using gone g where l.id = g.id and g.lists = array[${list}]::text[] returning l.id
    ), trimmed as (
      update labels l set lists = array_remove(g.lists, ${list}),
        name = ${listNamePrefix}::text || ' (' || array_to_string(array_remove(g.lists, ${list}), ', ') || ')', updated_at = now()
      from gone g where l.id = g.id and g.lists <> array[${list}]::text[] returning l.id
    )
    select ((select count(*) from deleted) + (select count(*) from trimmed))::int as removed`;
  return row!.removed;
}

/**
 * CSV and TagPack `--replace`: the file is the whole set of each source it names. Labels of
 * those sources that are not in the file and come from no list (OFAC rows are left to their own
 * lists) are deleted. Returns how many.
 */
export async function removeAbsentFromSources(
  tx: Db,
  sources: readonly string[],
  keep: readonly LabelRow[],
): Promise<number> {
  const [row] = await tx<{ removed: number }[]>`
    with keep as (
      select * from unnest(${keep.map((r) => r.network)}::text[], ${keep.map((r) => r.address)}::text[],
        ${keep.map((r) => r.category)}::text[], ${keep.map((r) => r.source)}::text[]) as k(network, address, category, source)
    ), deleted as (
      delete from labels l
      where l.source = any(${sources as string[]}::text[]) and cardinality(l.lists) = 0
        and not exists (select 1 from keep k where k.network = l.network and k.address = l.address and k.category = l.category and k.source = l.source)
      returning l.id
    )
    select count(*)::int as removed from deleted`;
  return row!.removed;
}
