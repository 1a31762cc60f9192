import { afterAll, it } from 'vitest';
import { copyDatabase, freshDatabase, type TestDatabase } from '../helpers/db.js';
import { sleep, startScenario, type Scenario } from './harness.js';

let s: Scenario | undefined;
const databases: TestDatabase[] = [];
afterAll(async () => {
  await s?.close();
  for (const d of databases) await d.drop().catch(() => {});
});

/**
 * A failover to an asynchronous replica that was behind: the database the roles come back to has
 * lost the commits of the last seconds (blocks indexed, events written, deliveries recorded).
 * The replica is a copy of the database taken at a random moment (the roles stopped dead for the
 * copy, which needs the database idle, then started again on the primary); traffic and deliveries
 * go on for a few seconds on the primary, then it dies (the roles killed) and they start on the
 * replica. The indexer indexes the lost blocks again and writes their events again: each must come
 * under the webhook-id it had, with the same body but for its `sequence` (numbered anew: the
 * replica's counters went back with it, and a catch-up writes a batch of blocks' events in
 * another order than block by block), and nothing lost.
 */
it('failovers to a replica that lost the last seconds of commits, 2-3 times: every delivery, under the webhook-id it had', async () => {
  const primary = await freshDatabase();
  databases.push(primary);
  let current: TestDatabase = primary;
  // The scenario's database is whichever is current: the roles and the checks read it anew.
  const db = {
    get url() {
      return current.url;
    },
    get sql() {
      return current.sql;
    },
    drop: async () => {},
  };
  s = await startScenario('postgres-failover-lag', {
    confirmations: 3,
    file: 'postgres-failover-lag',
    database: db,
    lostCommits: true,
  });
  const { rng, roles } = s;
  const killRoles = () => Promise.all([roles.indexer.kill(), roles.worker.kill()]);
  const startRoles = () => {
    roles.indexer.start();
    roles.worker.start();
  };
  startRoles();
  const traffic = s.traffic.run(rng.fork('traffic'));
  try {
    await s.working();
    const failovers = rng.int(2, 3);
    for (let i = 0; i < failovers; i++) {
      await sleep(rng.int(1000, 4000));
      await killRoles();
      const replica = await copyDatabase(current);
      databases.push(replica);
      startRoles();
      // What happens now on the primary the replica never gets.
      await sleep(rng.int(1000, 5000));
      await killRoles();
      current = replica;
      startRoles();
    }
  } finally {
    await traffic.stop();
  }
  await s.finish();
}, 480_000);
