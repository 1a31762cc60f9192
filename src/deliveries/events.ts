import { recordAudit } from '../audit/index.js';
import { findSubscription } from '../streams/index.js';
import { getTravelRuleWebhook } from '../travelrule/index.js';
import {
  enqueueTestEvent,
  listAttempts as listAttemptRows,
  requeueEvent,
  requeueFailedSince,
} from '../webhooks/operations.js';
import {
  apiKind,
  type DeliveriesDeps,
  DeliveryError,
  type DeliveryKind,
  outboxKind,
} from './deps.js';

/** Events requeued by one recovery at most; the answer says when more are left. */
export const RECOVER_MAX_EVENTS = 10_000;

/** One delivery attempt, as the log shows it. */
export interface Attempt {
  event_id: string;
  /** The Standard Webhooks webhook-id the receiver saw: msg_<event_id>. */
  webhook_id: string;
  kind: DeliveryKind;
  address: string | null;
  network: string | null;
  tx_hash: string | null;
  sequence: number | null;
  /** The event now: pending, delivered, failed (given up), cancelled. */
  event_status: string;
  attempt: number;
  attempted_at: Date;
  url: string;
  /** The receiver answered 2xx. */
  succeeded: boolean;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  /** The first bytes (at most 1 KiB) of the receiver's answer; null: none (no answer, or a travel rule webhook). */
  response: string | null;
}

export interface AttemptQuery {
  apiKeyId: string;
  address?: string;
  kind?: DeliveryKind;
  eventId?: string;
  succeeded?: boolean;
  since?: Date;
  page: number;
  limit: number;
}

/** A page of the key's delivery log, newest first, and how many attempts match. */
export async function listAttempts(
  deps: Pick<DeliveriesDeps, 'sql'>,
  q: AttemptQuery,
): Promise<{ rows: Attempt[]; total: number }> {
  const { rows, total } = await listAttemptRows(deps.sql, {
    ...q,
    kind: q.kind ? outboxKind(q.kind) : undefined,
  });
  return {
    total,
    rows: rows.map((r) => ({
      event_id: r.event_id,
      webhook_id: `msg_${r.event_id}`,
      kind: apiKind(r.kind),
      address: r.address,
      network: r.network,
      tx_hash: r.tx_hash,
      sequence: r.sequence === null ? null : Number(r.sequence),
      event_status: r.event_status,
      attempt: r.attempt,
      attempted_at: r.attempted_at,
      url: r.url,
      succeeded: r.status_code !== null && r.status_code >= 200 && r.status_code < 300,
      status_code: r.status_code,
      duration_ms: r.duration_ms,
      error: r.error,
      response: r.response,
    })),
  };
}

/**
 * Sends one event of the key again: a given-up one (with a new allowance of attempts) or a
 * delivered one, under the same webhook-id, with the same body and sequence. Refused: an event of
 * another key or none (not_found), a pending one (already on its way) or a cancelled one.
 */
export async function redeliverEvent(
  deps: DeliveriesDeps,
  r: { apiKeyId: string; eventId: string; actor: string },
): Promise<void> {
  const outcome = await requeueEvent(deps.sql, r.apiKeyId, r.eventId, deps.maxAttempts);
  if (outcome === 'not_found')
    throw new DeliveryError('not_found', 'This key has no webhook event with that id.');
  if (outcome === 'pending')
    throw new DeliveryError('state', 'The event is pending: it is already queued for delivery.');
  if (outcome === 'cancelled')
    throw new DeliveryError(
      'state',
      'The event cannot be sent: it was cancelled (its subscription removed) or its transaction was reorganised away.',
    );
  await recordAudit(deps.sql, {
    actor: r.actor,
    action: 'webhook_redeliver',
    target: r.eventId,
    details: { api_key_id: r.apiKeyId },
  });
}

/**
 * Requeues the key's events given up at or after `since` (of one address, of one kind), at most
 * RECOVER_MAX_EVENTS at a time (`more`: call again), due again in the order they were written.
 */
