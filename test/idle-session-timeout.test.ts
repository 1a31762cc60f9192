import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { poolIdleTimeoutS } from '../src/db/idle-sessions.js';
import { startTestAppliance } from './helpers/appliance.js';
import { logLines, runCli, type CliRun } from './helpers/cli.js';
import { freshDatabase, setDatabaseDefaults, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { call } from './helpers/http.js';
import { startOwnChain, type OwnChain } from './helpers/own-chain.js';

/**
 * A database whose DBA closes idle sessions (`idle_session_timeout`, here 400 ms to see many in a
 * few seconds). Tollgate's connections that are idle by design (an indexer's network lock, the
 * worker's liveness lock, graphile-worker's listener) opt out, so no lock is lost and nothing is
 * logged as failing; the pools close their idle connections before the server would, so no
 * request meets a connection the server is closing.
 */

let db: TestDatabase;
let chain: OwnChain;
const runs: CliRun[] = [];

beforeAll(async () => {
  db = await freshDatabase();
  await setDatabaseDefaults(db.sql, db.url, { idle_session_timeout: '400ms' });
  chain = await startOwnChain();
});
afterAll(async () => {
  for (const r of runs) r.child.kill('SIGKILL');
  await chain?.stop();
  await db?.drop();
});

/** The pino lines a role wrote (stderr), parsed. */
const lines = (run: CliRun) => logLines(run.err());

it('keeps its locks and listeners, logs no failure, and answers every request while the database closes idle sessions', async () => {
  expect(poolIdleTimeoutS(0)).toBe(60);
  expect(poolIdleTimeoutS(30_000)).toBe(15);
  expect(poolIdleTimeoutS(600_000)).toBe(60);

  const indexer = runCli(
    db.url,
    ['indexer'],
    {
      TOLLGATE_RPC_ETH: chain.url,
      TOLLGATE_START_BLOCK_ETH: '1',
      TOLLGATE_POLL_INTERVAL_MS_ETH: '50',
    },
    'info',
  );
  runs.push(indexer);
  const worker = runCli(db.url, ['worker'], {}, 'info');
  runs.push(worker);
  await eventually(
    async () => lines(indexer).filter((l) => l.msg === 'indexer active').length,
    (n) => n === 1,
    60_000,
  );
  await eventually(
    async () => lines(worker).filter((l) => l.msg === 'worker started').length,
    (n) => n === 1,
    60_000,
  );
  const app = await startTestAppliance(
    db.url,
    {},
    { api: true, worker: false, indexer: false, devChain: false },
  );
  try {
    const { apikey } = await createApiKey(db.sql, 'idle-sessions');
    // Requests with pauses around the server's 400 ms: each finds its connection idle for a while.
    const statuses: number[] = [];
    for (let i = 0; i < 24; i++) {
      statuses.push(
        (await call(app.baseUrl, 'GET', '/v2/stream/list', { headers: { apikey } })).status,
      );
      await new Promise((r) => setTimeout(r, 150 + (i % 6) * 100));
      if (i % 4 === 0) await chain.mine(1);
    }
    expect(statuses).toEqual(statuses.map(() => 200));
    await chain.indexedHead(db.sql);
  } finally {
    await app.stop();
  }

  for (const run of [indexer, worker]) {
    const all = lines(run);
    // Nothing lost, nothing failing: no warning or error at all.
    expect(all.filter((l) => l.level >= 40).map((l) => `${l.msg} ${l.error ?? ''}`)).toEqual([]);
    // The pools follow the server's setting, and say so once.
    expect(all.filter((l) => /closes idle sessions/.test(l.msg))).toHaveLength(1);
    // And nothing but log lines: no Node warning (node-postgres's, for a statement sent beside
    // another on a client), no dependency's console warning (graphile-worker's, for a pool it
    // was given without error listeners).
    expect(
      run
        .err()
        .split('\n')
        .filter((l) => l.trim() && !l.startsWith('{')),
    ).toEqual([]);
  }
  expect(lines(indexer).filter((l) => l.msg === 'indexer active')).toHaveLength(1);
  // The sessions that hold the locks are the ones taken at the start (never cut and taken again).
  const holders = await db.sql<{ application_name: string }[]>`
    select s.application_name from pg_locks l join pg_stat_activity s on s.pid = l.pid
    where s.datname = current_database() and l.locktype = 'advisory' and l.granted
    order by 1`;
  expect(holders.map((h) => h.application_name)).toEqual(
    expect.arrayContaining(['tollgate-indexer-lock-eth', 'tollgate-worker-liveness']),
  );
}, 120_000);
