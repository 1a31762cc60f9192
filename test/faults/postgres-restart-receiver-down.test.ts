import { afterAll, it } from 'vitest';
import { sleep, startScenario, type Scenario } from './harness.js';
import { ownPostgres } from './own-postgres.js';

let pg: Awaited<ReturnType<typeof ownPostgres>> | undefined;
let s: Scenario | undefined;
afterAll(async () => {
  await s?.close();
  await pg?.close();
});

it('Postgres restarted while a receiver is down too: both come back, every delivery arrives in order', async () => {
  pg = await ownPostgres();
  s = await startScenario('postgres-restart-receiver-down', {
    confirmations: 3,
    file: 'postgres-restart-receiver-down',
    database: pg.database,
  });
  const { rng, roles, receivers } = s;
  roles.indexer.start();
  roles.worker.start();
  const traffic = s.traffic.run(rng.fork('traffic'));
  try {
    await s.working();
    const rounds = rng.int(2, 3);
    for (let i = 0; i < rounds; i++) {
      await sleep(rng.int(1000, 4000));
      const down = rng.chance(0.3) ? receivers : [rng.pick(receivers)];
      for (const r of down) await r.stop();
      await sleep(rng.int(0, 2000));
      await pg.restart(rng.int(500, 5000));
      // The receiver comes back before, or some time after, the database.
      await sleep(rng.int(0, 4000));
      for (const r of down) await r.start();
    }
    await sleep(rng.int(1000, 3000));
  } finally {
    await traffic.stop();
  }
  await s.finish();
}, 480_000);
