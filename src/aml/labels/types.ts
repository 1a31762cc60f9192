/**
 * Label data: what a source (OFAC, the VASP's own lists) says about an address. Parsers turn a
 * file into `ParsedLabels`; the store writes them and answers with `ImportCounts`.
 */

/** The spec's base AML tags a label can carry (sql/0005_labels.sql holds the same list). */
export const LABEL_CATEGORIES = [
  'mixer',
  'fake_kyc',
  'cybercrime',
  'sanctioned',
  'financial_crime',
  'stealing_attack',
  'money_laundering',
  'gambling_accounts',
  'blacklisted_tokens',
  'phishing_activities',
  'blacklisted_accounts',
  'blackmail_activities',
  'darkweb_transactions',
  'invalid_tokens',
] as const;

export type LabelCategory = (typeof LABEL_CATEGORIES)[number];

export function isLabelCategory(value: string): value is LabelCategory {
  return (LABEL_CATEGORIES as readonly string[]).includes(value);
}

/**
 * The `network` of a family-wide EVM label: one row that covers every EVM network, because the
 * same key controls an EVM address on all of them. A row under an EVM symbol covers that network only.
 */
export const EVM_SCOPE = 'evm';

export type LabelFormat = 'ofac' | 'csv' | 'tagpack';

/** One label row to store. `list` is the source's list it comes from (OFAC asset), or null. */
export interface LabelRow {
  network: string;
  address: string;
  category: LabelCategory;
  source: string;
  name: string;
  list: string | null;
}

/** A line that was not stored, and why (1-based line number of the file). */
export interface LineProblem {
  line: number;
  reason: string;
}

export interface ParsedLabels {
  rows: LabelRow[];
  /** Lines that carried an address, a data row or a tag (blank lines, comments, CSV header excluded). */
  read: number;
  duplicates: number;
  refused: LineProblem[];
  /**
   * Lines that belong to no network of Tollgate, with the reason (e.g. OFAC BCH: another chain),
   * and TagPack tags that carry no AML category.
   */
  skipped: LineProblem[];
}

export interface ImportCounts {
  read: number;
  inserted: number;
  updated: number;
  unchanged: number;
  removed: number;
  duplicates: number;
  refused: number;
  skipped: number;
}

export function emptyParsed(): ParsedLabels {
  return { rows: [], read: 0, duplicates: 0, refused: [], skipped: [] };
}

/**
 * Adds the rows of one line unless each (network, address, category, source) was already taken
 * from the file; a line that adds nothing new counts as a duplicate.
 */
export function addLineRows(
  parsed: ParsedLabels,
  seen: Set<string>,
  rows: readonly LabelRow[],
): void {
  let added = 0;
  for (const row of rows) {
    const key = `${row.network}\u0000${row.address}\u0000${row.category}\u0000${row.source}`;
    if (seen.has(key)) continue;
    seen.add(key);
    parsed.rows.push(row);
    added++;
  }
  if (added === 0) parsed.duplicates++;
}
