import { it } from 'vitest';
import { sleep } from './harness.js';
import { ownPostgresScenario } from './own-postgres.js';

it(
  'Postgres restarted while a receiver is down too: both come back, every delivery arrives in order',
  ownPostgresScenario('postgres-restart-receiver-down', {}, async (pg, { rng, receivers }) => {
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
  }),
  480_000,
);
