import { Hono } from 'hono';
import { storableTime } from '../../dates.js';
import { normalizeStreamAddress } from '../../chains/address.js';
import {
  DeliveryError,
  type DeliveryKind,
  enableEndpoint,
  listAttempts,
  listEndpoints,
  pauseSubscription,
  recoverSince,
  redeliverEvent,
  resumeSubscription,
  rotateSecret,
  sendTestEvent,
} from '../../deliveries/index.js';
import {
  DEFAULT_ROTATION_OVERLAP_HOURS,
  listApiKeys,
  MAX_ROTATION_OVERLAP_HOURS,
} from '../../keys/index.js';
import { roleAllows } from '../../operators/index.js';
import { subscriptionPage } from '../../streams/index.js';
import {
  deliveriesDeps,
  field,
  PAGE_SIZE,
  pageParam,
  render,
  requireRole,
  type DashboardDeps,
  type DashContext,
  type DashEnv,
} from '../context.js';
import { type LogFilter, WebhooksPage } from '../pages/webhooks.js';

/**
 * /dashboard/webhooks: the webhook operations of README "Webhook operations" for one API key,
 * through the same functions as /v2 (src/deliveries/), audited with the operator's login as the
 * actor. Viewers read (endpoints, subscriptions, the delivery log); reviewers also redeliver,
 * recover, pause, resume and send test webhooks; admins also enable a disabled endpoint and
 * rotate the signing secret (shown once, on the answer to the POST, never in a URL or a log).
 */

/** Subscriptions of each kind listed on the page. */
const SUBSCRIPTIONS_SHOWN = 100;

type Notice = {
  flash?: string;
  error?: string;
  rotated?: { secret: string; previousExpiresAt: Date | null };
};

/** A form field the operation cannot take: shown to the operator, nothing changed. */
class FormRefusal extends Error {}

/** An ISO 8601 time, or undefined when it is not one. */
function isoTime(value: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) return undefined;
  const at = new Date(value);
  return storableTime(at.getTime()) ? at : undefined;
}

/** An event id (a UUID) as the log shows it. */
const EVENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A kind of the delivery log's filter and of recover, or undefined for anything else. */
function kindOf(value: string): DeliveryKind | undefined {
  return (['stream', 'aml', 'travelrule', 'test'] as const).find((k) => k === value);
}

