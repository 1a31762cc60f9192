import { z } from 'zod';
import {
  type DeliveriesDeps,
  enableEndpoint,
  keyActor,
  listAttempts,
  listEndpoints,
  pauseSubscription,
  recoverSince,
  redeliverEvent,
  resumeSubscription,
  rotateSecret,
  sendTestEvent,
} from '../../deliveries/index.js';
import { ApiError, apiErrorOf, ErrorNumber } from '../../errors.js';
import { DEFAULT_ROTATION_OVERLAP_HOURS, MAX_ROTATION_OVERLAP_HOURS } from '../../keys/index.js';
import type { Sql } from '../../db/index.js';
import type { AllowList } from '../../net/ssrf.js';
import { defineRoute, type Route } from '../route.js';
import { Address, PageQuery, WebhookUrl, envelope } from '../schemas.js';
import { LIVE_AML_COVERS, streamAddressOrThrow, webhookOrThrow } from './streams.js';
import {
  DeliveryAttempt,
  EndpointRecord,
  EventIdField,
  KindField,
  OverlapHours,
  PauseRecord,
  Since,
  TEST_KINDS,
} from './webhook-schemas.js';

/**
 * Webhook operations (not in the spec; README "Webhook operations"): the delivery log, redelivery
 * and recovery, test events, pause and resume, secret rotation, and endpoints disabled after
 * failing. Every route sees and changes only what belongs to the calling key. Error numbers: 5000
 * for a field that fails validation or a request the event's state does not allow, 5002 for an
 * invalid address, 5003 for what this key does not have (an event, a subscription, an endpoint),
 * 5004 for an invalid webhook URL.
 */

const TAG = 'Webhook operations';

/** The routes' answers to what an operation refuses (src/deliveries/). */
async function refusals<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw apiErrorOf(err, 'v2');
  }
}

/** `msg_<uuid>` (the webhook-id) or the bare uuid, as the event's id. */
function eventIdOf(value: string): string {
  return value.replace(/^msg_/, '').toLowerCase();
}

const PAUSE_SUMMARY = {
  stream: { noun: 'stream', path: '/stream', tag: 'Stream' },
  aml: { noun: 'live AML tracking', path: '/liveaml', tag: 'Live AML' },
} as const;

function pauseRoutes(deps: () => DeliveriesDeps, which: 'stream' | 'aml'): Route[] {
  const { noun, path, tag } = PAUSE_SUMMARY[which];
  const address =
    which === 'stream'
      ? '0x9E7454285FBBfc8c034bad9Cb4cBfba6254D7D87'
      : '0x5fA78c6C209EEc0c5C6BDBfb1bd48e65291b76AA';
  const stored = address.toLowerCase();
  const spec = (paused: boolean) => ({
    method: 'post' as const,
    path: `${path}/${paused ? 'pause' : 'resume'}`,
    tag,
    summary: paused ? `Pause a ${noun}` : `Resume a paused ${noun}`,
    description: paused
      ? `Not in the spec. The ${noun}'s events are still written (and numbered by \`sequence\`) while it is paused, and kept: nothing is sent until it is resumed. Events already on their way are not called back. Pausing again changes nothing. An address this key has no ${noun} for gets 5003.`
      : `Not in the spec. The events kept while the ${noun} was paused are due at once, in the order they were written, under the ordering rules of every webhook (README, "What you can rely on"); \`released\` says how many. Resuming one not paused changes nothing. An address this key has no ${noun} for gets 5003.`,
    body: z.object({ address: Address }),
    response: envelope(PauseRecord),
    fieldErrors: { address: ErrorNumber.INVALID_ADDRESS },
    errors: [ErrorNumber.INVALID_ADDRESS, ErrorNumber.NOT_FOUND_FOR_KEY, ErrorNumber.BAD_REQUEST],
    example: {
      body: { address },
      data: { address: stored, paused, released: paused ? 0 : 12 },
    },
  });
  return [true, false].map((paused) =>
    defineRoute(spec(paused), async ({ body, apiKey }) => {
      const { address: normalized } = streamAddressOrThrow(body.address, {
        covers: which === 'aml' ? LIVE_AML_COVERS : undefined,
      });
      const r = { apiKeyId: apiKey.id, address: normalized, which, actor: keyActor(apiKey.id) };
      const result = await refusals(() =>
        paused ? pauseSubscription(deps(), r) : resumeSubscription(deps(), r),
      );
      return { data: { address: normalized, paused, released: result.released } };
    }),
  );
}

