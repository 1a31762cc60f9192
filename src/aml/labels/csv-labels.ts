import { PermanentError } from '../../errors.js';
import { parseCsv } from './csv.js';
import { isLabelTarget, validateForTarget } from './targets.js';
import {
  addLineRows,
  emptyParsed,
  isLabelCategory,
  LABEL_CATEGORIES,
  type ParsedLabels,
} from './types.js';

/** A file-level problem: nothing of the file is imported (an unreadable file, a bad header, …). */
export class LabelFileError extends PermanentError {
  override name = 'LabelFileError';
}

const COLUMNS = ['address', 'network', 'category', 'name', 'source'] as const;
type Column = (typeof COLUMNS)[number];
const REQUIRED: readonly Column[] = ['address', 'network', 'category'];
const MAX_NAME_CHARS = 200;
const MAX_SOURCE_CHARS = 100;

/** Column positions from the header row: names in any order, case-insensitive; name and source optional. */
function readHeader(fields: readonly string[]): Record<Column, number> {
  const positions = {} as Record<Column, number>;
  fields.forEach((raw, index) => {
    const column = raw.trim().toLowerCase();
    if (!(COLUMNS as readonly string[]).includes(column))
      throw new LabelFileError(
        `unknown column ${JSON.stringify(raw)} in the header (columns: ${COLUMNS.join(',')})`,
      );
    if (positions[column as Column] !== undefined)
      throw new LabelFileError(`column ${column} appears twice in the header`);
    positions[column as Column] = index;
  });
  const missing = REQUIRED.filter((column) => positions[column] === undefined);
  if (missing.length)
    throw new LabelFileError(
      `the header lacks ${missing.join(', ')} (expected ${COLUMNS.join(',')})`,
    );
  return positions;
}

/**
 * Parses a CSV label file: a header row `address,network,category,name,source`, then one label
 * per row (RFC 4180 quoting). network is a network symbol, or `evm` for every EVM network;
 * category one of LABEL_CATEGORIES; source defaults to `defaultSource` (the --source option)
 * when the column is absent or empty. A bad row is refused with its line number; a bad header
 * refuses the whole file (LabelFileError), since every row would be misread.
 */
export function parseCsvLabels(text: string, defaultSource: string | undefined): ParsedLabels {
  const { records, errors } = parseCsv(text);
  const parsed = emptyParsed();
  const [header, ...rows] = records;
  if (!header || (errors[0] && errors[0].line < header.line))
    throw new LabelFileError(
      errors[0]
        ? `line ${errors[0].line}: ${errors[0].reason}`
        : 'the file is empty: expected a header row',
    );
  const at = readHeader(header.fields);
  const seen = new Set<string>();
  parsed.read = rows.length + errors.length;
  parsed.refused.push(...errors);
  for (const { line, fields } of rows) {
    const cell = (column: Column) =>
      at[column] === undefined ? '' : (fields[at[column]] ?? '').trim();
    if (fields.length !== header.fields.length) {
      parsed.refused.push({
        line,
        reason: `expected ${header.fields.length} fields, found ${fields.length}`,
      });
      continue;
    }
    const network = cell('network').toLowerCase();
    const category = cell('category').toLowerCase();
    const source = cell('source') || defaultSource || '';
    const name = cell('name');
    let reason: string | undefined;
    if (!isLabelTarget(network))
      reason = network
        ? `unknown network ${JSON.stringify(network)} (a network symbol, or evm for every EVM network)`
        : 'network is missing';
    else if (!isLabelCategory(category))
      reason = `unknown category ${JSON.stringify(category)} (one of ${LABEL_CATEGORIES.join(', ')})`;
    else if (!source) reason = 'source is missing (fill the source column or pass --source)';
    else if (source.length > MAX_SOURCE_CHARS || /[\u0000-\u001f]/.test(source))
      reason = `source must be 1-${MAX_SOURCE_CHARS} printable characters`;
    else if (name.length > MAX_NAME_CHARS)
      reason = `name is longer than ${MAX_NAME_CHARS} characters`;
    if (reason) {
      parsed.refused.push({ line, reason });
      continue;
    }
    const address = validateForTarget(network, cell('address'));
    if (!address.ok) {
      parsed.refused.push({ line, reason: `not a valid ${network} address: ${address.reason}` });
      continue;
    }
    addLineRows(parsed, seen, [
      {
        network,
        address: address.address,
        category: category as (typeof LABEL_CATEGORIES)[number],
        source,
        name,
        list: null,
      },
    ]);
  }
  parsed.refused.sort((a, b) => a.line - b.line);
  return parsed;
}
