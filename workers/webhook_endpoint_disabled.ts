import type { Task } from 'graphile-worker';
import { JOBS } from '../src/db/jobs.js';
import { type OperatorNoticeDeps, sendOperatorNotice } from '../src/webhooks/operator-notice.js';

/** graphile-worker task `webhook_endpoint_disabled`: the operator's signed notice of an endpoint disabled. */
export function webhookEndpointDisabledTask(deps: OperatorNoticeDeps): Task {
  return async (payload) => {
    await sendOperatorNotice(deps, JOBS.webhook_endpoint_disabled.payload.parse(payload));
  };
}
