import { recordAudit } from '../audit/index.js';
import { rotateWebhookSecret, type RotatedSecret } from '../keys/index.js';
import { setSubscriptionPaused, type PauseResult } from '../streams/index.js';
import {
  enableEndpointRow,
  type EndpointRow,
  keysWithDisabledEndpoints,
  listEndpointStates,
} from '../webhooks/endpoints.js';
import { type DeliveriesDeps, DeliveryError } from './deps.js';

/** An endpoint of a key: one of its webhook URLs and how it fares. */
export type Endpoint = EndpointRow;

const PAUSE_ACTIONS = {
  stream: { pause: 'stream_pause', resume: 'stream_resume' },
  aml: { pause: 'liveaml_pause', resume: 'liveaml_resume' },
} as const;

async function setPaused(
  deps: DeliveriesDeps,
  r: { apiKeyId: string; address: string; which: 'stream' | 'aml'; actor: string },
  paused: boolean,
): Promise<PauseResult> {
  const result = await setSubscriptionPaused(deps.sql, r.apiKeyId, r.address, r.which, paused);
  if (!result.found)
    throw new DeliveryError(
      'not_found',
      r.which === 'stream'
        ? 'This key has no stream for that address.'
        : 'This key does not track that address for live AML.',
    );
  await recordAudit(deps.sql, {
    actor: r.actor,
    action: PAUSE_ACTIONS[r.which][paused ? 'pause' : 'resume'],
    target: `tracked:${result.trackedId}`,
    details: { api_key_id: r.apiKeyId, was_paused: result.wasPaused, released: result.released },
  });
  return result;
}

/**
 * Pauses a stream (`which` stream) or a live AML tracking (aml) of the key's address: its events
 * are still written to the outbox, and kept there, not sent, until it is resumed. Events already
 * on their way are not called back.
 */
export function pauseSubscription(
  deps: DeliveriesDeps,
  r: { apiKeyId: string; address: string; which: 'stream' | 'aml'; actor: string },
): Promise<PauseResult> {
  return setPaused(deps, r, true);
}

/** Resumes it: the events kept meanwhile are due at once, in the order they were written. */
export function resumeSubscription(
  deps: DeliveriesDeps,
  r: { apiKeyId: string; address: string; which: 'stream' | 'aml'; actor: string },
): Promise<PauseResult> {
  return setPaused(deps, r, false);
}

/**
 * A new webhook signing secret for the key; the one it replaces signs beside it for
 * `overlapHours` (0: not at all). Audited without either secret.
 */
export async function rotateSecret(
  deps: DeliveriesDeps,
  r: { apiKeyId: string; overlapHours: number; actor: string },
): Promise<RotatedSecret> {
  const rotated = await rotateWebhookSecret(deps.sql, r.apiKeyId, r.overlapHours);
  if (!rotated) throw new DeliveryError('not_found', 'No active API key with that id.');
  await recordAudit(deps.sql, {
    actor: r.actor,
    action: 'webhook_secret_rotate',
    target: `apikey:${r.apiKeyId}`,
    details: {
      overlap_hours: r.overlapHours,
      previous_expires_at: rotated.previous_expires_at?.toISOString() ?? null,
    },
  });
  return rotated;
}

/** The key's endpoints (each URL its subscriptions and travel rule webhook name) and their states. */
export function listEndpoints(deps: DeliveriesDeps, apiKeyId: string): Promise<Endpoint[]> {
  return listEndpointStates(deps.sql, apiKeyId, deps.travelRuleWebhookUrl);
}

/**
 * The disabled endpoints of every key not revoked, as listEndpoints shows them (a URL that no
 * subscription names any more is not one), with their key; the operations page lists them.
 */
export async function disabledEndpoints(
  deps: DeliveriesDeps,
): Promise<{ key: { id: string; name: string }; endpoint: Endpoint }[]> {
  const keys = await keysWithDisabledEndpoints(deps.sql);
  const lists = await Promise.all(keys.map((key) => listEndpoints(deps, key.id)));
  return keys.flatMap((key, i) =>
    lists[i]!.filter((e) => e.state === 'disabled').map((endpoint) => ({ key, endpoint })),
  );
}

/** A URL as the WHATWG parser writes it (as stored by stream/create); itself if it does not parse. */
function wellFormed(url: string): string {
  try {
    return new URL(url).toString();
  } catch {
    return url;
  }
}

/** Postgres chose this transaction to break a deadlock: running it again is safe. */
function isDeadlock(err: unknown): boolean {
  return (err as { code?: unknown })?.code === '40P01';
}

/**
 * Enables one of the key's endpoints again (disabled after failing too long, or failing): its
 * failing spell is forgotten, and the events kept for it are due at once, in the order they were
 * written. Refused (not_found) for a URL that is not one of the key's endpoints. Returns the
 * endpoint now, whether it was disabled and how many events were made due.
 */
export async function enableEndpoint(
  deps: DeliveriesDeps,
  r: { apiKeyId: string; url: string; actor: string },
): Promise<{ endpoint: Endpoint; wasDisabled: boolean; released: number }> {
  // As listed, or in the form stored URLs have (`https://host` is stored `https://host/`).
  let before: Endpoint | undefined;
  for (const url of new Set([r.url, wellFormed(r.url)])) {
    [before] = await listEndpointStates(deps.sql, r.apiKeyId, deps.travelRuleWebhookUrl, url);
    if (before) break;
  }
  if (!before)
    throw new DeliveryError(
      'not_found',
      'That URL is not an endpoint of this key (no stream, live AML tracking or travel rule webhook of this key names it).',
    );
  let done: { wasDisabled: boolean; released: number; id?: string } | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      done = (await deps.sql.begin((tx) =>
        enableEndpointRow(tx, r.apiKeyId, before!.url, before!.travelrule),
      )) as typeof done;
      break;
    } catch (err) {
      if (!isDeadlock(err) || attempt >= 3) throw err;
    }
  }
  const result = done ?? { wasDisabled: false, released: 0 };
  await recordAudit(deps.sql, {
    actor: r.actor,
    action: 'webhook_endpoint_enable',
    target: result.id ? `endpoint:${result.id}` : null,
    details: {
      api_key_id: r.apiKeyId,
      was_disabled: result.wasDisabled,
      released: result.released,
    },
  });
  const [endpoint] = await listEndpointStates(
    deps.sql,
    r.apiKeyId,
    deps.travelRuleWebhookUrl,
    before.url,
  );
  return {
    endpoint: endpoint ?? before,
    wasDisabled: result.wasDisabled,
    released: result.released,
  };
}
