import { afterAll, beforeAll, expect, it } from 'vitest';
import { readiness } from '../src/api/readiness.js';
import { NetworkLock } from '../src/indexer/network-lock.js';
import { indexerStatus } from '../src/indexer/status.js';
import { log } from '../src/log.js';
import { logLines, runCli, type CliRun } from './helpers/cli.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { startOwnChain, type OwnChain } from './helpers/own-chain.js';

/**
 * One active indexer per network, when the lock's database session ends under it (as in a
 * Postgres restart, a failover or a cut connection): two indexer processes of one network, the
 * active one's lock session is terminated; the other takes over, and the first steps down
 * instead of writing on beside it. Both stop with exit code 0 on SIGTERM afterwards.
 */

let db: TestDatabase;
let chain: OwnChain;
const runs: CliRun[] = [];

beforeAll(async () => {
  db = await freshDatabase();
  chain = await startOwnChain();
});
afterAll(async () => {
  for (const r of runs) r.child.kill('SIGKILL');
  await chain?.stop();
  await db?.drop();
});

const said = (run: CliRun, msg: string) => logLines(run.err()).filter((l) => l.msg === msg);

it('steps down when its lock session ends, lets the standby take over, and never writes beside it', async () => {
  const env = {
    TOLLGATE_RPC_ETH: chain.url,
    TOLLGATE_START_BLOCK_ETH: '1',
    TOLLGATE_POLL_INTERVAL_MS_ETH: '50',
  };
  await chain.mine(3);
  const a = runCli(db.url, ['indexer'], env, 'info');
  runs.push(a);
  await eventually(
    async () => said(a, 'indexer active').length,
    (n) => n === 1,
    60_000,
  );
  const b = runCli(db.url, ['indexer'], env, 'info');
  runs.push(b);
  await eventually(
    async () => said(b, 'another indexer holds this network; standing by').length,
    (n) => n === 1,
    60_000,
  );
  await chain.indexedHead(db.sql);

  // The active indexer's lock session ends (its other connections stay up). The standby has a
  // lock connection of its own (trying for the lock) that holds nothing: it stays. pg_locks and
  // pg_stat_activity are the whole server's: other test files run indexers in other databases.
  const killed =
    await db.sql`select pg_terminate_backend(pid) from (select distinct s.pid from pg_stat_activity s join pg_locks l on l.pid = s.pid
    where s.application_name = 'tollgate-indexer-lock-eth' and s.datname = current_database() and l.locktype = 'advisory' and l.granted) holder`;
  expect(killed).toHaveLength(1);
  await chain.mine(5);
  // Whichever takes the lock first (the standby, or the first one again) is the only one active.
  await eventually(
    async () => said(a, 'indexer active').length + said(b, 'indexer active').length,
    (n) => n === 2,
    30_000,
  );
  await chain.indexedHead(db.sql);
  await chain.mine(3);
  await chain.indexedHead(db.sql);

  // Exactly one lock session (b's), and a is standing by, not writing.
  const holders =
    await db.sql`select distinct l.pid from pg_locks l join pg_stat_activity s on s.pid = l.pid
    where l.locktype = 'advisory' and l.granted and s.application_name = 'tollgate-indexer-lock-eth' and s.datname = current_database()`;
  expect(holders).toHaveLength(1);
  const lostA = said(
    a,
    'indexer lost its network lock with its database session; standing by to take it again',
  );
  expect(lostA, 'a noticed it lost the lock').toHaveLength(1);
  expect(said(a, 'indexer active').length + said(b, 'indexer active').length).toBe(2);
  // The cursor never moved under an indexer: no two wrote at once.
  expect(a.err() + b.err()).not.toContain('cursor moved under this indexer');

  for (const r of [a, b]) r.child.kill('SIGTERM');
  expect(await a.exited).toBe(0);
  expect(await b.exited).toBe(0);
}, 120_000);

/**
 * A killed indexer: its lock session ends with its process, so /readyz and `indexer status` say
 * nobody follows the network at once, while the head it stored a moment ago still looks fresh (they
 * said "ready", lag 0, for up to 60 s; found by an outside probe).
 */
it('says at once that no indexer follows a network whose indexer was killed', async () => {
  const env = {
    TOLLGATE_RPC_ETH: chain.url,
    TOLLGATE_START_BLOCK_ETH: '1',
    TOLLGATE_POLL_INTERVAL_MS_ETH: '50',
  };
  const c = runCli(db.url, ['indexer'], env, 'info');
  runs.push(c);
  await chain.mine(2);
  await chain.indexedHead(db.sql);
  const ready = await eventually(
    () => readiness(db.sql, ['eth'], 50),
    (r) => r.ready,
    30_000,
  );
  expect(ready.networks.eth).toMatchObject({ ready: true, lag_blocks: 0 });
  c.child.kill('SIGKILL');
  await c.exited;
  const after = await eventually(
    () => readiness(db.sql, ['eth'], 50),
    (r) => !r.ready,
    30_000,
  );
  expect(after.networks.eth).toMatchObject({
    ready: false,
    lag_blocks: 0,
    reason: 'no indexer holds this network (is its indexer running?)',
  });
  const [status] = await indexerStatus(db.sql);
  expect(status).toMatchObject({ network: 'eth', followed: false, head_stale: false });
}, 120_000);

it('never reports a negative lag when the node is behind the indexed block (after a failover)', async () => {
  await db.sql`delete from indexer_cursors where network = 'polygon'`;
  const held = await NetworkLock.tryAcquire(db.url, 'polygon', log);
  await db.sql`insert into indexer_cursors (network, chain_id, block_number, block_hash, head_number, head_seen_at)
    values ('polygon', 137, 120, '0xaa', 117, now())`;
  try {
    const ready = await readiness(db.sql, ['polygon'], 50);
    expect(ready.networks.polygon).toMatchObject({
      ready: true,
      indexed_block: '120',
      head_block: '117',
      lag_blocks: 0,
    });
  } finally {
    await held!.release();
    await db.sql`delete from indexer_cursors where network = 'polygon'`;
  }
});
