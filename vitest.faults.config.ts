import { randomInt } from 'node:crypto';
import { defineConfig } from 'vitest/config';

/**
 * The fault suite (`npm run test:faults`): seeded scenarios in test/faults/ that kill roles,
 * restart Postgres, break RPC calls, take receivers down and reorganise the chain, then check
 * what receivers and the database hold. Kept out of `npm test` (vitest.config.ts).
 * One seed for the whole run (FAULT_SEED, else drawn here), handed to every test file.
 */
const FAULT_SEED = process.env.FAULT_SEED || String(randomInt(1, 2 ** 31));
console.log(`[faults] FAULT_SEED=${FAULT_SEED}`);

export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/worker.ts'],
    env: { FAULT_SEED },
    testTimeout: 480_000,
    hookTimeout: 120_000,
    // Each scenario runs a node, an indexer and a worker of its own: two at a time on two cores.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
