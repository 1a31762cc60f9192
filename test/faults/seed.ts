import { randomInt } from 'node:crypto';

/**
 * The fault suite's one source of randomness. The run's seed is FAULT_SEED (else random) and is
 * printed at the start of each scenario; each scenario draws from a PRNG seeded with the seed and
 * its own name, so that one file replays alone: `FAULT_SEED=1234 npm run test:faults -- kill`.
 * Replaying gives the same choices (kill points, faults, reorg depths); the timing of processes
 * around them is the machine's.
 */
export const FAULT_SEED: number = (() => {
  const raw = process.env.FAULT_SEED;
  if (raw === undefined || raw === '') return randomInt(1, 2 ** 31);
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`FAULT_SEED must be a non-negative integer, got ${raw}`);
  return n;
})();

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

/** The PRNG of one scenario; prints the seed that replays it. */
export function scenarioRng(scenario: string): Rng {
  console.log(`[faults] scenario "${scenario}": FAULT_SEED=${FAULT_SEED} (replay with FAULT_SEED=${FAULT_SEED} npm run test:faults)`);
  return createRng(hashString(scenario, FAULT_SEED));
}
