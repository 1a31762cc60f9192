import { randomInt } from 'node:crypto';

/**
 * The fault suite's one source of randomness. Each scenario draws a fresh random seed of its own
 * (or takes FAULT_SEED when it is set) and prints it at its start; its PRNG is seeded with that
 * seed and its name, so one file replays alone: `FAULT_SEED=1234 npm run test:faults -- kill`.
 * Replaying gives the same choices (kill points, faults, reorg depths); the timing of processes
 * around them is the machine's.
 */
function seedOfRun(): number | undefined {
  const raw = process.env.FAULT_SEED;
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0)
    throw new Error(`FAULT_SEED must be a non-negative integer, got ${raw}`);
  return n;
}

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** A child PRNG with its own stream (e.g. for a proxy whose calls interleave with the scenario's). */
  fork(label: string): Rng;
}

function hashString(s: string, seed: number): number {
  let h = seed ^ 0x9e3779b9;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x85ebca6b) >>> 0;
  return (h ^ (h >>> 15)) >>> 0;
}

/** mulberry32: small, fast, and good enough to spread faults. */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)]!,
    fork: (label) => createRng(hashString(label, seed)),
  };
  return rng;
}

/** The command that replays the scenario of this test file, once it has drawn its seed. */
let replay: string | undefined;

/**
 * The PRNG of one scenario (`file` its test file's name); prints the seed that replays it at the
 * start, and a failure of the scenario's test names it too (test/setup/faults.ts), where the end
 * of a long run's output, all that a CI log may keep, still shows it.
 */
export function scenarioRng(scenario: string, file: string): Rng {
  const seed = seedOfRun() ?? randomInt(1, 2 ** 31);
  replay = `FAULT_SEED=${seed} npm run test:faults -- ${file}`;
  console.log(`[faults] scenario "${scenario}": FAULT_SEED=${seed} (replay: ${replay})`);
  return createRng(hashString(scenario, seed));
}

/** The replay command of the scenario this test file ran, if it drew its seed. */
export function scenarioReplay(): string | undefined {
  return replay;
}
