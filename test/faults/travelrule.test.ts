import { afterAll, expect, it } from 'vitest';
import { sleep } from './harness.js';
import { scenarioRng } from './seed.js';
import {
  describeTransfer,
  faultsUntil,
  runTransfer,
  settleAndCheck,
  startTwoSides,
  type Side,
  type Transfer,
} from './travelrule-world.js';

let sides: Side[] = [];
afterAll(async () => {
  for (const s of sides) {
    await Promise.all(Object.values(s.roles).map((r) => r.stop().catch(() => {})));
    await s.backend.stop();
    await s.pg.database!.drop().catch(() => {});
    await s.pg.close();
  }
});

/** Transfers A → B and B → A, run this many at a time. */
const TRANSFERS = 16;
const AT_ONCE = 4;

it(`Travel Rule between two Tollgates over TRP while either side's api, worker, Postgres or backend fails: ${TRANSFERS} transfers each stored once, end where both sides agree, every message and webhook delivered, nothing personal in a log`, async () => {
  const rng = scenarioRng('travelrule', 'travelrule');
  sides = await startTwoSides();
  const [a, b] = sides as [Side, Side];
  const plan = rng.fork('transfers');
  const transfers: Transfer[] = Array.from({ length: TRANSFERS }, (_, i) => {
    const [from, to] = plan.chance(0.7) ? [a, b] : [b, a];
    return {
      from,
      to,
      ref: `faults-${from.label}${to.label}-${i}`,
      accept: plan.chance(0.75),
      txid: `0x${(i + 1).toString(16).padStart(64, '0')}`,
    };
  });
  const people = rng.fork('people');
  const pause = async () => {
    await sleep(people.int(0, 1500));
  };
  let finished = false;
  // The faults done so far, and when: a transfer that does not finish says where it stood.
  const timeline: string[] = [];
  const t0 = Date.now();
  const queue = [...transfers];
  const lanes = Array.from({ length: AT_ONCE }, async () => {
    for (let t = queue.shift(); t; t = queue.shift())
      await runTransfer(t, pause).catch(async (err: Error) => {
        throw new Error(
          `${err.message} (+${((Date.now() - t0) / 1000).toFixed(1)} s)\n${await describeTransfer(t)}\nfaults so far: ${timeline.join(', ')}`,
        );
      });
  });
  const traffic = Promise.all(lanes).finally(() => {
    finished = true;
  });
  const faults = faultsUntil(rng.fork('faults'), sides, () => finished, timeline);
  // A role that exits on its own (no supervisor here) fails the scenario at once, saying why,
  // instead of leaving the transfers to wait out their time.
  let watch: NodeJS.Timeout | undefined;
  const crashed = new Promise<never>((_, reject) => {
    watch = setInterval(() => {
      const crashes = sides.flatMap((s) => Object.values(s.roles).flatMap((r) => r.crashes));
      if (crashes.length > 0)
        reject(new Error(`a role exited on its own:\n${crashes.join('\n---\n')}`));
    }, 500);
  });
  try {
    await Promise.race([traffic, crashed]);
  } finally {
    clearInterval(watch);
    finished = true;
  }
  await faults;
  const { findings, summary } = await settleAndCheck(sides, transfers);
  console.log(`[faults] travelrule: ${summary}; faults: ${timeline.join(', ')}`);
  expect(findings).toEqual([]);
}, 720_000);
