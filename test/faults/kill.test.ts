import { afterAll, it } from 'vitest';
import { killAtRandomPoints, startScenario, type Scenario } from './harness.js';

let s: Scenario | undefined;
afterAll(async () => {
  await s?.close();
});

const KILLS = 20;

it(`kill -9 of the indexer or the worker at ${KILLS} random points, then restart: nothing lost, nothing wrong (streams and live AML)`, async () => {
  s = await startScenario('kill', { confirmations: 3, file: 'kill', liveAml: true });
  const { rng, roles } = s;
  // Receivers that take a moment, so that some kills land while deliveries are in flight.
  const delays = rng.fork('receiver-delays');
  for (const r of s.receivers) r.delayMs = () => delays.int(0, 150);
  roles.indexer.start();
  roles.worker.start();
  const traffic = s.traffic.run(rng.fork('traffic'));
  try {
    await killAtRandomPoints(rng, roles, s.receivers, KILLS);
  } finally {
    await traffic.stop();
  }
  await s.finish();
}, 480_000);
