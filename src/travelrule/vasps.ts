import { PermanentError } from '../errors.js';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { personalDataUrlRefusal } from '../urls.js';
import { decodeTravelAddress } from './trp/travel-address.js';
import { ConfigError } from '../config/index.js';
import type { Sql } from '../db/index.js';
import { projectPath } from '../paths.js';
import { COUNTRY_CODES } from './ivms101/countries.js';
import { CONTROL_CHARS } from './ivms101/fields.js';
import { mailAddress } from '../net/email-address.js';
import { randomToken, secretHash, UUID_RE } from '../ids.js';
import { normalizeFingerprint } from '../net/tls-certs.js';

/**
 * The VASP directory (table `vasps`): the other VASPs this one exchanges Travel Rule data with,
 * what list_vasps returns, and how each is reached (a TRP endpoint, else e-mail). Entries come
 * from config/vasps.json (seeded at start), the CLI or the dashboard.
 *
 * Each VASP has an inbound token: the secret part of the URL it sends TRP inquiries to
 * (inboundUrl). An inquiry arriving at that URL is from that VASP. Only its SHA-256 is stored,
 * like an API key's: the token is known only where it is made (given in an entry, generated
 * for a new VASP, or by rotateInboundToken) and shown then.
 */

/** The spec's list_vasps element. */
export interface VaspRecord {
  uid: string;
  name: string;
  legal_name: string | null;
  country: string | null;
  website: string;
}

export interface Vasp extends VaspRecord {
  trp_endpoint: string | null;
  /** How inquiries to it write slip0044 (src/travelrule/trp/assets.ts). */
  trp_slip0044: 'number' | 'symbol';
  /**
   * SHA-256 fingerprints of its TLS certificates (src/travelrule/peer.ts): its TRP server must
   * present one, and its messages are taken only from a connection that presented one.
   */
  trp_tls_fingerprints: string[];
  email: string | null;
  source: 'config' | 'cli' | 'dashboard';
  created_at: Date;
  updated_at: Date;
}

/** A VASP as just written: with its inbound token when this write made or set it. */
export interface VaspWithToken extends Vasp {
  inbound_token?: string;
}

/** How an inbound token is stored: its SHA-256, hex. */
export function hashInboundToken(token: string): string {
  return secretHash(token);
}

const VASP_COLUMNS =
  'uid, name, legal_name, country, website, trp_endpoint, email, trp_slip0044, trp_tls_fingerprints, source, created_at, updated_at';

const TOKEN = /^[A-Za-z0-9_-]{32,200}$/;

