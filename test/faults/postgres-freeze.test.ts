import { afterAll, it } from 'vitest';
import { startScenario, type Scenario } from './harness.js';
import { ownPostgres } from './own-postgres.js';

let pg: Awaited<ReturnType<typeof ownPostgres>> | undefined;
let s: Scenario | undefined;
afterAll(async () => {
  await s?.close();
  await pg?.close();
});

it('Postgres frozen mid-run, 2-3 times for up to 15 s (nothing refused, nothing answered): the roles wait it out, nothing lost, nothing wrong (streams and live AML)', async () => {
  pg = await ownPostgres();
  s = await startScenario('postgres-freeze', {
    confirmations: 3,
    file: 'postgres-freeze',
    database: pg.database,
    liveAml: true,
  });
  const { rng, roles } = s;
  roles.indexer.start();
  roles.worker.start();
  const traffic = s.traffic.run(rng.fork('traffic'));
  try {
    await s.working();
    await pg.freezeAtRandom(rng);
  } finally {
    await traffic.stop();
  }
  await s.finish();
}, 480_000);
