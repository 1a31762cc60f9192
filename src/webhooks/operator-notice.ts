import type { Sql } from '../db/index.js';
import { RetryableError } from '../errors.js';
import { log } from '../log.js';
import type { AllowList } from '../net/ssrf.js';
import { listEndpointStates } from './endpoints.js';
import { postWebhook } from './post.js';
import { webhookHeaders } from './sign.js';

/**
 * The operator's notice of an endpoint disabled (job webhook_endpoint_disabled): a POST to
 * TOLLGATE_OPERATOR_WEBHOOK_URL signed per Standard Webhooks with TOLLGATE_OPERATOR_WEBHOOK_SECRET
 * (not an API key's secret: the operator is not a key), under the webhook-id `msg_<notice_id>` on
 * every attempt. It names the endpoint by its host, never its whole URL (a path or query may carry
 * the receiver's credential), and carries no webhook body.
 */

export interface OperatorWebhook {
  url: string;
  secret: string;
}

export interface OperatorNoticeDeps {
  sql: Sql;
  timeoutMs: number;
  /** The operator's receiver is one of the operator's own: the webhook allow-list applies. */
  allow: AllowList;
  operatorWebhook: OperatorWebhook;
  /** config travel_rule.webhook_url: an endpoint of every key without one of its own. */
  travelRuleWebhookUrl?: string;
}

/** The notice's body for an endpoint (undefined: no such endpoint). */
export async function operatorNoticeBody(
  deps: Pick<OperatorNoticeDeps, 'sql' | 'travelRuleWebhookUrl'>,
  endpointId: string,
): Promise<string | undefined> {
  const [ep] = await deps.sql<
    {
      api_key_id: string;
      api_key_name: string;
      url: string;
      failing_since: Date | null;
      disabled_at: Date | null;
      disablements: number;
      last_status_code: number | null;
      last_error: string | null;
    }[]
  >`
    select d.api_key_id::text, k.name as api_key_name, d.url, d.failing_since, d.disabled_at, d.disablements,
      d.last_status_code, d.last_error
    from webhook_endpoints d join api_keys k on k.id = d.api_key_id
    where d.id = ${endpointId}::bigint`;
  if (!ep) return undefined;
  const [state] = await listEndpointStates(
    deps.sql,
    ep.api_key_id,
    deps.travelRuleWebhookUrl,
    ep.url,
  );
  let host: string;
  try {
    host = new URL(ep.url).host;
  } catch {
    host = '';
  }
  return JSON.stringify({
    type: 'webhook.endpoint_disabled',
    timestamp: (ep.disabled_at ?? new Date()).toISOString(),
    data: {
      endpoint_id: endpointId,
      api_key_id: ep.api_key_id,
      api_key_name: ep.api_key_name,
      host,
      state: state?.state ?? (ep.disabled_at ? 'disabled' : 'active'),
      failing_since: ep.failing_since?.toISOString() ?? null,
      disabled_at: ep.disabled_at?.toISOString() ?? null,
      disablements: ep.disablements,
      last_status_code: ep.last_status_code,
      last_error: ep.last_error,
      pending_events: state?.pending_events ?? 0,
    },
  });
}

/**
 * Sends one notice (one attempt). Throws RetryableError when a later attempt can help (the job
 * backs off); a refusal by the operator's receiver (4xx, a redirect) is logged as an error and
 * not retried.
 */
export async function sendOperatorNotice(
  deps: OperatorNoticeDeps,
  notice: { endpoint_id: string; notice_id: string },
): Promise<void> {
  const body = await operatorNoticeBody(deps, notice.endpoint_id);
  if (body === undefined) return;
  const { url, secret } = deps.operatorWebhook;
  const headers = webhookHeaders(secret, `msg_${notice.notice_id}`, body);
  const r = await postWebhook(url, headers, body, { timeoutMs: deps.timeoutMs, allow: deps.allow });
  const fields = {
    endpoint_id: notice.endpoint_id,
    notice_id: notice.notice_id,
    host: new URL(url).host,
    status_code: r.status_code ?? undefined,
    duration_ms: r.duration_ms,
  };
  if (r.error === null) return void log.info(fields, 'operator notified of a disabled endpoint');
  if (!r.retryable)
    return void log.error(
      { ...fields, error: r.error },
      'operator webhook refused the notice of a disabled endpoint; not retried',
    );
  log.warn({ ...fields, error: r.error }, 'operator webhook failed; will retry');
  throw new RetryableError(`operator webhook: ${r.error}`);
}
