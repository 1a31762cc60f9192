import { expect, it } from 'vitest';
import { startMayWait, startWhenDatabaseServes } from '../../src/db/start-wait.js';

const withCode = (code: unknown) => Object.assign(new Error('x'), { code });

it('waits at the start for a database that may serve in a moment, as either driver says it', () => {
  expect(startMayWait(withCode('ECONNREFUSED'))).toBe('database unreachable');
  expect(startMayWait(withCode('57P03'))).toBe('database unreachable');
  expect(startMayWait(withCode('53300'))).toMatch(/no free database connection/);
  // node-postgres (graphile-worker's migrations) when Postgres restarts under it: no code.
  expect(startMayWait(new Error('Connection terminated unexpectedly'))).toBe(
    'the database connection was lost',
  );
  expect(
    startMayWait(new Error('Client has encountered a connection error and is not queryable')),
  ).toBe('the database connection was lost');
});

it('does not wait for what no wait mends', () => {
  expect(startMayWait(withCode('28P01'))).toBeUndefined(); // password refused
  expect(startMayWait(withCode('42P01'))).toBeUndefined();
  expect(startMayWait(new Error('ENOTFOUND db.example'))).toBeUndefined();
  expect(startMayWait(new Error('terminated: Connection terminated unexpectedly'))).toBeUndefined();
});

it('starts again after a start that lost its connection to a restarting Postgres', async () => {
  let tries = 0;
  const started = await startWhenDatabaseServes(
    async () => {
      tries++;
      if (tries === 1) throw new Error('Connection terminated unexpectedly');
      return 'up';
    },
    { waitMs: 10_000, stopping: () => false },
  );
  expect(started).toBe('up');
  expect(tries).toBe(2);
});
