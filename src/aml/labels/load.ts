import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { LabelFileError, parseCsvLabels } from './csv-labels.js';
import { ofacAssetOfFile } from './ofac-assets.js';
import { parseOfac } from './ofac.js';
import { parseTagPack } from './tagpack.js';
import type { LabelFormat, ParsedLabels } from './types.js';

export const LABEL_FORMATS: readonly LabelFormat[] = ['ofac', 'csv', 'tagpack'];
export const DEFAULT_OFAC_SOURCE = 'ofac';
export const DEFAULT_TAGPACK_SOURCE = 'graphsense';
/**
 * The largest label file read: the file is read and checked whole before anything is stored, and
 * text past 512 MiB cannot be held as one string at all (such a file was called "not UTF-8").
 * About two million CSV rows; a larger list is imported in parts.
 */
export const MAX_LABEL_FILE_BYTES = 256 * 1024 * 1024;

/** A label file read and parsed, not stored yet. */
export interface LoadedLabelFile {
  /** How the file is named in label_imports: the path as given, or relative to the project. */
  file: string;
  format: LabelFormat;
  /** The source of an OFAC file or a TagPack; for CSV, the default of rows without one (or null). */
  source: string | null;
  /** OFAC: the asset of the file, whose labels the import replaces. */
  list: string | null;
  contentSha256: string;
  parsed: ParsedLabels;
}

/**
 * `sanctioned_addresses_<ASSET>.txt` is an OFAC list, `*.csv` a CSV file, `*.yaml` and `*.yml` a
 * GraphSense TagPack; anything else: null.
 */
export function inferLabelFormat(path: string): LabelFormat | null {
  const name = basename(path);
  if (ofacAssetOfFile(name)) return 'ofac';
  if (name.toLowerCase().endsWith('.csv')) return 'csv';
  if (/\.ya?ml$/i.test(name)) return 'tagpack';
  return null;
}

export interface LoadOptions {
  format?: LabelFormat | undefined;
  source?: string | undefined;
  /** Recorded name of the file (default: the path). */
  file?: string | undefined;
}

/** Reads and parses a label file. LabelFileError when it cannot be read or is not of its format. */
export async function loadLabelFile(
  path: string,
  options: LoadOptions = {},
): Promise<LoadedLabelFile> {
  let bytes: Buffer;
  let format: LabelFormat | null = null;
  try {
    // A file that cannot be read is said to be so first (a missing one was "cannot tell the
    // format", whatever its name; found by an outside probe).
    const { size } = await stat(path);
    format = options.format ?? inferLabelFormat(path);
    if (!format)
      throw new LabelFileError(
        `cannot tell the format of ${basename(path)}: name it sanctioned_addresses_<ASSET>.txt, *.csv or *.yaml, or pass --format ${LABEL_FORMATS.join('|')}`,
      );
    if (size > MAX_LABEL_FILE_BYTES)
      throw new LabelFileError(
        `${path} is ${Math.ceil(size / 1024 / 1024)} MiB, larger than the ${MAX_LABEL_FILE_BYTES / 1024 / 1024} MiB a label file may be: import it in parts`,
      );
    bytes = await readFile(path);
  } catch (err) {
    if (err instanceof LabelFileError) throw err;
    throw new LabelFileError(
      `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new LabelFileError(`${path} is not UTF-8 text`);
  }
  const contentSha256 = createHash('sha256').update(bytes).digest('hex');
  const file = options.file ?? path;
  if (format === 'ofac') {
    const list = ofacAssetOfFile(basename(path));
    if (!list)
      throw new LabelFileError(
        `an OFAC list is named sanctioned_addresses_<ASSET>.txt (the asset decides its networks): ${basename(path)}`,
      );
    const source = options.source ?? DEFAULT_OFAC_SOURCE;
    return { file, format, source, list, contentSha256, parsed: parseOfac(text, list, source) };
  }
  if (format === 'tagpack') {
    const source = options.source ?? DEFAULT_TAGPACK_SOURCE;
    return { file, format, source, list: null, contentSha256, parsed: parseTagPack(text, source) };
  }
  return {
    file,
    format,
    source: options.source ?? null,
    list: null,
    contentSha256,
    parsed: parseCsvLabels(text, options.source),
  };
}
