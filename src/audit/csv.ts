import { toCsv } from '../csv.js';
import type { AuditEntry } from './audit.js';

/** The audit log as CSV (src/csv.ts: RFC 4180, formula-looking cells quoted). */
export const AUDIT_CSV_COLUMNS = [
  'id',
  'at',
  'actor',
  'action',
  'target',
  'transaction_ref',
  'reason',
  'client_address',
  'details',
] as const;

export function auditCsv(rows: AuditEntry[]): string {
  return toCsv(
    AUDIT_CSV_COLUMNS,
    rows.map((r) => [
      r.id,
      r.at.toISOString(),
      r.actor,
      r.action,
      r.target ?? '',
      r.transaction_ref ?? '',
      r.reason ?? '',
      r.client_address ?? '',
      Object.keys(r.details).length ? JSON.stringify(r.details) : '',
    ]),
  );
}
