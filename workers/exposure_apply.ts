import type { Task } from 'graphile-worker';
import type { Sql } from '../src/db/index.js';
import { applyPendingExposure } from '../src/aml/index.js';

/**
 * graphile-worker task `exposure_apply`: the queued label changes of hubs, applied to the stored
 * exposure, chunk by chunk; a worker that is stopping ends it after the chunk in hand (the job is
 * queued again for the rest).
 */
export function exposureApplyTask(deps: { sql: Sql }): Task {
  return async (_payload, helpers) => {
    await applyPendingExposure(deps.sql, { signal: helpers.abortSignal });
  };
}
