import { afterAll, it } from 'vitest';
import { sleep, startScenario, type Scenario } from './harness.js';

let s: Scenario | undefined;
afterAll(async () => {
  await s?.close();
});

const KILLS = 20;

it(`kill -9 of the indexer or the worker at ${KILLS} random points, then restart: nothing lost, nothing wrong`, async () => {
  s = await startScenario('kill', { confirmations: 3, file: 'kill' });
  const { rng, roles } = s;
  // Receivers that take a moment, so that some kills land while deliveries are in flight.
  const delays = rng.fork('receiver-delays');
  for (const r of s.receivers) r.delayMs = () => delays.int(0, 150);
  roles.indexer.start();
  roles.worker.start();
  const traffic = s.traffic.run(rng.fork('traffic'));
  try {
    for (let i = 0; i < KILLS; i++) {
      const victim = rng.pick([roles.indexer, roles.worker]);
      if (victim === roles.worker && rng.chance(0.5)) {
        // The kill point: as a delivery reaches a receiver, before its answer (jobs locked, in flight).
        await sleep(rng.int(0, 1500));
        await Promise.race(s.receivers.map((r) => r.nextRequest(10_000)));
      } else {
        await sleep(rng.int(200, 3000)); // the kill point: up to a few seconds after the last (re)start
      }
      await victim.kill();
      await sleep(rng.int(0, 800)); // down for a moment while blocks keep coming
      victim.start();
    }
  } finally {
    await traffic.stop();
  }
  await s.finish();
}, 480_000);
