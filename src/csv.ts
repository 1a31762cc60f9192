/**
 * CSV for an auditor's spreadsheet (RFC 4180, CRLF line ends). A cell that a spreadsheet would
 * take for a formula (starting with = + - @, or a tab or carriage return) is prefixed with a
 * single quote, so that text written by anyone (an actor, a reason, a reference) cannot run as
 * one.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A header line and one line per row, every cell through csvCell. */
export function toCsv(columns: readonly string[], rows: Iterable<readonly string[]>): string {
  const lines = [columns.join(',')];
  for (const row of rows) lines.push(row.map(csvCell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