export function webhookRoutes(deps: DashboardDeps): Hono<DashEnv> {
  const sql = deps.travelRule.sql;
  const opsDeps = deliveriesDeps(deps);
  const hooks = new Hono<DashEnv>();

  const page = async (
    c: DashContext,
    keyId: string,
    notice: Notice = {},
    status: 200 | 400 = 200,
  ) => {
    const session = c.get('session');
    const keys = await listApiKeys(sql);
    const key = keys.find((k) => k.id === keyId) ?? keys.find((k) => !k.revoked_at) ?? keys[0];
    const q = (name: string) => (c.req.method === 'GET' ? (c.req.query(name) ?? '').trim() : '');
    const filter: LogFilter = {
      address: q('address'),
      status: q('status'),
      since: q('since'),
      kind: q('kind'),
      event: q('event'),
    };
    let error = notice.error;
    const kind = kindOf(filter.kind);
    if (filter.kind && !kind) error ??= 'Kind: choose one of the list.';
    const eventId = filter.event.replace(/^msg_/, '');
    if (eventId && !EVENT_ID.test(eventId))
      error ??= 'Event: give an event id (or its msg_ webhook id).';
    const address = filter.address ? normalizeStreamAddress(filter.address) : undefined;
    if (address && !address.ok) error ??= `Address filter: ${address.reason}`;
    const since = filter.since ? isoTime(filter.since) : undefined;
    if (filter.since && !since) error ??= 'Since: give a time in ISO 8601 (2025-03-14T06:00:00Z).';
    const pageNo = pageParam(c.req.query('page'));
    const empty = { rows: [], total: 0 };
    const [endpoints, streams, aml, log] = key
      ? await Promise.all([
          listEndpoints(opsDeps, key.id),
          subscriptionPage(sql, key.id, 'stream', 1, SUBSCRIPTIONS_SHOWN),
          subscriptionPage(sql, key.id, 'aml', 1, SUBSCRIPTIONS_SHOWN),
          listAttempts(opsDeps, {
            apiKeyId: key.id,
            address: address?.ok ? address.address : undefined,
            kind,
            eventId: eventId && EVENT_ID.test(eventId) ? eventId : undefined,
            succeeded:
              filter.status === 'succeeded' ? true : filter.status === 'failed' ? false : undefined,
            since,
            page: pageNo,
            limit: PAGE_SIZE,
          }),
        ])
      : [[], empty, empty, empty];
    return render(
      c,
      <WebhooksPage
        session={session}
        keys={keys}
        apiKey={key}
        canChange={roleAllows(session.operator.role, 'reviewer')}
        canAdmin={roleAllows(session.operator.role, 'admin')}
        endpoints={endpoints}
        streams={streams}
        aml={aml}
        log={{ ...log, page: pageNo, limit: PAGE_SIZE }}
        filter={filter}
        defaultOverlapHours={DEFAULT_ROTATION_OVERLAP_HOURS}
        maxOverlapHours={MAX_ROTATION_OVERLAP_HOURS}
        flash={notice.flash}
        error={error}
        rotated={notice.rotated}
      />,
      status,
    );
  };

  hooks.get('/', (c) => page(c, c.req.query('key') ?? ''));

  /**
   * A POST of the page: the form's key must exist, then `run` does the operation; a refusal of
   * the operation (DeliveryError) or of the form (a string thrown as FormRefusal) is shown on the
   * page in role="alert".
   */
  const action =
    (run: (c: DashContext, keyId: string, actor: string) => Promise<Notice>) =>
    async (c: DashContext) => {
      const keyId = field(c, 'key');
      const keys = await listApiKeys(sql);
      if (!keys.some((k) => k.id === keyId))
        return page(c, keyId, { error: 'No API key with that id; nothing was changed.' }, 400);
      try {
        return await page(c, keyId, await run(c, keyId, c.get('session').operator.login));
      } catch (err) {
        if (err instanceof DeliveryError || err instanceof FormRefusal)
          return page(c, keyId, { error: `Nothing was changed: ${err.message}` }, 400);
        throw err;
      }
    };

  const addressOf = (c: DashContext): string => {
    const a = normalizeStreamAddress(field(c, 'address').trim());
    if (!a.ok) throw new FormRefusal(`address: ${a.reason}`);
    return a.address;
  };
  const whichOf = (c: DashContext): 'stream' | 'aml' => {
    const which = field(c, 'which');
    if (which !== 'stream' && which !== 'aml')
      throw new FormRefusal('which must be stream or aml.');
    return which;
  };
  const noun = (which: 'stream' | 'aml') => (which === 'aml' ? 'live AML tracking' : 'stream');

  hooks.post(
    '/redeliver',
    requireRole('reviewer'),
    action(async (c, apiKeyId, actor) => {
      const eventId = field(c, 'event_id').trim().replace(/^msg_/, '').toLowerCase();
      if (!/^[0-9a-f-]{36}$/.test(eventId)) throw new FormRefusal('that is not an event id.');
      await redeliverEvent(opsDeps, { apiKeyId, eventId, actor });
      return { flash: `Event ${eventId} is queued for delivery again.` };
    }),
  );

  hooks.post(
    '/recover',
    requireRole('reviewer'),
    action(async (c, apiKeyId, actor) => {
      const since = isoTime(field(c, 'since').trim());
      if (!since) throw new FormRefusal('give the time in ISO 8601 (2025-03-14T06:00:00Z).');
      const given = field(c, 'address').trim();
      const kind = kindOf(field(c, 'kind'));
      if (field(c, 'kind') && !kind) throw new FormRefusal('kind: choose one of the list.');
      const r = await recoverSince(opsDeps, {
        apiKeyId,
        since,
        actor,
        ...(given ? { address: addressOf(c) } : {}),
        ...(kind ? { kind } : {}),
      });
      return {
        flash: `${r.requeued} events given up since ${since.toISOString()} are queued again.${r.more ? ' More are left: recover again.' : ''}`,
      };
    }),
  );

  for (const paused of [true, false]) {
    hooks.post(
      paused ? '/pause' : '/resume',
      requireRole('reviewer'),
      action(async (c, apiKeyId, actor) => {
        const which = whichOf(c);
        const address = addressOf(c);
        const r = { apiKeyId, address, which, actor };
        const result = await (paused
          ? pauseSubscription(opsDeps, r)
          : resumeSubscription(opsDeps, r));
        return {
          flash: paused
            ? `The ${noun(which)} of ${address} is paused: its events are kept, not sent.`
            : `The ${noun(which)} of ${address} is resumed; ${result.released} kept events are due now.`,
        };
      }),
    );
  }

  hooks.post(
    '/test',
    requireRole('reviewer'),
    action(async (c, apiKeyId, actor) => {
      // A subscription of an address, or the key's Travel Rule webhook (which=travelrule).
      const target =
        field(c, 'which') === 'travelrule'
          ? { kind: 'travelrule' as const }
          : { address: addressOf(c), kind: whichOf(c) };
      const sent = await sendTestEvent(opsDeps, { apiKeyId, target, actor });
      return { flash: `Test webhook ${sent.event_id} queued for ${sent.url}.` };
    }),
  );

  hooks.post(
    '/endpoints/enable',
    requireRole('admin'),
    action(async (c, apiKeyId, actor) => {
      const r = await enableEndpoint(opsDeps, { apiKeyId, url: field(c, 'url'), actor });
      return {
        flash: r.wasDisabled
          ? `${r.endpoint.url} is enabled again; ${r.released} kept events are due now.`
          : `${r.endpoint.url} was not disabled; its failing spell starts afresh.`,
      };
    }),
  );

  hooks.post(
    '/rotate',
    requireRole('admin'),
    action(async (c, apiKeyId, actor) => {
      const given = field(c, 'overlap_hours').trim();
      const overlapHours = given === '' ? DEFAULT_ROTATION_OVERLAP_HOURS : Number(given);
      if (
        !/^\d+(\.\d+)?$/.test(given || '0') ||
        !(overlapHours >= 0 && overlapHours <= MAX_ROTATION_OVERLAP_HOURS)
      )
        throw new FormRefusal(`the overlap is 0 to ${MAX_ROTATION_OVERLAP_HOURS} hours.`);
      const rotated = await rotateSecret(opsDeps, { apiKeyId, overlapHours, actor });
      return {
        flash: 'The webhook secret is rotated.',
        rotated: {
          secret: rotated.webhook_secret,
          previousExpiresAt: rotated.previous_expires_at ?? null,
        },
      };
    }),
  );

  return hooks;
}
