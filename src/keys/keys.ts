import { secretHash } from '../ids.js';
import { randomBytes } from 'node:crypto';
import type { Sql } from '../db/index.js';
import { PermanentError } from '../errors.js';
import { releaseKey } from '../webhooks/holds.js';

/** API keys. Only a SHA-256 of the key is stored; the key itself is shown once, at creation. */

export interface ApiKey {
  id: string;
  name: string;
  webhook_secret: string;
}

export interface ApiKeyListing {
  id: string;
  name: string;
  key_prefix: string;
  created_at: string;
  revoked_at: string | null;
}

export function hashApiKey(key: string): string {
  return secretHash(key);
}

export function generateApiKey(): string {
  return 'tg_' + randomBytes(32).toString('base64url');
}

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export function generateWebhookSecret(): string {
  return 'whsec_' + randomBytes(32).toString('base64');
}

/** The most characters of a key's name. */
export const MAX_KEY_NAME_CHARS = 100;

/**
 * What is wrong with a key's name, if anything: it is shown in lists (`keys list`'s tab-separated
 * lines, the dashboard) and chosen by name (`travel-address --key`), so it is one line of 1 to
 * MAX_KEY_NAME_CHARS characters without control characters (a tab or a newline forged rows of
 * `keys list`; found by an outside probe).
 */
export function keyNameProblem(name: string): string | undefined {
  if (name.trim() === '' || name.length > MAX_KEY_NAME_CHARS)
    return `the name must be 1 to ${MAX_KEY_NAME_CHARS} characters`;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name))
    return 'the name must not hold control characters (tabs, line breaks)';
  return undefined;
}

export async function createApiKey(
  sql: Sql,
  name: string,
  key = generateApiKey(),
): Promise<{ id: string; apikey: string; webhook_secret: string }> {
  const webhook_secret = generateWebhookSecret();
  const [row] = await sql<{ id: string }[]>`
    insert into api_keys (name, key_prefix, key_hash, webhook_secret)
    values (${name}, ${key.slice(0, 8)}, ${hashApiKey(key)}, ${webhook_secret})
    returning id`;
  return { id: row!.id, apikey: key, webhook_secret };
}

/**
 * Makes sure the key exists (TOLLGATE_BOOTSTRAP_API_KEY). Returns its webhook secret when it
 * was created now, null when it already existed.
 */
export async function ensureApiKey(
  sql: Sql,
  name: string,
  key: string,
): Promise<{ created: boolean; webhook_secret: string }> {
  const [existing] = await sql<{ webhook_secret: string; revoked_at: Date | null }[]>`
    select webhook_secret, revoked_at from api_keys where key_hash = ${hashApiKey(key)}`;
  if (existing) return { created: false, webhook_secret: existing.webhook_secret };
  const created = await createApiKey(sql, name, key);
  return { created: true, webhook_secret: created.webhook_secret };
}

/**
 * The active key, looked up by the SHA-256 of what the caller sent; no comparison of secret
 * material happens here in JS. The lookup does not leak the key through timing: Postgres compares
 * (through the unique index) the stored digest with the digest of the caller's guess, and may
 * stop at the first differing character, but the caller cannot steer that digest character by
 * character (SHA-256 is preimage-resistant), and even the whole stored digest would not give back
 * a key of 32 random bytes. Compare a secret in JS only as equal-length digests with
 * crypto.timingSafeEqual (as metrics-access.ts and csrf.ts do).
 */
export async function findApiKey(sql: Sql, key: string): Promise<ApiKey | undefined> {
  return findApiKeyByHash(sql, hashApiKey(key));
}

/**
 * The active key with this digest (hashApiKey): its current secret, or the one a rotation
 * replaced while its overlap lasts (`accepted_until` then says until when).
 */
export async function findApiKeyByHash(
  sql: Sql,
  digest: string,
): Promise<(ApiKey & { accepted_until?: Date }) | undefined> {
  const [row] = await sql<(ApiKey & { accepted_until: Date | null })[]>`
    select id, name, webhook_secret, null::timestamptz as accepted_until from api_keys
    where key_hash = ${digest} and revoked_at is null
    union all
    select id, name, webhook_secret, previous_until from api_keys
    where previous_key_hash = ${digest} and previous_until > now() and revoked_at is null
    limit 1`;
  if (!row) return undefined;
  const { accepted_until, ...key } = row;
  return accepted_until ? { ...key, accepted_until } : key;
}

/** Longest overlap an API key rotation may ask for (hours). */
export const MAX_KEY_OVERLAP_HOURS = 720;

/**
 * Gives an active key a new secret, keeping everything that belongs to it (it is the same key:
 * same id, streams, trackings, transfers, events, webhook secret). The secret it replaces is
 * still accepted for `overlapHours` (0: refused at once), so clients can move to the new one
 * without a failed request; a rotation during an overlap ends that overlap. Undefined when no
 * active key has this id or 8-character prefix.
 */
export async function rotateApiKey(
  sql: Sql,
  idOrPrefix: string,
  overlapHours: number,
): Promise<{ id: string; name: string; apikey: string; previous_until: Date | null } | undefined> {
  const apikey = generateApiKey();
  const overlapS = Math.round(overlapHours * 3600);
  const byId = /^\d+$/.test(idOrPrefix);
  if (!byId) {
    const matches =
      await sql`select 1 from api_keys where key_prefix = ${idOrPrefix} and revoked_at is null`;
    if (matches.length > 1)
      throw new PermanentError(
        `${matches.length} active keys start with ${idOrPrefix}: give the key's id`,
      );
  }
  const [row] = await sql<{ id: string; name: string; previous_until: Date | null }[]>`
    update api_keys set
      previous_key_hash = case when ${overlapS}::int > 0 then key_hash end,
      previous_until = case when ${overlapS}::int > 0 then now() + make_interval(secs => ${overlapS}::int) end,
      key_hash = ${hashApiKey(apikey)},
      key_prefix = ${apikey.slice(0, 8)}
    where revoked_at is null and ${byId ? sql`id = ${idOrPrefix}::bigint` : sql`key_prefix = ${idOrPrefix}`}
    returning id, name, previous_until`;
  if (!row) return undefined;
  return { ...row, apikey };
}

export async function listApiKeys(sql: Sql): Promise<ApiKeyListing[]> {
  return sql<ApiKeyListing[]>`
    select id, name, key_prefix, created_at, revoked_at from api_keys order by id`;
}

export async function countActiveApiKeys(sql: Sql): Promise<number> {
  const [row] = await sql<
    { n: number }[]
  >`select count(*)::int as n from api_keys where revoked_at is null`;
  return row!.n;
}

/**
 * Revokes by id or by the key's 8-character prefix. Returns how many keys were revoked. Their
 * events not delivered are cancelled (the dispatcher sends nothing for a revoked key), those
 * held for a paused subscription or a disabled endpoint too.
 */
export async function revokeApiKey(sql: Sql, idOrPrefix: string): Promise<number> {
  const byId = /^\d+$/.test(idOrPrefix);
  return (await sql.begin(async (tx) => {
    const rows = byId
      ? await tx<
          { id: string }[]
        >`update api_keys set revoked_at = now() where id = ${idOrPrefix} and revoked_at is null returning id`
      : await tx<
          { id: string }[]
        >`update api_keys set revoked_at = now() where key_prefix = ${idOrPrefix} and revoked_at is null returning id`;
    for (const r of rows) await releaseKey(tx, String(r.id));
    return rows.length;
  })) as number;
}
