/**
 * The instants the database takes: Postgres's timestamptz reaches from 4713 BC to 294276 AD, but
 * a Date goes to it as ISO text (toISOString), which Postgres reads only for years 1 to 9999: year
 * 0 ("0000-…", 22008) and years past 9999 ("+010000-…", 22009) fail in the database. A time from a
 * client outside that range is refused as bad input (a 400), never a 500.
 */
const EARLIEST_MS = Date.parse('0001-01-01T00:00:00Z');
/** A day short of the end: a filter's end day is taken up to the day after it. */
const LATEST_MS = Date.parse('9999-12-30T23:59:59.999Z');

/** Whether a time (ms since the epoch; NaN is not one) lies within what the database takes. */
export function storableTime(ms: number): boolean {
  return ms >= EARLIEST_MS && ms <= LATEST_MS;
}

/** A day as `YYYY-MM-DD` that exists and lies within what the database takes. */
export function storableDay(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const ms = Date.parse(`${v}T00:00:00Z`);
  // Date.parse rolls 2025-02-30 on to March: the day must read back the same.
  return storableTime(ms) && new Date(ms).toISOString().slice(0, 10) === v;
}
