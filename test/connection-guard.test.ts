import { spawn } from 'node:child_process';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isLostArrayTypesFetch, isUnwaitedDriverOutage } from '../src/db/connection-guard.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { startTcpRelay } from './helpers/tcp-relay.js';

/**
 * postgres.js 3.4.9 and a session the server ends under it (a restart, a failover, a DBA's
 * timeouts). Three of its defects there are mended in the dependency itself
 * (patches/postgres+3.4.9.patch); one (#1192) is survived by the connection guard.
 */

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

/** Runs a fixture of test/fixtures/ as its own process against this file's database. */
function run(fixture: string, args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', `test/fixtures/${fixture}`, ...args], {
    env: { ...process.env, DATABASE_URL: db.url, TOLLGATE_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

/**
 * postgres.js sets a closed connection's pause before its next connect when it closes, from the
 * pool's connection errors in a row then (Tollgate's backoff: up to 20 s). A query given to that
 * connection after the server is back waited the pause out: in database-outage's steady traffic,
 * requests 2.5 s after a freeze (after a restart) got the 2 s deadline's 503. The patch sets the
 * pause again when a connection of the pool has connected since. Here the pause of a failed
 * connect is a million seconds, so without the patch the last query is never answered.
 */
it('does not make a query wait out the pause of an outage once another connection reached the server again', async () => {
  const url = new URL(db.url);
  let relay = await startTcpRelay(url);
  const port = relay.port;
  await relay.close(); // the server is away: connections to the port are refused
  url.port = String(port);
  const sql = postgres(url.href, {
    max: 2,
    onnotice: () => {},
    backoff: (errorsInARow) => (errorsInARow > 0 ? 1e6 : 0),
  });
  try {
    // One connection fails to connect: its pause is set then, a million seconds.
    await expect(sql`select 1`).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    relay = await startTcpRelay(new URL(db.url), port);
    // The other connection (never closed, no pause) reaches the server: the count is reset.
    expect(await sql`select 1 as one`).toEqual([{ one: 1 }]);
    // It is busy, so the next query is given to the connection that failed (a query is sent
    // when it is awaited or executed).
    const busy = sql`select pg_sleep(0.3)`.execute();
    const next = sql`select 2 as two`.then((rows) => rows);
    const outcome = await Promise.race([
      next,
      new Promise((r) => setTimeout(() => r('still waiting after 10 s'), 10_000)),
    ]);
    expect(outcome).toEqual([{ two: 2 }]);
    await busy;
    expect(relay.connections()).toBe(4);
  } finally {
    await sql.end({ timeout: 1 });
    await relay.close();
  }
}, 30_000);

/**
 * Without the patch (checked with the dependency as published, and the guard installed): the
 * first and last scenarios left the pool's one connection unusable, every later query failing
 * with CONNECT_TIMEOUT after 10 s (without the guard, the process died of a TypeError, #1208); the
 * second committed the insert of a transaction that had failed, on the connection's next session
 * (#1216); the third rejected the next query with the old session's 57P01.
 */
it('fails a transaction whose session the server ended, runs none of its statements afterwards, and the connection works again', async () => {
  const { code, out } = await run('closed-connection-write.ts', []);
  const lines = out.split('\n');
  expect(lines).toContain('in-flight: transaction rejected CONNECTION_CLOSED, next query ok');
  expect(lines).toContain(
    'between: transaction rejected CONNECTION_CLOSED, insert rejected CONNECTION_CLOSED, rows 0',
  );
  expect(lines).toContain('statement: rejected CONNECTION_CLOSED, next query ok');
  const [{ v }] = await db.sql<[{ v: number }]>`
    select current_setting('server_version_num')::int as v`;
  expect(lines).toContain(
    v >= 170000
      ? 'transaction_timeout: transaction rejected CONNECTION_CLOSED, next query ok'
      : 'transaction_timeout: server before Postgres 17',
  );
  expect(out).not.toContain('TypeError');
  expect(code).toBe(0);
}, 60_000);

/**
 * postgres.js 3.4.9 reads the array types on every new connection in a promise nobody waits for
 * (porsager/postgres#1192): a connection lost during that read ends the process with an
 * unhandled rejection, as the indexer died in the fault suite's Postgres restarts.
 */
it('survives a new connection lost while it reads the array types, and the pool carries on', async () => {
  const guarded = await run('lost-types-fetch.ts', ['--guard']);
  expect(guarded.out).toContain('first query rejected: ECONNRESET');
  expect(guarded.out).toContain('(postgres.js #1192)');
  expect(guarded.out).toContain('pool works: true, arrays read as arrays: true');
  expect(guarded.out).toContain('connections through the proxy: 2');
  expect(guarded.code).toBe(0);
}, 60_000);

it('without the guard, a connection lost while it reads the array types ends the process (the dependency defect is still there)', async () => {
  const bare = await run('lost-types-fetch.ts', []);
  expect(bare.code).not.toBe(0);
  expect(bare.out).toContain('ECONNRESET');
  expect(bare.out).not.toContain('pool works');
}, 60_000);

it('recognises only a lost connection during the array-types read, not its other failures or other queries', () => {
  const typesQuery = `
      select b.oid, b.typarray
      from pg_catalog.pg_type a
      left join pg_catalog.pg_type b on b.oid = a.typelem`;
  const failure = (code: string, query: string) => Object.assign(new Error(code), { code, query });
  expect(isLostArrayTypesFetch(failure('ECONNRESET', typesQuery))).toBe(true);
  expect(isLostArrayTypesFetch(failure('57P01', typesQuery))).toBe(true);
  expect(isLostArrayTypesFetch(failure('CONNECTION_CLOSED', typesQuery))).toBe(true);
  // A cancelled read leaves the connection running without the types: not survived.
  expect(isLostArrayTypesFetch(failure('57014', typesQuery))).toBe(false);
  // Our own queries' rejections are never excused.
  expect(isLostArrayTypesFetch(failure('ECONNRESET', 'select 1'))).toBe(false);
  expect(isLostArrayTypesFetch(new Error('read ECONNRESET'))).toBe(false);
  expect(isLostArrayTypesFetch(undefined)).toBe(false);
});

it("recognises a refused or lost connection in a promise of the driver's own, never one of our queries", () => {
  const driverStack = [
    'PostgresError: sorry, too many clients already',
    '    at ErrorResponse (/app/node_modules/postgres/src/connection.js:794:26)',
    '    at handle (/app/node_modules/postgres/src/connection.js:480:6)',
    '    at Socket.data (/app/node_modules/postgres/src/connection.js:315:9)',
    '    at Socket.emit (node:events:519:28)',
    '    at addChunk (node:internal/streams/readable:559:12)',
    '    at new Promise (<anonymous>)',
  ].join('\n');
  const failure = (code: string, stack: string) => Object.assign(new Error('x'), { code, stack });
  expect(isUnwaitedDriverOutage(failure('53300', driverStack))).toBe(true);
  expect(isUnwaitedDriverOutage(failure('08006', driverStack))).toBe(true);
  expect(isUnwaitedDriverOutage(failure('ECONNRESET', driverStack))).toBe(true);
  // A query of ours carries the frames of the code that made it: its failure is never excused.
  const ours = `${driverStack}\n    at listStreams (/app/dist/src/streams/streams.js:210:7)`;
  expect(isUnwaitedDriverOutage(failure('53300', ours))).toBe(false);
  // Nor a failure that is not the connection's.
  expect(isUnwaitedDriverOutage(failure('57014', driverStack))).toBe(false);
  expect(isUnwaitedDriverOutage(failure('08P01', driverStack))).toBe(false);
  expect(isUnwaitedDriverOutage(failure('23505', driverStack))).toBe(false);
  expect(isUnwaitedDriverOutage(failure('53300', 'PostgresError: no frames'))).toBe(false);
  expect(isUnwaitedDriverOutage(undefined)).toBe(false);
});
