import type { Task } from 'graphile-worker';
import { JOBS } from '../src/db/jobs.js';
import { type SenderDeps, sendMessage } from '../src/travelrule/index.js';

/** graphile-worker task `travelrule_send`: one attempt at one message to another VASP (TRP or e-mail). */
export function travelRuleSendTask(deps: SenderDeps): Task {
  return async (payload, helpers) => {
    const { message_id } = JOBS.travelrule_send.payload.parse(payload);
    await sendMessage(deps, String(message_id), {
      attempts: helpers.job.attempts,
      max_attempts: helpers.job.max_attempts,
    });
  };
}
