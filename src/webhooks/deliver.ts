import type { PublicClient } from 'viem';
import type { Sql } from '../db/index.js';
import { PermanentError, RetryableError } from '../errors.js';
import { log } from '../log.js';
import { stringifyWithBigInts } from '../json.js';
import { networkInfo } from '../config/networks.js';
import { buildEvmPayload } from './evm-payload.js';
import { buildUtxoPayload } from './utxo-payload.js';
import { freezeBody, loadEvent, recordAttempt, setEventStatus, type EventForDelivery } from './events.js';
import { postWebhook } from './post.js';
import { webhookHeaders } from './sign.js';
import type { AllowList } from './ssrf.js';
import type { Keyring } from '../travelrule/crypto.js';
import { buildTravelRuleBody } from '../travelrule/webhooks.js';

export interface DeliveryDeps {
  sql: Sql;
  /** viem clients by network, for token metadata. */
  evmClients: ReadonlyMap<string, PublicClient>;
  timeoutMs: number;
  allow: AllowList;
  /** Decrypts travel rule payloads: their webhook bodies are built from them at each attempt. */
  keyring?: Keyring;
  /** Travel rule webhook of keys that registered none (config travel_rule.webhook_url). */
  travelRuleWebhookUrl?: string;
}

function chainIdOf(ev: EventForDelivery): number {
  if (ev.chain_id === null) throw new RetryableError(`no cursor for ${ev.network} yet`);
  return Number(ev.chain_id);
}

/**
 * Delivers one webhook event (one attempt). 2xx: done. A failure retrying can help throws
 * RetryableError so that graphile-worker backs off; a permanent one is recorded and returns.
 * The webhook-id is the event's, the same on every attempt; the body is frozen at the first.
 */
export async function deliverEvent(deps: DeliveryDeps, eventId: string, job: { attempts: number; max_attempts: number; id: string }): Promise<void> {
  const { sql } = deps;
  const ev = await loadEvent(sql, eventId);
  const ctx = { job_id: job.id, event_id: eventId };
  if (!ev) return void log.warn(ctx, 'webhook event not found; nothing to deliver');
  if (ev.status !== 'pending') return void log.debug({ ...ctx, status: ev.status }, 'webhook event already settled');
  if (ev.kind === 'travelrule') {
    ev.url ??= deps.travelRuleWebhookUrl ?? null;
    // No travel rule webhook registered yet: the event waits (with backoff) rather than being lost.
    if (!ev.url && !ev.key_revoked) throw new RetryableError('no travel rule webhook registered for the key (POST /v2/travelrule/webhook) and no travel_rule.webhook_url');
  }
  if (ev.key_revoked || !ev.url) {
    await setEventStatus(sql, ev.id, 'cancelled');
    return void log.info(ctx, 'webhook cancelled: subscription or key removed');
  }

  let body = ev.body;
  if (ev.kind === 'travelrule') {
    if (!deps.keyring) throw new RetryableError('this worker has no data keyring');
    const built = await buildTravelRuleBody(sql, deps.keyring, ev.id);
    if (built === undefined) {
      await setEventStatus(sql, ev.id, 'cancelled');
      return void log.warn(ctx, 'travel rule webhook cancelled: transaction not found');
    }
    body = built;
  } else if (body === null) {
    // Bitcoin-family bodies come from the database alone; EVM ones also read token metadata.
    const utxo = networkInfo(ev.network)?.family === 'utxo';
    const client = deps.evmClients.get(ev.network);
    if (!utxo && !client) throw new RetryableError(`no RPC client for ${ev.network} in this worker`);
    try {
      const payload = utxo ? await buildUtxoPayload(sql, ev) : await buildEvmPayload(sql, client!, ev, chainIdOf(ev));
      body = await freezeBody(sql, ev.id, stringifyWithBigInts(payload));
    } catch (err) {
      if (err instanceof PermanentError) {
        await setEventStatus(sql, ev.id, 'cancelled');
        return void log.warn({ ...ctx, reason: err.message }, 'webhook cancelled');
      }
      throw err;
    }
  }

  const headers = webhookHeaders(ev.webhook_secret, `msg_${ev.id}`, body);
  const result = await postWebhook(ev.url, headers, body, { timeoutMs: deps.timeoutMs, allow: deps.allow });
  const host = new URL(ev.url).host;
  const attempt = { url: ev.url, status_code: result.status_code, duration_ms: result.duration_ms, error: result.error };
  const fields = { ...ctx, network: ev.network, tx_hash: ev.tx_hash, confirmed: ev.confirmed, host, status_code: result.status_code, duration_ms: result.duration_ms };

  if (result.error === null) {
    await recordAttempt(sql, ev.id, attempt, 'delivered', job.max_attempts);
    return void log.info(fields, 'webhook delivered');
  }
  const lastTry = job.attempts >= job.max_attempts;
  if (result.retryable) {
    await recordAttempt(sql, ev.id, attempt, lastTry ? 'failed' : 'pending', job.max_attempts);
    log.warn({ ...fields, error: result.error, attempt: job.attempts, max_attempts: job.max_attempts }, 'webhook attempt failed; will retry');
    throw new RetryableError(`webhook to ${host} failed: ${result.error}`);
  }
  await recordAttempt(sql, ev.id, attempt, 'failed', job.max_attempts);
  log.warn({ ...fields, error: result.error }, 'webhook refused by receiver; not retried');
}

