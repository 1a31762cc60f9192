import { describe, expect, it } from 'vitest';
import { storableDay, storableTime } from '../../src/dates.js';

describe('the times the database takes', () => {
  it('are years 1 to 9999, a day short of the end', () => {
    expect(storableTime(Date.parse('0001-01-01T00:00:00Z'))).toBe(true);
    expect(storableTime(Date.parse('2026-11-29T12:00:00Z'))).toBe(true);
    expect(storableTime(Date.parse('9999-12-30T00:00:00Z'))).toBe(true);
    expect(storableTime(Date.parse('0000-12-31T23:59:59Z'))).toBe(false);
    expect(storableTime(Date.parse('9999-12-31T23:59:59-14:00'))).toBe(false);
    expect(storableTime(Number.NaN)).toBe(false);
  });

  it('takes a day that exists, written YYYY-MM-DD', () => {
    expect(storableDay('2025-03-14')).toBe(true);
    expect(storableDay('2024-02-29')).toBe(true);
    for (const bad of ['2025-02-30', '2025-13-01', '0000-01-01', '9999-12-31', '2025-3-14', ''])
      expect(storableDay(bad), bad).toBe(false);
  });
});
