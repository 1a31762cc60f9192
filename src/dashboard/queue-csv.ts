import { toCsv } from '../csv.js';
import type { TransactionListRow } from './queries.js';
import { STATUS_WORDS } from './status-words.js';

/**
 * The Travel Rule queue as CSV (src/csv.ts): one line per transaction, the columns of the queue
 * page and no personal data (no IVMS101 value, no note's text: the notes are counted).
 */
export const QUEUE_CSV_COLUMNS = [
  'id',
  'transaction_ref',
  'direction',
  'status',
  'status_words',
  'amount',
  'asset',
  'network',
  'counterparty_vasp',
  'originator_score',
  'originator_tags',
  'beneficiary_score',
  'beneficiary_tags',
  'assigned_to',
  'notes',
  'failed_messages',
  'created_at',
  'updated_at',
] as const;

const score = (n: number | null) => (n === null ? '' : String(n));
const tags = (t: Record<string, true> | undefined) => Object.keys(t ?? {}).join(' ');

export function queueCsv(rows: TransactionListRow[]): string {
  return toCsv(
    QUEUE_CSV_COLUMNS,
    rows.map((t) => [
      t.id,
      t.transaction_ref,
      t.direction,
      t.status,
      STATUS_WORDS[t.status],
      t.amount,
      t.asset,
      t.network ?? '',
      t.counterparty_name ?? '',
      score(t.originator_score ?? t.screening?.originator.score ?? null),
      tags(t.screening?.originator.tags),
      score(t.beneficiary_score ?? t.screening?.beneficiary.score ?? null),
      tags(t.screening?.beneficiary.tags),
      t.assigned_to ?? '',
      String(t.notes),
      String(t.failed_messages),
      t.created_at.toISOString(),
      t.updated_at.toISOString(),
    ]),
  );
}
