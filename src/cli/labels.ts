import { basename } from 'node:path';
import { recordAudit } from '../audit/index.js';
import { command, parseOptions } from './command.js';
import { openDatabase } from '../db/open.js';
import type { Config } from '../config/index.js';
import {
  type ImportReport,
  LABEL_FORMATS,
  type LabelFormat,
  labelStats,
  type LabelStats,
  loadLabelFile,
  storeLabelFile,
} from '../aml/index.js';

export const LABELS_USAGE = `Usage:
  tollgate labels import FILE [--format ofac|csv|tagpack] [--source NAME] [--replace]
      import an OFAC list (sanctioned_addresses_<ASSET>.txt), a CSV file (address,network,category,name,source)
      or a GraphSense TagPack (*.yaml, *.yml; source graphsense unless --source names another);
      prints refused lines, then the counts as a line of JSON. An OFAC file replaces its (source, asset) list;
      --replace makes a CSV file or a TagPack the whole set of the sources it names.
  tollgate labels stats [--json]
      labels per source and category, and the last import`;

const cmd = command('labels', LABELS_USAGE);

function printImport(report: ImportReport): void {
  for (const { line, reason } of report.refused_lines)
    process.stdout.write(`refused line ${line}: ${reason}\n`);
  for (const { reason, lines } of report.skipped_reasons)
    process.stdout.write(`skipped ${lines} line(s): ${reason}\n`);
  if (report.note) process.stdout.write(`note: ${report.note}\n`);
  process.stdout.write(
    JSON.stringify({
      file: report.file,
      format: report.format,
      source: report.source,
      list: report.list,
      ...report.counts,
      ...(report.note ? { note: report.note } : {}),
    }) + '\n',
  );
}

function printStats(stats: LabelStats): void {
  if (stats.labels.length === 0) process.stdout.write('No labels.\n');
  else {
    process.stdout.write(`${'source'.padEnd(16)}${'category'.padEnd(24)}labels\n`);
    for (const row of stats.labels)
      process.stdout.write(`${row.source.padEnd(16)}${row.category.padEnd(24)}${row.labels}\n`);
    process.stdout.write(`${'total'.padEnd(40)}${stats.total}\n`);
  }
  const last = stats.last_import;
  if (last) {
    process.stdout.write(
      `\nLast import: ${last.file} (${last.format}, source ${last.source}) ${last.status} at ${last.finished_at ?? last.started_at}: ` +
        `read ${last.rows_read}, inserted ${last.inserted}, updated ${last.updated}, unchanged ${last.unchanged}, removed ${last.removed}, refused ${last.refused}, skipped ${last.skipped}\n`,
    );
    if (last.error !== null) process.stdout.write(`  ${last.error}\n`);
  }
}

/** `tollgate labels …`: the file is read and checked before the database is opened. */
export async function labelsCommand(config: Config, args: string[]): Promise<void> {
  await cmd.run(() => labels(config, args));
}

async function labels(config: Config, args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'import') {
    const { values, positionals } = parseOptions({
      args: rest,
      allowPositionals: true,
      options: {
        format: { type: 'string' },
        source: { type: 'string' },
        replace: { type: 'boolean' },
      },
    });
    if (positionals.length !== 1) return cmd.usage(`labels import needs exactly one FILE`);
    if (
      values.format !== undefined &&
      !(LABEL_FORMATS as readonly string[]).includes(values.format)
    ) {
      return cmd.fail(
        `unknown format ${JSON.stringify(values.format)}: use --format ${LABEL_FORMATS.join('|')}`,
        2,
      );
    }
    if (
      values.source !== undefined &&
      (values.source.length === 0 ||
        values.source.length > 100 ||
        /[\u0000-\u001f]/.test(values.source))
    ) {
      return cmd.fail('--source must be 1-100 printable characters', 2);
    }
    const loaded = await loadLabelFile(positionals[0]!, {
      format: values.format as LabelFormat | undefined,
      source: values.source,
    });
    const db = await openDatabase(config);
    try {
      const report = await storeLabelFile(db.sql, loaded, { replace: values.replace ?? false });
      await recordAudit(db.sql, {
        actor: 'cli',
        action: 'labels_import',
        target: report.import_id,
        details: {
          file: basename(report.file),
          format: report.format,
          source: report.source,
          replace: values.replace ?? false,
          inserted: report.counts.inserted,
          updated: report.counts.updated,
          removed: report.counts.removed,
          refused: report.counts.refused,
        },
      });
      printImport(report);
    } finally {
      await db.close();
    }
    return;
  }
  if (sub === 'stats') {
    const { values } = parseOptions({ args: rest, options: { json: { type: 'boolean' } } });
    const db = await openDatabase(config);
    try {
      const stats = await labelStats(db.sql);
      if (values.json) process.stdout.write(JSON.stringify(stats) + '\n');
      else printStats(stats);
    } finally {
      await db.close();
    }
    return;
  }
  cmd.usage();
}
