import type { Db } from '../../db/index.js';
import type { ImportCounts, LabelFormat, LineProblem } from './types.js';

/** Refused lines kept in label_imports.problems; the counts always cover them all. */
export const MAX_RECORDED_PROBLEMS = 1000;

export interface ImportRecordStart {
  source: string;
  file: string;
  format: LabelFormat;
  list: string | null;
  contentSha256: string;
}

/**
 * The advisory-lock key space of label imports: an import's transaction holds
 * (IMPORT_LOCK_CLASS, hashtext(id)) from its start to its end, so a `running` import whose lock
 * nobody holds belongs to a process that ended (killed, its host gone) before it finished.
 */
export const IMPORT_LOCK_CLASS = 0x746c6c; // 'tll'

/** What an abandoned import's record says: its import was one transaction, so nothing of it is stored. */
export const INTERRUPTED =
  'interrupted: the process importing the file ended before it finished; nothing of it was stored';

/**
 * Marks `running` imports whose process is gone as failed (INTERRUPTED); they would otherwise
 * show as running for ever. A record younger than 30 s is left alone: its transaction may not
 * have taken its lock yet.
 */
export async function markInterruptedImports(sql: Db): Promise<number> {
  const rows = await sql`
    update label_imports li set status = 'failed', finished_at = clock_timestamp(), error = ${INTERRUPTED}
    where li.status = 'running' and li.started_at < now() - interval '30 seconds'
      and not exists (
        select 1 from pg_locks where locktype = 'advisory' and objsubid = 2
          and classid = ${IMPORT_LOCK_CLASS}::bigint::oid
          and objid = (hashtext(li.id::text)::bigint & 4294967295)::oid)`;
  return rows.count;
}

/** Takes the import's own lock (IMPORT_LOCK_CLASS): first thing in its transaction. */
export async function holdImportLock(tx: Db, id: string): Promise<void> {
  await tx`select pg_advisory_xact_lock(${IMPORT_LOCK_CLASS}::int, hashtext(${id}))`;
}

/** Records an import as running (outside the import's transaction, so a failure stays visible). */
export async function startImportRecord(sql: Db, start: ImportRecordStart): Promise<string> {
  await markInterruptedImports(sql);
  const [row] = await sql<{ id: string }[]>`
    insert into label_imports (source, file, format, list, content_sha256)
    values (${start.source}, ${start.file}, ${start.format}, ${start.list}, ${start.contentSha256})
    returning id`;
  return row!.id;
}

/** Marks the import succeeded with its counts: called inside the import's transaction. */
export async function finishImportRecord(
  tx: Db,
  id: string,
  counts: ImportCounts,
  refused: readonly LineProblem[],
  skipped: readonly LineProblem[],
): Promise<void> {
  const skipReasons = new Map<string, number>();
  for (const s of skipped) skipReasons.set(s.reason, (skipReasons.get(s.reason) ?? 0) + 1);
  const problems = {
    refused: refused.slice(0, MAX_RECORDED_PROBLEMS),
    skipped: [...skipReasons].map(([reason, lines]) => ({ reason, lines })),
  };
  await tx`
    update label_imports set status = 'succeeded', finished_at = clock_timestamp(),
      rows_read = ${counts.read}, inserted = ${counts.inserted}, updated = ${counts.updated}, unchanged = ${counts.unchanged},
      removed = ${counts.removed}, duplicates = ${counts.duplicates}, refused = ${counts.refused}, skipped = ${counts.skipped},
      problems = ${JSON.stringify(problems)}::text::jsonb
    where id = ${id}`;
}

export async function failImportRecord(sql: Db, id: string, error: string): Promise<void> {
  await sql`update label_imports set status = 'failed', finished_at = clock_timestamp(), error = ${error.slice(0, 1000)} where id = ${id}`;
}

/** The content hash of the last successful import of `file`, or null: what the start-up import compares. */
export async function lastSucceededHash(sql: Db, file: string): Promise<string | null> {
  const [row] = await sql<{ content_sha256: string }[]>`
    select content_sha256 from label_imports where file = ${file} and status = 'succeeded'
    order by finished_at desc limit 1`;
  return row?.content_sha256 ?? null;
}

export interface LabelStats {
  labels: { source: string; category: string; labels: number }[];
  total: number;
  last_import: {
    id: string;
    source: string;
    file: string;
    format: string;
    list: string | null;
    status: string;
    /** Why a failed import failed (INTERRUPTED when its process ended first); null otherwise. */
    error: string | null;
    started_at: string;
    finished_at: string | null;
    rows_read: number;
    inserted: number;
    updated: number;
    unchanged: number;
    removed: number;
    refused: number;
    skipped: number;
  } | null;
}

/**
 * Label counts per source and category, and the last import, for `tollgate labels stats`; an
 * import whose process is gone is marked failed first (markInterruptedImports).
 */
export async function labelStats(sql: Db): Promise<LabelStats> {
  await markInterruptedImports(sql);
  const labels = await sql<{ source: string; category: string; labels: number }[]>`
    select source, category, count(*)::int as labels from labels group by source, category order by source, category`;
  const [last] = await sql<
    (Omit<NonNullable<LabelStats['last_import']>, 'started_at' | 'finished_at'> & {
      started_at: Date;
      finished_at: Date | null;
    })[]
  >`
    select id, source, file, format, list, status, error, started_at, finished_at, rows_read, inserted, updated, unchanged, removed, refused, skipped
    from label_imports order by started_at desc, id desc limit 1`;
  return {
    labels: [...labels],
    total: labels.reduce((sum, row) => sum + row.labels, 0),
    last_import: last
      ? {
          ...last,
          started_at: last.started_at.toISOString(),
          finished_at: last.finished_at?.toISOString() ?? null,
        }
      : null,
  };
}
