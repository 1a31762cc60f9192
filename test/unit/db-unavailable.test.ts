import { expect, it } from 'vitest';
import {
  databaseBusy,
  databaseCannotServe,
  isDatabaseUnavailable,
} from '../../src/db/unavailable.js';

const withCode = (code: unknown) => Object.assign(new Error('x'), { code });

it('names the states of a reachable Postgres that pass when asked again', () => {
  expect(databaseBusy(withCode('53300'))).toMatch(/no free database connection/);
  expect(databaseBusy(withCode('53100'))).toMatch(/out of a resource/);
  expect(databaseBusy(withCode('53200'))).toMatch(/out of a resource/);
  expect(databaseBusy(withCode('25006'))).toMatch(/read-only/);
  expect(databaseBusy(withCode('08004'))).toMatch(/refused the connection/);
  expect(databaseBusy(withCode('40001'))).toMatch(/conflicting/);
  expect(databaseBusy(withCode('40P01'))).toMatch(/conflicting/);
  // A statement the database cancelled: a DBA's statement_timeout or lock_timeout, or its operator.
  expect(databaseBusy(withCode('57014'))).toMatch(
    /cancelled the statement \(its statement_timeout/,
  );
  expect(databaseBusy(withCode('55P03'))).toMatch(/lock_timeout/);
});

it('leaves everything else to be an error: our own mistakes, a protocol violation, no code', () => {
  for (const code of ['42P01', '23505', '22P02', '57P04', '08P01', 'ECONNRESET', '5330', 53300])
    expect(databaseBusy(withCode(code)), String(code)).toBeUndefined();
  expect(databaseBusy(new Error('x'))).toBeUndefined();
  expect(databaseBusy(null)).toBeUndefined();
  expect(databaseBusy('53300')).toBeUndefined();
  // A connection lost is the other list's (the API answers 503 for both).
  expect(isDatabaseUnavailable(withCode('ECONNRESET'))).toBe(true);
  expect(isDatabaseUnavailable(withCode('53300'))).toBe(false);
});

it('says why the database cannot serve now, out of reach or busy, and nothing for our own errors', () => {
  expect(databaseCannotServe(withCode('ECONNREFUSED'))).toBe('database unreachable');
  expect(databaseCannotServe(withCode('57P01'))).toBe('database unreachable');
  // A session the server ended for being idle (a DBA's idle timeouts) is a lost connection too.
  expect(databaseCannotServe(withCode('57P05'))).toBe('database unreachable');
  expect(databaseCannotServe(withCode('25P03'))).toBe('database unreachable');
  // And one it ended for a transaction's time (transaction_timeout, Postgres 17+).
  expect(databaseCannotServe(withCode('25P04'))).toBe('database unreachable');
  expect(databaseCannotServe(withCode('25006'))).toMatch(/read-only/);
  expect(databaseCannotServe(withCode('23505'))).toBeUndefined();
});
