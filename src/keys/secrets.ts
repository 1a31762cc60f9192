import type { Sql } from '../db/index.js';
import { generateWebhookSecret } from './keys.js';

/**
 * Rotating a key's webhook signing secret with an overlap: a new secret signs every webhook from
 * now on, and the one it replaces keeps signing beside it (a second `v1,` signature in
 * webhook-signature) until the overlap ends, so receivers can move to the new secret without
 * refusing a webhook meanwhile. A rotation during an overlap ends that overlap: only the secret
 * it replaces signs beside the new one.
 */

/** Longest overlap a rotation may ask for. */
export const MAX_ROTATION_OVERLAP_HOURS = 168;
/** The overlap when none is asked for. */
export const DEFAULT_ROTATION_OVERLAP_HOURS = 24;

export interface RotatedSecret {
  /** The new secret, shown this once (the API answer); never logged. */
  webhook_secret: string;
  /** Until when the replaced secret signs too; null with no overlap. */
  previous_expires_at: Date | null;
}

/** Rotates an active key's secret. Undefined when the key is unknown or revoked. */
export async function rotateWebhookSecret(
  sql: Sql,
  apiKeyId: string,
  overlapHours: number,
): Promise<RotatedSecret | undefined> {
  const secret = generateWebhookSecret();
  const overlapS = Math.round(overlapHours * 3600);
  const [row] = await sql<{ until: Date | null }[]>`
    update api_keys set
      webhook_secret_previous = case when ${overlapS}::int > 0 then webhook_secret end,
      webhook_secret_previous_until = case when ${overlapS}::int > 0 then now() + make_interval(secs => ${overlapS}::int) end,
      webhook_secret = ${secret}
    where id = ${apiKeyId}::bigint and revoked_at is null
    returning webhook_secret_previous_until as until`;
  if (!row) return undefined;
  return { webhook_secret: secret, previous_expires_at: row.until };
}