/** What the routes need of the app's dependencies (AppDeps). */
interface WebhookRouteDeps {
  sql: Sql;
  allow: AllowList;
  /** Its maxAttempts is the configured webhook_max_attempts; config.webhook_url the default travel rule webhook. */
  travelRule?: { maxAttempts: number; config: { webhook_url?: string } };
}

export function webhookRoutes(appDeps: WebhookRouteDeps): Route[] {
  // Read when a request runs (the document is generated without any dependency).
  const deps = (): DeliveriesDeps => ({
    sql: appDeps.sql,
    // The configured webhook_max_attempts (the travel rule's deps carry it for the same outbox).
    maxAttempts: appDeps.travelRule?.maxAttempts ?? 25,
    travelRuleWebhookUrl: appDeps.travelRule?.config.webhook_url,
  });
  const exampleEvent = '0f8a6c2e-4b1d-4c3a-9e57-2d6b8f1a7c90';
  return [
    defineRoute(
      {
        method: 'get',
        path: '/webhook/deliveries',
        tag: TAG,
        summary: "List this key's webhook delivery attempts (the delivery log)",
        description:
          "Not in the spec. Every attempt to deliver one of this key's webhooks (stream, live AML, travel rule, test), newest first: when, where, the HTTP status, the latency, the error, and the first bytes of the receiver's answer (`response`, at most 1 KiB; null when there was no answer, and for travel rule webhooks, whose bodies may hold persons). Filters: `address`, `kind` (stream, aml, travelrule, test), `event_id` (the event's id or its webhook-id `msg_…`), `status` (succeeded: a 2xx; failed: anything else) and `since` (ISO 8601). Attempts recorded before this version are not listed.",
        query: z.object({
          address: Address.optional(),
          kind: KindField(TEST_KINDS).optional(),
          event_id: EventIdField.optional(),
          status: z
            .enum(['succeeded', 'failed'])
            .optional()
            .meta({ description: 'succeeded: answered 2xx; failed: any other answer, or none.' }),
          since: Since.optional(),
          ...PageQuery(false),
        }),
        response: envelope(z.array(DeliveryAttempt), true),
        fieldErrors: { address: ErrorNumber.INVALID_ADDRESS },
        errors: [ErrorNumber.BAD_REQUEST, ErrorNumber.INVALID_ADDRESS],
        example: {
          query: { kind: 'aml', page: '1', limit: '10' },
          data: [
            {
              event_id: exampleEvent,
              webhook_id: `msg_${exampleEvent}`,
              kind: 'aml',
              address: '0x5fa78c6c209eec0c5c6bdbfb1bd48e65291b76aa',
              network: 'eth',
              tx_hash: '0x6f6a1c8b0e2d4f7a9b3c5d7e9f1a2b4c6d8e0f1a3b5c7d9e1f2a4b6c8d0e2f4a',
              sequence: 3,
              event_status: 'delivered',
              attempt: 2,
              attempted_at: '2025-03-14T09:27:41.112Z',
              url: 'https://backend.example.com/hooks/aml',
              succeeded: true,
              status_code: 200,
              duration_ms: 84,
              error: null,
              response: '{"ok":true}',
            },
          ],
          page_count: 1,
        },
      },
      async ({ query, apiKey }) => {
        const address =
          query.address === undefined ? undefined : streamAddressOrThrow(query.address).address;
        const { rows, total } = await listAttempts(deps(), {
          apiKeyId: apiKey.id,
          address,
          kind: query.kind,
          eventId: query.event_id === undefined ? undefined : eventIdOf(query.event_id),
          succeeded: query.status === undefined ? undefined : query.status === 'succeeded',
          since: query.since === undefined ? undefined : new Date(query.since),
          page: query.page,
          limit: query.limit,
        });
        return {
          data: rows.map((r) => ({ ...r, attempted_at: r.attempted_at.toISOString() })),
          page_count: Math.ceil(total / query.limit),
        };
      },
    ),

    defineRoute(
      {
        method: 'post',
        path: '/webhook/redeliver',
        tag: TAG,
        summary: 'Send one webhook event again',
        description:
          "Not in the spec. Queues one of this key's events for delivery again, now: a given-up one (with a new allowance of attempts) or a delivered one. It keeps its webhook-id, its body byte for byte and its `sequence`, so a receiver that deduplicates sees one message. A pending event (already on its way) and a cancelled one (its subscription removed, its transaction reorganised away) get 5000; an id this key does not have, 5003.",
        body: z.object({ event_id: EventIdField }),
        response: envelope(
          z.object({
            event_id: z.string(),
            status: z.literal('pending').meta({ description: 'Queued: due now.' }),
          }),
        ),
        errors: [ErrorNumber.BAD_REQUEST, ErrorNumber.NOT_FOUND_FOR_KEY],
        example: {
          body: { event_id: `msg_${exampleEvent}` },
          data: { event_id: exampleEvent, status: 'pending' },
        },
      },
      async ({ body, apiKey }) => {
        const eventId = eventIdOf(body.event_id);
        await refusals(() =>
          redeliverEvent(deps(), { apiKeyId: apiKey.id, eventId, actor: keyActor(apiKey.id) }),
        );
        return { data: { event_id: eventId, status: 'pending' } };
      },
    ),

    defineRoute(
      {
        method: 'post',
        path: '/webhook/recover',
        tag: TAG,
        summary: 'Send again every webhook event given up since a time',
        description:
          "Not in the spec. Queues again this key's events given up (attempts used up, or refused by the receiver) at or after `since`, optionally of one `address` and one `kind`, each with a new allowance of attempts, due in the order they were written; delivered and pending events are not touched. At most 10,000 per call: `more` says whether some are left (call again with the same `since`).",
        body: z.object({
          since: Since,
          address: Address.optional(),
          kind: KindField(['stream', 'aml', 'travelrule']).optional(),
        }),
        response: envelope(
          z.object({
            requeued: z.int().min(0).meta({ description: 'Events queued again.' }),
            more: z.boolean().meta({ description: 'Events are left: call again.' }),
          }),
        ),
        fieldErrors: { address: ErrorNumber.INVALID_ADDRESS },
        errors: [ErrorNumber.BAD_REQUEST, ErrorNumber.INVALID_ADDRESS],
        example: {
          body: { since: '2025-03-14T06:00:00Z', kind: 'stream' },
          data: { requeued: 37, more: false },
        },
      },
      async ({ body, apiKey }) => {
        const address =
          body.address === undefined ? undefined : streamAddressOrThrow(body.address).address;
        const result = await refusals(() =>
          recoverSince(deps(), {
            apiKeyId: apiKey.id,
            since: new Date(body.since),
            address,
            kind: body.kind,
            actor: keyActor(apiKey.id),
          }),
        );
        return { data: result };
      },
    ),

    defineRoute(
      {
        method: 'post',
        path: '/webhook/test',
        tag: TAG,
        summary: 'Send a signed test webhook',
        description:
          "Not in the spec. Queues a test webhook, signed with this key's secret exactly like every webhook (both secrets during a rotation's overlap), to the receiver of a subscription (`address`, and `kind` stream or aml when the address has both; default the stream), to the key's travel rule webhook (`kind` travelrule alone), or to any `url` (checked like a stream webhook). Its body is marked `\"test\": true` and carries no event (the `test` webhook). It is sent once, at once, also while the subscription is paused or its endpoint disabled, and never counts as an endpoint's failure; its attempt is in GET /webhook/deliveries (`event_id`).",
        body: z.object({
          address: Address.optional(),
          kind: KindField(['stream', 'aml', 'travelrule']).optional(),
          url: WebhookUrl.optional(),
        }),
        response: envelope(
          z.object({
            event_id: z.string(),
            webhook_id: z.string().meta({ description: "The test webhook's webhook-id." }),
            url: z.string(),
            kind: z.enum(['stream', 'aml', 'travelrule']),
          }),
        ),
        fieldErrors: { address: ErrorNumber.INVALID_ADDRESS, url: ErrorNumber.INVALID_WEBHOOK },
        errors: [
          ErrorNumber.BAD_REQUEST,
          ErrorNumber.INVALID_ADDRESS,
          ErrorNumber.NOT_FOUND_FOR_KEY,
          ErrorNumber.INVALID_WEBHOOK,
        ],
        example: {
          body: { address: '0x9E7454285FBBfc8c034bad9Cb4cBfba6254D7D87' },
          data: {
            event_id: exampleEvent,
            webhook_id: `msg_${exampleEvent}`,
            url: 'https://backend.example.com/hooks/stream',
            kind: 'stream',
          },
        },
      },
      async ({ body, apiKey }) => {
        const given = [body.address, body.url].filter((v) => v !== undefined).length;
        if (given > 1 || (given === 0 && body.kind !== 'travelrule'))
          throw new ApiError(
            400,
            ErrorNumber.BAD_REQUEST,
            'Give one of address and url, or kind travelrule alone.',
          );
        let target: Parameters<typeof sendTestEvent>[1]['target'];
        if (body.url !== undefined)
          target = { url: await webhookOrThrow(body.url, appDeps.allow, 'url'), kind: body.kind };
        else if (body.address !== undefined) {
          const { address } = streamAddressOrThrow(body.address);
          if (body.kind === 'travelrule')
            throw new ApiError(400, ErrorNumber.BAD_REQUEST, 'kind travelrule takes no address.');
          target = { address, kind: body.kind };
        } else target = { kind: 'travelrule' };
        const sent = await refusals(() =>
          sendTestEvent(deps(), { apiKeyId: apiKey.id, target, actor: keyActor(apiKey.id) }),
        );
        return {
          data: {
            event_id: sent.event_id,
            webhook_id: `msg_${sent.event_id}`,
            url: sent.url,
            kind: sent.kind,
          },
        };
      },
    ),

    ...pauseRoutes(deps, 'stream'),
    ...pauseRoutes(deps, 'aml'),

    defineRoute(
      {
        method: 'post',
        path: '/webhook/rotate_secret',
        tag: TAG,
        summary: "Rotate this key's webhook signing secret",
        description: `Not in the spec. A new \`whsec_\` secret signs every webhook of this key from now on; shown in this answer only (store it). The secret it replaces keeps signing beside it for \`overlap_hours\` (default ${DEFAULT_ROTATION_OVERLAP_HOURS}, 0 to ${MAX_ROTATION_OVERLAP_HOURS}, fractions allowed): meanwhile \`webhook-signature\` carries two signatures, \`v1,<new> v1,<old>\`, and a receiver verifying with either secret accepts the webhook (Standard Webhooks libraries try each). After \`previous_expires_at\` only the new one signs. A rotation during an overlap ends it: only the secret it replaces signs beside the new one. With 0, \`previous_expires_at\` is null.`,
        body: z.object({ overlap_hours: OverlapHours.optional() }),
        response: envelope(
          z.object({
            webhook_secret: z
              .string()
              .meta({ description: 'The new signing secret (whsec_…), shown once.' }),
            previous_expires_at: z.iso.datetime().nullable().meta({
              description: 'Until when the replaced secret signs too; null without an overlap.',
            }),
          }),
        ),
        errors: [ErrorNumber.BAD_REQUEST],
        example: {
          body: { overlap_hours: 24 },
          data: {
            webhook_secret: 'whsec_q3vJ0lW5cL8xk1Yb7pQz2mRtN4sA6dF9gH0jK2lM3nE=',
            previous_expires_at: '2025-03-15T09:26:53.589Z',
          },
        },
      },
      async ({ body, apiKey }) => {
        const overlapHours =
          body.overlap_hours === undefined
            ? DEFAULT_ROTATION_OVERLAP_HOURS
            : Number(body.overlap_hours);
        const rotated = await refusals(() =>
          rotateSecret(deps(), { apiKeyId: apiKey.id, overlapHours, actor: keyActor(apiKey.id) }),
        );
        return {
          data: {
            webhook_secret: rotated.webhook_secret,
            previous_expires_at: rotated.previous_expires_at?.toISOString() ?? null,
          },
        };
      },
    ),

    defineRoute(
      {
        method: 'get',
        path: '/webhook/endpoints',
        tag: TAG,
        summary: "List this key's webhook endpoints and their state",
        description:
          "Not in the spec. Each URL this key's streams, live AML trackings and travel rule webhook name, with its state: `active`; `failing` (no 2xx since `failing_since`); `disabled` (no 2xx for longer than the operator allows, `TOLLGATE_WEBHOOK_DISABLE_AFTER_HOURS`, default 120: its events are kept, pending, and not sent until it is enabled again with POST /webhook/endpoints/enable). `last_*` describe the last attempt (refreshed at most once a minute while nothing changes); `pending_events` counts the events waiting for it (due, backing off, or kept).",
        response: envelope(z.array(EndpointRecord)),
        errors: [],
        example: {
          data: [
            {
              url: 'https://backend.example.com/hooks/stream',
              state: 'active',
              failing_since: null,
              disabled_at: null,
              last_attempt_at: '2025-03-14T09:27:41.112Z',
              last_status_code: 200,
              last_error: null,
              last_success_at: '2025-03-14T09:27:41.112Z',
              streams: 2,
              liveaml: 1,
              travelrule: true,
              pending_events: 0,
            },
          ],
        },
      },
      async ({ apiKey }) => {
        const rows = await listEndpoints(deps(), apiKey.id);
        return { data: rows.map(endpointJson) };
      },
    ),

    defineRoute(
      {
        method: 'post',
        path: '/webhook/endpoints/enable',
        tag: TAG,
        summary: 'Enable a disabled webhook endpoint again',
        description:
          "Not in the spec. Enables one of this key's endpoints (`url`, exactly as GET /webhook/endpoints lists it): its failing spell is forgotten, and the events kept for it are due at once, in the order they were written, with their backoff forgotten; `released` says how many. An endpoint that is not disabled is left enabled (a failing one starts afresh). A URL that is not an endpoint of this key gets 5003.",
        body: z.object({ url: WebhookUrl }),
        response: envelope(
          z.object({
            url: z.string(),
            state: z.enum(['active', 'failing', 'disabled']),
            was_disabled: z.boolean(),
            released: z.int().min(0).meta({ description: 'Events made due now.' }),
          }),
        ),
        fieldErrors: { url: ErrorNumber.INVALID_WEBHOOK },
        errors: [
          ErrorNumber.BAD_REQUEST,
          ErrorNumber.NOT_FOUND_FOR_KEY,
          ErrorNumber.INVALID_WEBHOOK,
        ],
        example: {
          body: { url: 'https://backend.example.com/hooks/stream' },
          data: {
            url: 'https://backend.example.com/hooks/stream',
            state: 'active',
            was_disabled: true,
            released: 412,
          },
        },
      },
      async ({ body, apiKey }) => {
        const r = await refusals(() =>
          enableEndpoint(deps(), {
            apiKeyId: apiKey.id,
            url: body.url,
            actor: keyActor(apiKey.id),
          }),
        );
        return {
          data: {
            url: r.endpoint.url,
            state: r.endpoint.state,
            was_disabled: r.wasDisabled,
            released: r.released,
          },
        };
      },
    ),
  ];
}

function endpointJson(e: Awaited<ReturnType<typeof listEndpoints>>[number]) {
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    url: e.url,
    state: e.state,
    failing_since: iso(e.failing_since),
    disabled_at: iso(e.disabled_at),
    last_attempt_at: iso(e.last_attempt_at),
    last_status_code: e.last_status_code,
    last_error: e.last_error,
    last_success_at: iso(e.last_success_at),
    streams: e.streams,
    liveaml: e.liveaml,
    travelrule: e.travelrule,
    pending_events: e.pending_events,
  };
}
