import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { deliverEvent, type DeliveryDeps } from '../src/webhooks/deliver.js';

const Payload = z.object({ event_id: z.uuid() });

/** graphile-worker task `deliver_webhook`: one attempt at one webhook event. */
export function deliverWebhookTask(deps: DeliveryDeps): Task {
  return async (payload, helpers) => {
    const { event_id } = Payload.parse(payload);
    await deliverEvent(deps, event_id, { id: helpers.job.id, attempts: helpers.job.attempts, max_attempts: helpers.job.max_attempts });
  };
}