export async function recoverSince(
  deps: DeliveriesDeps,
  r: { apiKeyId: string; since: Date; address?: string; kind?: DeliveryKind; actor: string },
): Promise<{ requeued: number; more: boolean }> {
  if (r.kind === 'test') throw new DeliveryError('invalid', 'Test events are not recovered.');
  const result = await requeueFailedSince(
    deps.sql,
    {
      apiKeyId: r.apiKeyId,
      since: r.since,
      address: r.address,
      kind: r.kind ? outboxKind(r.kind) : undefined,
    },
    deps.maxAttempts,
    RECOVER_MAX_EVENTS,
  );
  await recordAudit(deps.sql, {
    actor: r.actor,
    action: 'webhook_recover',
    target: `apikey:${r.apiKeyId}`,
    details: {
      since: r.since.toISOString(),
      kind: r.kind ?? null,
      one_address: r.address !== undefined,
      requeued: result.requeued,
      more: result.more,
    },
  });
  return result;
}

/** Where a test event goes: a subscription of an address, the key's travel rule webhook, or a URL. */
export type TestTarget =
  | { address: string; kind?: 'stream' | 'aml' }
  | { kind: 'travelrule' }
  /**
   * Any URL, already checked as a webhook URL (checkWebhookUrl; the dispatcher checks it again
   * at the POST); `kind` only labels the body (default stream).
   */
  | { url: string; kind?: 'stream' | 'aml' | 'travelrule' };

/**
 * A signed test event to one of the key's receivers: sent by the dispatcher like every webhook
 * (signed with the key's secret, both secrets during a rotation's overlap), once, never held,
 * listed in the delivery log. Its body says it is a test and carries no event. Returns its id and
 * where it goes.
 */
export async function sendTestEvent(
  deps: DeliveriesDeps,
  r: { apiKeyId: string; target: TestTarget; actor: string },
): Promise<{ event_id: string; url: string; kind: Exclude<DeliveryKind, 'test'> }> {
  const { url, kind, address } = await testReceiver(deps, r.apiKeyId, r.target);
  const body = JSON.stringify({
    type: 'test',
    test: true,
    kind,
    address,
    created_at: new Date().toISOString(),
    message:
      'A test webhook from Tollgate, sent on request: it carries no event. Verify its signature and answer 2xx.',
  });
  const eventId = await enqueueTestEvent(deps.sql, { apiKeyId: r.apiKeyId, url, address, body });
  await recordAudit(deps.sql, {
    actor: r.actor,
    action: 'webhook_test',
    target: eventId,
    details: { api_key_id: r.apiKeyId, kind },
  });
  return { event_id: eventId, url, kind };
}

async function testReceiver(
  deps: DeliveriesDeps,
  apiKeyId: string,
  target: TestTarget,
): Promise<{ url: string; kind: Exclude<DeliveryKind, 'test'>; address: string | null }> {
  if ('url' in target) return { url: target.url, kind: target.kind ?? 'stream', address: null };
  if (!('address' in target)) {
    const url =
      (await getTravelRuleWebhook(deps.sql, apiKeyId)) ?? deps.travelRuleWebhookUrl ?? undefined;
    if (!url)
      throw new DeliveryError(
        'not_found',
        'This key has no travel rule webhook (POST /v2/travelrule/webhook) and none is configured.',
      );
    return { url, kind: 'travelrule', address: null };
  }
  const sub = await findSubscription(deps.sql, apiKeyId, target.address);
  const url =
    target.kind === 'aml'
      ? sub?.aml_webhook
      : target.kind === 'stream'
        ? sub?.stream_webhook
        : (sub?.stream_webhook ?? sub?.aml_webhook);
  if (!url)
    throw new DeliveryError(
      'not_found',
      target.kind === 'aml'
        ? 'This key does not track that address for live AML.'
        : target.kind === 'stream'
          ? 'This key has no stream for that address.'
          : 'This key has no stream or live AML tracking for that address.',
    );
  const kind = target.kind ?? (sub?.stream_webhook ? 'stream' : 'aml');
  return { url, kind, address: target.address };
}
