import { afterAll, it } from 'vitest';
import { startScenario, type Scenario } from './harness.js';
import { ownPostgres } from './own-postgres.js';

let pg: Awaited<ReturnType<typeof ownPostgres>> | undefined;
let s: Scenario | undefined;
afterAll(async () => {
  await s?.close();
  await pg?.close();
});

it('Postgres restarted mid-run, 2-3 times: the roles ride it out in-process, nothing lost, nothing wrong (streams and live AML)', async () => {
  pg = await ownPostgres();
  s = await startScenario('postgres-restart', {
    confirmations: 3,
    file: 'postgres-restart',
    database: pg.database,
    liveAml: true,
  });
  const { rng, roles } = s;
  // No supervisor: a role that exits fails the scenario (finish() checks that none did).
  roles.indexer.start();
  roles.worker.start();
  const traffic = s.traffic.run(rng.fork('traffic'));
  try {
    await s.working();
    await pg.restartAtRandom(rng);
  } finally {
    await traffic.stop();
  }
  await s.finish();
}, 480_000);
