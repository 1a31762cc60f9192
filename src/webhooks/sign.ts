import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the signed content is
 * `${webhook-id}.${webhook-timestamp}.${body}`, HMAC-SHA256 with the base64-decoded secret
 * (after its `whsec_` prefix), sent as `webhook-signature: v1,<base64>`.
 */
export function signWebhook(secret: string, id: string, timestampS: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  const mac = createHmac('sha256', key)
    .update(`${id}.${timestampS}.${body}`, 'utf8')
    .digest('base64');
  return `v1,${mac}`;
}

/**
 * The headers of one attempt. During a secret rotation's overlap `previousSecret` signs too:
 * `webhook-signature` then carries both signatures, space-separated (the new one first), as
 * Standard Webhooks allows, so a receiver verifying with either secret accepts the webhook.
 */
export function webhookHeaders(
  secret: string,
  id: string,
  body: string,
  now = Date.now(),
  previousSecret?: string | null,
): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  const signatures = [signWebhook(secret, id, timestamp, body)];
  if (previousSecret && previousSecret !== secret)
    signatures.push(signWebhook(previousSecret, id, timestamp, body));
  return {
    'content-type': 'application/json',
    'user-agent': 'Tollgate-Webhooks/1',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatures.join(' '),
  };
}
