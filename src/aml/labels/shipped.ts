import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Sql } from '../../db/index.js';
import { log } from '../../log.js';
import { PROJECT_ROOT, projectPath } from '../../paths.js';
import { LabelFileError } from './csv-labels.js';
import { storeLabelFile, type ImportReport } from './import.js';
import { lastSucceededHash } from './imports.js';
import { inferLabelFormat, loadLabelFile } from './load.js';

export interface ShippedLabelsResult {
  imported: ImportReport[];
  /** Files whose content equals their last successful import: not read into the database again. */
  unchanged_files: number;
  /** Files that could not be imported (a bad CSV header, …), with the reason; the others still are. */
  failed: { file: string; error: string }[];
}

/**
 * The label files under `dir` (recursively), in name order: OFAC lists, CSV files and TagPacks;
 * others (LICENSE, README) are ignored.
 */
export function listLabelFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return names
    .map((name) => join(dir, name))
    .filter((path) => inferLabelFormat(path) !== null)
    .sort();
}

/**
 * Imports the label data shipped in config/labels/ (the OFAC lists, and any CSV file or TagPack
 * an operator puts there), at every start, after the migrations. Cheap when nothing changed: a
 * file whose SHA-256 equals that of its last successful import is not imported again. A file
 * that cannot be imported is logged and left out; start-up goes on. Database errors are thrown.
 */
export async function importShippedLabels(
  sql: Sql,
  dir: string = projectPath('config', 'labels'),
): Promise<ShippedLabelsResult> {
  const result: ShippedLabelsResult = { imported: [], unchanged_files: 0, failed: [] };
  for (const path of listLabelFiles(dir)) {
    const file = relative(PROJECT_ROOT, path);
    try {
      const loaded = await loadLabelFile(path, { file });
      if ((await lastSucceededHash(sql, file)) === loaded.contentSha256) {
        result.unchanged_files++;
        continue;
      }
      result.imported.push(await storeLabelFile(sql, loaded));
    } catch (err) {
      if (!(err instanceof LabelFileError)) throw err;
      log.error({ file, error: err.message }, 'shipped label file not imported');
      result.failed.push({ file, error: err.message });
    }
  }
  log.info(
    {
      files_imported: result.imported.length,
      files_unchanged: result.unchanged_files,
      files_failed: result.failed.length,
    },
    'shipped labels checked',
  );
  return result;
}
