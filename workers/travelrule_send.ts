import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { sendMessage, type SenderDeps } from '../src/travelrule/messages.js';

const Payload = z.object({
  message_id: z.union([z.int().positive(), z.string().regex(/^\d{1,19}$/)]),
});

/** graphile-worker task `travelrule_send`: one attempt at one message to another VASP (TRP or e-mail). */
export function travelRuleSendTask(deps: SenderDeps): Task {
  return async (payload, helpers) => {
    const { message_id } = Payload.parse(payload);
    await sendMessage(deps, String(message_id), {
      attempts: helpers.job.attempts,
      max_attempts: helpers.job.max_attempts,
    });
  };
}
