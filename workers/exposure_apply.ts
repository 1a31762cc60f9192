import type { Task } from 'graphile-worker';
import type { Sql } from '../src/db/index.js';
import { applyPendingExposure } from '../src/aml/index.js';

/** graphile-worker task `exposure_apply`: the queued label changes of hubs, applied to the stored exposure. */
export function exposureApplyTask(deps: { sql: Sql }): Task {
  return async () => {
    await applyPendingExposure(deps.sql);
  };
}
