import { configDefaults, defineConfig } from 'vitest/config';
import { ignoreDriverDefect } from './test/setup/driver-defects.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The fault suite runs on its own: npm run test:faults (vitest.faults.config.ts).
    exclude: [...configDefaults.exclude, 'test/faults/**'],
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/worker.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: files run two at a time; each gets its own database cloned from a template.
    maxWorkers: 2,
    reporters: ['default'],
    // postgres.js #1192 in the test process's own connections: said, not a failure.
    onUnhandledError: ignoreDriverDefect,
  },
});