const httpUrl = z
  .string()
  .trim()
  .max(2000, 'must be at most 2000 characters')
  .refine((v) => {
    try {
      return ['http:', 'https:'].includes(new URL(v).protocol);
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');

/** An optional field: absent, null and "" (an empty form field) all mean "none". */
function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
    schema.optional(),
  );
}

/** A directory entry as written (file, CLI flags, dashboard form). */
export const VaspInput = z.object({
  /** Generated when absent. */
  uid: optional(
    z
      .string()
      .trim()
      .regex(UUID_RE, 'must be a UUID')
      .transform((v) => v.toLowerCase()),
  ),
  // One line: shown in lists and pages, and written into the e-mails of the fallback.
  name: z
    .string()
    .trim()
    .min(1, 'must be 1 to 100 characters')
    .max(100, 'must be 1 to 100 characters')
    .refine((v) => !CONTROL_CHARS.test(v), 'must be one line, without control characters'),
  legal_name: optional(
    z
      .string()
      .trim()
      .max(200, 'must be at most 200 characters')
      .refine((v) => !CONTROL_CHARS.test(v), 'must be one line, without control characters'),
  ),
  /** ISO 3166-1 alpha-2, any letter case; stored upper case. */
  country: optional(
    z
      .string()
      .trim()
      .transform((v) => v.toUpperCase())
      .refine((v) => COUNTRY_CODES.has(v), 'must be an ISO 3166-1 alpha-2 country code'),
  ),
  website: httpUrl,
  /**
   * Their TRP inquiry URL, or their Travel Address (ta…, lnurl1…); absent: reached by e-mail.
   * https (it receives personal data); plain http is taken for a loopback host, and used only
   * under travel_rule.allow_http_loopback.
   */
  trp_endpoint: optional(
    z
      .string()
      .trim()
      .max(2000, 'must be at most 2000 characters')
      .superRefine((v, ctx) => {
        const decoded = decodeTravelAddress(v);
        if (!decoded.ok) return void ctx.addIssue({ code: 'custom', message: decoded.reason });
        if (personalDataUrlRefusal(decoded.url, true) !== undefined)
          ctx.addIssue({ code: 'custom', message: 'must be https: it receives personal data' });
      }),
  ),
  /** How inquiries to it write a native coin's slip0044: "number" (default) or "symbol" (TRISA). */
  trp_slip0044: optional(z.enum(['number', 'symbol'], { error: () => 'must be number or symbol' })),
  /**
   * SHA-256 fingerprints of the TLS certificates it uses for TRP, server and client (any common
   * spelling: colons or not, any case); more than one while it changes certificates.
   */
  trp_tls_fingerprints: optional(
    z
      .array(
        z
          .string()
          .max(200, 'must be a SHA-256 fingerprint')
          .transform((v, ctx) => {
            const fingerprint = normalizeFingerprint(v);
            if (fingerprint) return fingerprint;
            ctx.addIssue({
              code: 'custom',
              message: 'must be a SHA-256 fingerprint (64 hex digits, colons allowed)',
            });
            return z.NEVER;
          }),
      )
      .max(10, 'must be at most 10 fingerprints')
      .transform((list) => [...new Set(list)]),
  ),
  email: optional(
    z
      .string()
      .trim()
      .transform((v, ctx) => {
        const checked = mailAddress(v);
        if (checked.ok) return checked.address;
        ctx.addIssue({ code: 'custom', message: `must be an e-mail address: ${checked.reason}` });
        return z.NEVER;
      }),
  ),
  /** The secret of their inbound URL; generated (32 random bytes, base64url) when absent. */
  inbound_token: optional(
    z.string().trim().regex(TOKEN, 'must be 32 to 200 characters of A-Z a-z 0-9 _ -'),
  ),
});

export type VaspInputValue = z.output<typeof VaspInput>;

/** `<public url>/trp/v3/inquiries/<token>`: handed to the VASP the token belongs to. */
export function inboundUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/trp/v3/inquiries/${token}`;
}

type Outcome = 'added' | 'updated' | 'unchanged';

/**
 * Insert or update by uid. An update replaces every field and keeps the inbound token unless
 * the input gives one; a row whose fields are all the same is not touched ('unchanged').
 */
async function writeVasp(
  sql: Sql,
  input: VaspInputValue,
  source: Vasp['source'],
): Promise<{ vasp: VaspWithToken; outcome: Outcome }> {
  const uid = input.uid ?? randomUUID();
  const given = input.inbound_token;
  // A new VASP gets the given token or a fresh one; an update keeps its token unless given one.
  const fresh = given ?? randomToken();
  const givenHash = given === undefined ? null : hashInboundToken(given);
  const fields = [
    input.name,
    input.legal_name ?? null,
    input.country ?? null,
    input.website,
    input.trp_endpoint ?? null,
    input.email ?? null,
    input.trp_slip0044 ?? 'number',
    input.trp_tls_fingerprints ?? [],
  ] as const;
  await refuseFingerprintsOfOthers(sql, uid, fields[7]);
  try {
    const [row] = await sql<(Vasp & { inserted: boolean })[]>`
      insert into vasps as v (uid, name, legal_name, country, website, trp_endpoint, email, trp_slip0044, trp_tls_fingerprints, inbound_token_hash, source)
      values (${uid}, ${fields[0]}, ${fields[1]}, ${fields[2]}, ${fields[3]}, ${fields[4]}, ${fields[5]}, ${fields[6]}, ${fields[7] as string[]}::text[], ${hashInboundToken(fresh)}, ${source})
      on conflict (uid) do update set
        name = excluded.name, legal_name = excluded.legal_name, country = excluded.country, website = excluded.website,
        trp_endpoint = excluded.trp_endpoint, email = excluded.email, trp_slip0044 = excluded.trp_slip0044,
        trp_tls_fingerprints = excluded.trp_tls_fingerprints,
        inbound_token_hash = coalesce(${givenHash}::text, v.inbound_token_hash), source = excluded.source, updated_at = now()
      where (v.name, v.legal_name, v.country, v.website, v.trp_endpoint, v.email, v.trp_slip0044, v.trp_tls_fingerprints, v.inbound_token_hash)
        is distinct from (excluded.name, excluded.legal_name, excluded.country, excluded.website, excluded.trp_endpoint, excluded.email, excluded.trp_slip0044, excluded.trp_tls_fingerprints, coalesce(${givenHash}::text, v.inbound_token_hash))
      returning ${sql.unsafe(VASP_COLUMNS.replace(/(\w+)/g, 'v.$1'))}, (xmax = 0) as inserted`;
    if (row) {
      const { inserted, ...vasp } = row;
      const token = inserted ? fresh : given;
      return {
        vasp: token === undefined ? vasp : { ...vasp, inbound_token: token },
        outcome: inserted ? 'added' : 'updated',
      };
    }
  } catch (err) {
    if (
      (err as { code?: string }).code === '23505' &&
      (err as { constraint_name?: string }).constraint_name === 'vasps_inbound_token_hash_key'
    ) {
      throw new VaspConflictError('inbound_token is already the token of another VASP');
    }
    throw err;
  }
  return { vasp: (await getVasp(sql, uid))!, outcome: 'unchanged' };
}

/**
 * A certificate names one VASP: a message on a Travel Address is attributed by it. Pinning one
 * that another entry has is refused (naming that entry), in any channel.
 */
async function refuseFingerprintsOfOthers(
  sql: Sql,
  uid: string,
  fingerprints: readonly string[],
): Promise<void> {
  if (fingerprints.length === 0) return;
  const [other] = await sql<{ uid: string; name: string }[]>`
    select uid, name from vasps
    where uid <> ${uid} and trp_tls_fingerprints && ${fingerprints as string[]}::text[] limit 1`;
  if (other)
    throw new VaspConflictError(
      `trp_tls_fingerprints: a certificate of this list is pinned for VASP ${other.name} (${other.uid}) already`,
    );
}

/** A directory write that conflicts with another entry (an inbound token or a certificate in use). */
export class VaspConflictError extends PermanentError {
  constructor(message: string) {
    super(message);
    this.name = 'VaspConflictError';
  }
}

export async function upsertVasp(
  sql: Sql,
  input: VaspInputValue,
  source: Vasp['source'],
): Promise<VaspWithToken> {
  return (await writeVasp(sql, input, source)).vasp;
}

export async function getVasp(sql: Sql, uid: string): Promise<Vasp | undefined> {
  if (!UUID_RE.test(uid)) return undefined;
  const [row] = await sql<Vasp[]>`select ${sql.unsafe(VASP_COLUMNS)} from vasps where uid = ${uid}`;
  return row;
}

/** The VASP an inbound TRP inquiry URL belongs to. */
export async function findVaspByInboundToken(sql: Sql, token: string): Promise<Vasp | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const [row] = await sql<Vasp[]>`
    select ${sql.unsafe(VASP_COLUMNS)} from vasps where inbound_token_hash = ${hashInboundToken(token)}`;
  return row;
}

/** The VASP that pins this TLS certificate (its SHA-256 fingerprint), if one does. */
export async function findVaspByFingerprint(
  sql: Sql,
  fingerprint: string,
): Promise<Vasp | undefined> {
  const [row] = await sql<Vasp[]>`
    select ${sql.unsafe(VASP_COLUMNS)} from vasps where trp_tls_fingerprints @> array[${fingerprint}]::text[]`;
  return row;
}

/** A page of the directory, by name (case-insensitive), then uid. page ≥ 1. */
export async function listVasps(
  sql: Sql,
  page: number,
  limit: number,
): Promise<{ rows: VaspRecord[]; total: number }> {
  const rows = await sql<VaspRecord[]>`
    select uid, name, legal_name, country, website from vasps
    order by lower(name), uid limit ${limit} offset ${(page - 1) * limit}`;
  const [count] = await sql<{ n: number }[]>`select count(*)::int as n from vasps`;
  return { rows, total: count!.n };
}

/** The whole directory without the tokens (the CLI's list). */
export async function listAllVasps(sql: Sql): Promise<Vasp[]> {
  return sql<Vasp[]>`select ${sql.unsafe(VASP_COLUMNS)} from vasps order by lower(name), uid`;
}

/**
 * Removes a VASP that no travel rule transaction names (as counterparty, or as the beneficiary
 * VASP a caller chose); otherwise nothing is removed and the answer is 'in_use'.
 */
export async function removeVasp(
  sql: Sql,
  uid: string,
): Promise<'removed' | 'not_found' | 'in_use'> {
  if (!UUID_RE.test(uid)) return 'not_found';
  try {
    const removed = await sql`
      delete from vasps v where uid = ${uid}
        and not exists (select 1 from travelrule_transactions t where t.beneficiary_vasp_id = v.uid)
      returning uid`;
    if (removed.length > 0) return 'removed';
  } catch (err) {
    if ((err as { code?: string }).code === '23503') return 'in_use';
    throw err;
  }
  return (await getVasp(sql, uid)) ? 'in_use' : 'not_found';
}

/** A new inbound token, returned (the only time it is known): the old URL stops working at once. */
export async function rotateInboundToken(sql: Sql, uid: string): Promise<string | undefined> {
  if (!UUID_RE.test(uid)) return undefined;
  const token = randomToken();
  const rows = await sql`
    update vasps set inbound_token_hash = ${hashInboundToken(token)}, updated_at = now() where uid = ${uid} returning uid`;
  return rows.length ? token : undefined;
}

function resolvePath(path: string): string {
  return isAbsolute(path) ? path : projectPath(path);
}

/**
 * Reads and checks a directory file (a JSON array of VaspInput), without writing anything.
 * Every entry needs a uid there, so that reading the file again updates the same entries.
 * A missing file is an empty directory. Errors name the file, the entry and the field:
 * `config/vasps.json[2].website: must be an http(s) URL`.
 */
export function loadVaspsFile(path: string): VaspInputValue[] {
  const full = resolvePath(path);
  if (!existsSync(full)) return [];
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(full, 'utf8'));
  } catch (err) {
    throw new ConfigError(`${path}: not valid JSON (${(err as Error).message})`);
  }
  if (!Array.isArray(data)) throw new ConfigError(`${path}: must be a JSON array of VASP entries`);
  const entrySchema = VaspInput.strict();
  const seen = new Map<string, number>();
  return data.map((entry: unknown, index) => {
    const at = `${path}[${index}]`;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry))
      throw new ConfigError(`${at}: must be an object`);
    // Keys starting with $ are comments ("$comment").
    const fields = Object.fromEntries(
      Object.entries(entry).filter(([key]) => !key.startsWith('$')),
    );
    const parsed = entrySchema.safeParse(fields);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.length ? '.' + issue.path.map(String).join('.') : '';
      const missing =
        issue.code === 'invalid_type' &&
        issue.path.length === 1 &&
        (fields as Record<string, unknown>)[String(issue.path[0])] === undefined;
      const message = missing
        ? 'required'
        : issue.code === 'unrecognized_keys'
          ? `unknown field ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`
          : issue.message;
      throw new ConfigError(`${at}${field}: ${message}`);
    }
    const uid = parsed.data.uid;
    if (!uid)
      throw new ConfigError(
        `${at}.uid: required in a directory file (a fixed uid keeps the entry the same each time the file is read)`,
      );
    const earlier = seen.get(uid);
    if (earlier !== undefined) throw new ConfigError(`${at}.uid: the same as entry [${earlier}]`);
    seen.set(uid, index);
    return parsed.data;
  });
}

/** Writes checked entries in one transaction. */
export async function storeVasps(
  sql: Sql,
  entries: readonly VaspInputValue[],
  source: Vasp['source'],
): Promise<{ added: number; updated: number }> {
  const counts = { added: 0, updated: 0 };
  await sql.begin(async (tx) => {
    for (const entry of entries) {
      const { outcome } = await writeVasp(tx as unknown as Sql, entry, source);
      if (outcome !== 'unchanged') counts[outcome]++;
    }
  });
  return counts;
}

/**
 * Seeds the directory from a file (travel_rule.vasps_file at start; `tollgate vasps import`
 * with source 'cli'). The path is relative to the project unless absolute. Idempotent: entries
 * that did not change count as neither added nor updated. An invalid file writes nothing.
 */
export async function seedVaspsFromFile(
  sql: Sql,
  path: string,
  source: Vasp['source'] = 'config',
): Promise<{ added: number; updated: number }> {
  const entries = loadVaspsFile(path);
  if (entries.length === 0) return { added: 0, updated: 0 };
  try {
    return await storeVasps(sql, entries, source);
  } catch (err) {
    if (err instanceof VaspConflictError) throw new ConfigError(`${path}: ${err.message}`);
    throw err;
  }
}
