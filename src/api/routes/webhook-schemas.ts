import { z } from 'zod';
import { storableTime } from '../../dates.js';
import { MAX_ROTATION_OVERLAP_HOURS } from '../../keys/index.js';

/** The schemas of the webhook operations' routes (routes/webhooks.ts). */

export const TEST_KINDS = ['stream', 'aml', 'travelrule', 'test'] as const;

/** A kind of webhook as the API names it: stream, aml (live AML), travelrule, test. */
export const KindField = <const K extends readonly [string, ...string[]]>(kinds: K) =>
  z.enum(kinds).meta({
    description: `Kind of webhook: ${kinds.join(', ')} (aml: live AML).`,
  });

/** An event's id: the uuid, or the webhook-id (`msg_<uuid>`) the receiver saw. */
export const EventIdField = z
  .string()
  .regex(
    /^(msg_)?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
    'must be an event id (a uuid) or its webhook-id (msg_<uuid>)',
  )
  .meta({ description: "The event's id, or its webhook-id (msg_<id>) as the receiver saw it." });

/** A point in time, ISO 8601 with a zone: `2025-03-14T06:00:00Z`. */
export const Since = z.iso
  .datetime({
    offset: true,
    error: 'must be an ISO 8601 time with a zone, e.g. 2025-03-14T06:00:00Z',
  })
  .refine((v) => storableTime(Date.parse(v)), 'must be a time from year 1 to 9999')
  .meta({ description: 'ISO 8601 time with a zone (Z or an offset), e.g. 2025-03-14T06:00:00Z.' });

const OVERLAP = {
  error: `must be a number of hours from 0 to ${MAX_ROTATION_OVERLAP_HOURS}`,
};
/** Hours the replaced secret keeps signing: a number, or its digits in a form body. */
export const OverlapHours = z
  .union(
    [
      z.number(OVERLAP).min(0, OVERLAP).max(MAX_ROTATION_OVERLAP_HOURS, OVERLAP),
      z
        .string(OVERLAP)
        .regex(/^\d{1,3}(\.\d{1,6})?$/, OVERLAP)
        .refine((v) => Number(v) <= MAX_ROTATION_OVERLAP_HOURS, OVERLAP),
    ],
    OVERLAP,
  )
  .meta({
    description: `Hours the replaced secret keeps signing beside the new one: 0 to ${MAX_ROTATION_OVERLAP_HOURS}, fractions allowed (default 24).`,
  });

export const DeliveryAttempt = z
  .object({
    event_id: z.string().meta({ description: "The event's id." }),
    webhook_id: z
      .string()
      .meta({ description: 'The webhook-id the receiver saw: msg_<event_id>.' }),
    kind: z.enum(TEST_KINDS),
    address: z
      .string()
      .nullable()
      .meta({ description: 'The subscription\u2019s address; null for travel rule webhooks.' }),
    network: z.string().nullable(),
    tx_hash: z.string().nullable(),
    sequence: z
      .int()
      .nullable()
      .meta({ description: 'The event\u2019s sequence in its subscription; null without one.' }),
    event_status: z.enum(['pending', 'delivered', 'failed', 'cancelled']).meta({
      description:
        'The event now: pending (due, backing off, or held), delivered, failed (given up), cancelled.',
    }),
    attempt: z.int().min(1),
    attempted_at: z.iso.datetime(),
    url: z.string(),
    succeeded: z.boolean().meta({ description: 'The receiver answered 2xx.' }),
    status_code: z
      .int()
      .nullable()
      .meta({ description: 'The receiver\u2019s HTTP status; null: no answer.' }),
    duration_ms: z.int().min(0),
    error: z.string().nullable().meta({ description: 'Why it failed; null on a 2xx.' }),
    response: z.string().nullable().meta({
      description:
        'The first bytes of the receiver\u2019s answer body (at most 1 KiB, UTF-8); null when it did not answer, and for travel rule webhooks.',
    }),
  })
  .meta({ id: 'DeliveryAttempt' });

export const EndpointRecord = z
  .object({
    url: z.string(),
    state: z.enum(['active', 'failing', 'disabled']),
    failing_since: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'The first attempt without a 2xx since the last 2xx.' }),
    disabled_at: z.iso.datetime().nullable(),
    last_attempt_at: z.iso.datetime().nullable(),
    last_status_code: z.int().nullable(),
    last_error: z.string().nullable(),
    last_success_at: z.iso.datetime().nullable(),
    streams: z.int().min(0).meta({ description: 'Streams of this key that use it.' }),
    liveaml: z.int().min(0).meta({ description: 'Live AML trackings of this key that use it.' }),
    travelrule: z.boolean().meta({ description: 'It is this key\u2019s travel rule webhook.' }),
    pending_events: z.int().min(0),
  })
  .meta({ id: 'WebhookEndpoint' });

export const PauseRecord = z.object({
  address: z.string(),
  paused: z.boolean(),
  released: z
    .int()
    .min(0)
    .meta({ description: 'Events kept during the pause and due now (a resume); 0 for a pause.' }),
});
