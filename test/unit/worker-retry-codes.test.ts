import { expect, it } from 'vitest';
import { RETRYABLE_ERROR_CODES } from 'graphile-worker/dist/lib.js';
import '../../src/jobs/worker.js';

// Found by the fault suite (test/faults/postgres-restart.test.ts): graphile-worker records a
// job's outcome without awaiting it and retries only the codes of this table, so a Postgres
// restart (57P01) while a delivery finished ended the worker process.
it('has graphile-worker wait out a Postgres restart when it records a job outcome', () => {
  for (const code of ['57P01', '57P02', '08006', 'ECONNREFUSED', 'ECONNRESET']) expect(RETRYABLE_ERROR_CODES[code], code).toBeDefined();
});
