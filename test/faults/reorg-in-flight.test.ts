import { afterAll, it } from 'vitest';
import { sleep, startScenario, type Scenario } from './harness.js';

let s: Scenario | undefined;
afterAll(async () => {
  await s?.close();
});

const CONFIRMATIONS = 4;
const REORGS = 8;

it(`reorgs while deliveries are in flight (slow receivers, ${REORGS} reorgs up to ${CONFIRMATIONS - 1} blocks deep): retracted, never confirmed`, async () => {
  s = await startScenario('reorg-in-flight', {
    confirmations: CONFIRMATIONS,
    file: 'reorg-in-flight',
  });
  const { rng, roles, chain, traffic } = s;
  const delays = rng.fork('receiver-delays');
  for (const r of s.receivers) r.delayMs = () => delays.int(100, 700);
  roles.indexer.start();
  roles.worker.start();
  for (let i = 0; i < REORGS; i++) {
    for (let n = rng.int(1, 3); n > 0; n--) await traffic.step(rng);
    await sleep(rng.int(0, 1500));
    // A branch the node will abandon: each step mines one block. Shallower than the
    // confirmations, so that nothing on it is confirmed (a deeper reorg would orphan confirmed
    // blocks, which the README says is possible and then retracted, but not this invariant).
    const snapshot = await chain.test.snapshot();
    const depth = rng.int(1, CONFIRMATIONS - 1);
    for (let d = 0; d < depth; d++) await traffic.step(rng);
    await sleep(rng.int(50, 900)); // the indexer takes the branch; its deliveries are on their way
    await chain.test.revert({ id: snapshot });
    await traffic.resyncNonce();
    const length = depth + rng.int(0, 2); // the same length (a tip replaced) or longer
    for (let d = 0; d < length; d++) await traffic.step(rng);
  }
  await sleep(rng.int(0, 1000));
  await s.finish();
}, 480_000);
