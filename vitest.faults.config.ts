import { defineConfig } from 'vitest/config';
import { ignoreDriverDefect } from './test/setup/driver-defects.js';

/**
 * The fault suite (`npm run test:faults`): seeded scenarios in test/faults/ that kill roles,
 * restart Postgres, break RPC calls, take receivers down and reorganise the chain, then check
 * what receivers and the database hold. Kept out of `npm test` (vitest.config.ts).
 * Each scenario draws a seed of its own and prints it (test/faults/seed.ts); FAULT_SEED set
 * gives every scenario that one (a replay).
 */

export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/worker.ts', 'test/setup/faults.ts'],
    testTimeout: 480_000,
    hookTimeout: 120_000,
    // Each scenario runs a node, an indexer and a worker of its own: two at a time on two cores.
    maxWorkers: 2,
    reporters: ['default'],
    // postgres.js #1192 in the test process's own connections: said, not a failure.
    onUnhandledError: ignoreDriverDefect,
  },
});
