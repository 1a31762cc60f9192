import type { Sql } from '../../db/index.js';
import { log } from '../../log.js';
import {
  failImportRecord,
  finishImportRecord,
  holdImportLock,
  startImportRecord,
} from './imports.js';
import type { LoadedLabelFile } from './load.js';
import { ofacAssetRule } from './ofac-assets.js';
import { OFAC_NAME_PREFIX } from './ofac.js';
import { removeAbsentFromSources, removeDelisted, upsertLabels } from './store.js';
import type { ImportCounts, LineProblem } from './types.js';
import { queueLiveAmlRescan } from '../rescan-queue.js';

export interface ImportReport {
  import_id: string;
  file: string;
  format: string;
  source: string | null;
  list: string | null;
  counts: ImportCounts;
  refused_lines: LineProblem[];
  /** Why lines were skipped, with how many each. */
  skipped_reasons: { reason: string; lines: number }[];
  /** Set when the import did not de-list (a list file without a single valid address). */
  note?: string;
}

/**
 * Stores a loaded label file in one transaction, under a lock that serialises label imports.
 * An OFAC file is the whole list of its asset: labels of (source, asset) not in it are de-listed
 * (a careful compliance user expects a de-listed address to stop being flagged by that source),
 * except when the file holds no valid address at all, which looks like a broken download, not
 * a list emptied by OFAC: then the stored labels are kept and the report says so. A CSV file or
 * a TagPack only adds and updates, unless `replace` is set (see removeAbsentFromSources).
 */
export async function storeLabelFile(
  sql: Sql,
  loaded: LoadedLabelFile,
  options: { replace?: boolean } = {},
): Promise<ImportReport> {
  const { parsed } = loaded;
  const startedAt = Date.now();
  const source = loaded.source ?? [...new Set(parsed.rows.map((r) => r.source))].join(',');
  const id = await startImportRecord(sql, {
    source: source || '(none)',
    file: loaded.file,
    format: loaded.format,
    list: loaded.list,
    contentSha256: loaded.contentSha256,
  });
  const replaceList = loaded.format === 'ofac' && loaded.list !== null && loaded.source !== null;
  const keptList =
    replaceList && parsed.rows.length === 0 && !('skip' in ofacAssetRule(loaded.list!));
  const note = keptList
    ? `no valid address in the file: the labels of list ${loaded.list} were kept`
    : undefined;
  try {
    const counts = await sql.begin(async (tx) => {
      // Its own lock first (held while it waits for its turn: it is running, not abandoned).
      await holdImportLock(tx, id);
      await tx`select pg_advisory_xact_lock(hashtext('tollgate_labels_import'))`;
      const written = await upsertLabels(tx, parsed.rows, OFAC_NAME_PREFIX);
      let removed = 0;
      if (replaceList && parsed.rows.length > 0)
        removed = await removeDelisted(
          tx,
          loaded.source!,
          loaded.list!,
          parsed.rows,
          OFAC_NAME_PREFIX,
        );
      if (options.replace && loaded.format !== 'ofac' && parsed.rows.length > 0) {
        removed = await removeAbsentFromSources(
          tx,
          [...new Set(parsed.rows.map((r) => r.source))],
          parsed.rows,
        );
      }
      const result: ImportCounts = {
        read: parsed.read,
        ...written,
        removed,
        duplicates: parsed.duplicates,
        refused: parsed.refused.length,
        skipped: parsed.skipped.length,
      };
      await finishImportRecord(tx, id, result, parsed.refused, parsed.skipped);
      // Labels changed: tracked addresses they make risky raise live AML events
      // (src/liveaml/rescan.ts). Imports in a row make one job.
      if (result.inserted + result.updated + result.removed > 0)
        await queueLiveAmlRescan(
          tx,
          parsed.rows.map((r) => r.category),
        );
      return result;
    });
    const skipped = new Map<string, number>();
    for (const s of parsed.skipped) skipped.set(s.reason, (skipped.get(s.reason) ?? 0) + 1);
    log.info(
      {
        import_id: id,
        file: loaded.file,
        format: loaded.format,
        source,
        list: loaded.list,
        ...counts,
        duration_ms: Date.now() - startedAt,
      },
      'labels imported',
    );
    if (note) log.warn({ import_id: id, file: loaded.file, list: loaded.list }, note);
    return {
      import_id: id,
      file: loaded.file,
      format: loaded.format,
      source: source || null,
      list: loaded.list,
      counts,
      refused_lines: parsed.refused,
      skipped_reasons: [...skipped].map(([reason, lines]) => ({ reason, lines })),
      ...(note ? { note } : {}),
    };
  } catch (err) {
    await failImportRecord(sql, id, err instanceof Error ? err.message : String(err)).catch(
      () => {},
    );
    throw err;
  }
}
