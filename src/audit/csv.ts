import type { AuditEntry } from './audit.js';

/**
 * The audit log as CSV (RFC 4180, CRLF), for an auditor's spreadsheet. A cell that a spreadsheet
 * would take for a formula (starting with = + - @, or a tab or carriage return) is prefixed with
 * a single quote, so that an actor, target or reason written by anyone cannot run as one.
 */
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

export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function auditCsv(rows: AuditEntry[]): string {
  const lines = [AUDIT_CSV_COLUMNS.join(',')];
  for (const r of rows) {
    lines.push(
      [
        r.id,
        r.at.toISOString(),
        r.actor,
        r.action,
        r.target ?? '',
        r.transaction_ref ?? '',
        r.reason ?? '',
        r.client_address ?? '',
        Object.keys(r.details).length ? JSON.stringify(r.details) : '',
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
