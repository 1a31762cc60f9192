import { afterAll, it } from 'vitest';
import { sleep, startScenario, type Scenario } from './harness.js';

let s: Scenario | undefined;
afterAll(async () => {
  await s?.close();
});

it('a webhook receiver down for a while (connection refused), then up: every delivery arrives', async () => {
  s = await startScenario('receiver-down', { confirmations: 3, file: 'receiver-down' });
  const { rng, roles, receivers } = s;
  roles.indexer.start();
  roles.worker.start();
  const traffic = s.traffic.run(rng.fork('traffic'));
  try {
    const outages = rng.int(2, 3);
    for (let i = 0; i < outages; i++) {
      await sleep(rng.int(1000, 4000));
      const down = rng.chance(0.25) ? receivers : [rng.pick(receivers)];
      for (const r of down) await r.stop();
      await sleep(rng.int(2000, 8000));
      for (const r of down) await r.start();
    }
  } finally {
    await traffic.stop();
  }
  await s.finish();
}, 480_000);
