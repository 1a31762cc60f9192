import { randomBytes } from 'node:crypto';
import { recordAudit } from '../audit/index.js';
import type { Sql, Db } from '../db/index.js';
import { secretHash } from '../ids.js';
import { openBytes, sealBytes, type Keyring, type SealedColumn } from '../travelrule/index.js';
import type { Operator } from './roles.js';
import { revokeOperatorSessions } from './sessions.js';
import { isTotpCode, newTotpSecret, qrDataUrl, totpStep, totpUri } from './totp.js';

/**
 * Operators' second factor (tables operator_mfa, operator_recovery_codes): a TOTP secret sealed
 * with the data keyring, enrolled by a first code, and RECOVERY_CODE_COUNT single-use recovery
 * codes shown once and kept as SHA-256. Enrolling, removing (by the operator, an admin or the
 * CLI) and new recovery codes each end every session of the operator and are audited.
 */

export const RECOVERY_CODE_COUNT = 10;
/** 32 letters and digits without 0 1 l o: each random byte's low 5 bits pick one, evenly. */
const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const RECOVERY_CHARS = 12;

function secretContext(operatorId: string): string {
  return `tollgate:operator_mfa.secret:v1:${operatorId}`;
}

/** The sealed TOTP secrets, for re-sealing under a new data key (`tollgate data-key rotate`). */
export const MFA_SECRET_COLUMN: SealedColumn = {
  table: 'operator_mfa',
  id: 'operator_id',
  idType: 'bigint',
  ciphertext: 'secret_sealed',
  nonce: 'secret_nonce',
  keyId: 'secret_key_id',
  context: secretContext,
  what: (id) => `TOTP secret of operator ${id}`,
};

/** A recovery code as typed: lower-case, without spaces or dashes. */
function normaliseRecoveryCode(input: string): string {
  return input.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function newRecoveryCode(): string {
  const bytes = randomBytes(RECOVERY_CHARS);
  const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b & 31]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}

interface MfaRow {
  secret_sealed: Buffer;
  secret_nonce: Buffer;
  secret_key_id: string;
  confirmed_at: Date | null;
  last_step: string | null;
}

function openSecret(keyring: Keyring, operatorId: string, row: MfaRow): string {
  return openBytes(
    keyring,
    secretContext(operatorId),
    { ciphertext: row.secret_sealed, nonce: row.secret_nonce, keyId: row.secret_key_id },
    `TOTP secret of operator ${operatorId}`,
  ).toString('utf8');
}

export interface MfaState {
  enrolled: boolean;
  recoveryCodesLeft: number;
}

export async function mfaState(sql: Db, operatorId: string): Promise<MfaState> {
  const [row] = await sql<{ enrolled: boolean; left: number }[]>`
    select exists (select 1 from operator_mfa where operator_id = ${operatorId} and confirmed_at is not null) as enrolled,
           (select count(*)::int from operator_recovery_codes where operator_id = ${operatorId} and used_at is null) as left`;
  return { enrolled: row!.enrolled, recoveryCodesLeft: row!.left };
}

export interface Enrolment {
  /** Base32, for typing into an app that cannot scan. */
  secret: string;
  uri: string;
  /** The URI's QR code as a data: URL (SVG). */
  qr: string;
}

/**
 * Starts enrolment, or resumes the one under way (the same secret, so a reload keeps the code
 * the app already shows). Undefined when the operator has a confirmed second factor already.
 */
export async function beginEnrolment(
  sql: Sql,
  keyring: Keyring,
  operator: Operator,
): Promise<Enrolment | undefined> {
  const fresh = newTotpSecret();
  const sealed = sealBytes(keyring, secretContext(operator.id), Buffer.from(fresh, 'utf8'));
  await sql`
    insert into operator_mfa (operator_id, secret_sealed, secret_nonce, secret_key_id)
    values (${operator.id}, ${sealed.ciphertext}, ${sealed.nonce}, ${sealed.keyId})
    on conflict (operator_id) do nothing`;
  const [row] = await sql<MfaRow[]>`
    select secret_sealed, secret_nonce, secret_key_id, confirmed_at, last_step
    from operator_mfa where operator_id = ${operator.id}`;
  if (!row || row.confirmed_at) return undefined;
  const secret = openSecret(keyring, operator.id, row);
  const uri = totpUri(operator.login, secret);
  return { secret, uri, qr: await qrDataUrl(uri) };
}

async function storeRecoveryCodes(tx: Db, operatorId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx`delete from operator_recovery_codes where operator_id = ${operatorId}`;
  const hashes = codes.map((c) => secretHash(normaliseRecoveryCode(c)));
  await tx`
    insert into operator_recovery_codes (operator_id, code_hash)
    select ${operatorId}, h from unnest(${hashes}::text[]) as h`;
  return codes;
}

/**
 * Confirms the enrolment under way with a first code from the app. Right: the second factor is
 * on, every session of the operator ends (the caller opens a new one for the browser at hand),
 * and the recovery codes are returned, to be shown this once. Wrong or no enrolment: undefined.
 */
export async function confirmEnrolment(
  sql: Sql,
  keyring: Keyring,
  operator: Operator,
  code: string,
): Promise<string[] | undefined> {
  return (await sql.begin(async (tx) => {
    const [row] = await tx<MfaRow[]>`
      select secret_sealed, secret_nonce, secret_key_id, confirmed_at, last_step
      from operator_mfa where operator_id = ${operator.id} and confirmed_at is null for update`;
    if (!row) return undefined;
    const step = totpStep(openSecret(keyring, operator.id, row), code);
    if (step === undefined) return undefined;
    await tx`update operator_mfa set confirmed_at = now(), last_step = ${step} where operator_id = ${operator.id}`;
    const codes = await storeRecoveryCodes(tx, operator.id);
    await recordAudit(tx, { actor: operator.login, action: 'mfa_enrol', target: operator.login });
    await revokeOperatorSessions(tx, operator.id, {
      actor: operator.login,
      login: operator.login,
      reason: 'mfa_enrol',
    });
    return codes;
  })) as string[] | undefined;
}

/**
 * Checks a second-factor code of an enrolled operator: a TOTP code (taken once: its step must be
 * after the last one accepted, moved in the same statement, so two requests cannot both use
 * it), or an unused recovery code (spent now, audited with how many are left).
 */
export async function checkSecondFactor(
  sql: Sql,
  keyring: Keyring,
  operator: Operator,
  code: string,
): Promise<'totp' | 'recovery' | undefined> {
  if (isTotpCode(code)) {
    const [row] = await sql<MfaRow[]>`
      select secret_sealed, secret_nonce, secret_key_id, confirmed_at, last_step
      from operator_mfa where operator_id = ${operator.id} and confirmed_at is not null`;
    if (!row) return undefined;
    const last = row.last_step === null ? undefined : Number(row.last_step);
    const step = totpStep(openSecret(keyring, operator.id, row), code, last);
    if (step === undefined) return undefined;
    const taken = await sql`
      update operator_mfa set last_step = ${step}
      where operator_id = ${operator.id} and (last_step is null or last_step < ${step}) returning 1`;
    return taken.length ? 'totp' : undefined;
  }
  const normal = normaliseRecoveryCode(code);
  if (normal.length !== RECOVERY_CHARS) return undefined;
  const spent = await sql`
    update operator_recovery_codes set used_at = now()
    where operator_id = ${operator.id} and code_hash = ${secretHash(normal)} and used_at is null
      and exists (select 1 from operator_mfa where operator_id = ${operator.id} and confirmed_at is not null)
    returning 1`;
  if (!spent.length) return undefined;
  const { recoveryCodesLeft } = await mfaState(sql, operator.id);
  await recordAudit(sql, {
    actor: operator.login,
    action: 'mfa_recovery_code_used',
    target: operator.login,
    details: { left: recoveryCodesLeft },
  });
  return 'recovery';
}

/**
 * Removes an operator's second factor (confirmed or under way) and recovery codes, and ends
 * every session of theirs: 'mfa_disable' by the operator (after a code), 'mfa_reset' by an admin
 * or the CLI. Undefined when there is no such operator; `removed` false when they had none
 * (their sessions end all the same).
 */
export async function removeMfa(
  sql: Sql,
  login: string,
  audit: { actor: string; action: 'mfa_disable' | 'mfa_reset' },
): Promise<{ removed: boolean } | undefined> {
  return (await sql.begin(async (tx) => {
    const [op] = await tx<{ id: string; login: string }[]>`
      select id, login from operators where login = ${login.trim().toLowerCase()} for update`;
    if (!op) return undefined;
    const gone =
      await tx`delete from operator_mfa where operator_id = ${op.id} returning confirmed_at`;
    await tx`delete from operator_recovery_codes where operator_id = ${op.id}`;
    await recordAudit(tx, {
      actor: audit.actor,
      action: audit.action,
      target: op.login,
      details: { had_mfa: gone.some((g) => g.confirmed_at !== null) },
    });
    await revokeOperatorSessions(tx, String(op.id), {
      actor: audit.actor,
      login: op.login,
      reason: audit.action,
    });
    return { removed: gone.length > 0 };
  })) as { removed: boolean } | undefined;
}

/**
 * New recovery codes for an enrolled operator (the old ones stop working), shown once; every
 * session of the operator ends (the caller opens a new one for the browser at hand).
 */
export async function renewRecoveryCodes(
  sql: Sql,
  operator: Operator,
): Promise<string[] | undefined> {
  return (await sql.begin(async (tx) => {
    const [row] = await tx`
      select 1 from operator_mfa where operator_id = ${operator.id} and confirmed_at is not null for update`;
    if (!row) return undefined;
    const codes = await storeRecoveryCodes(tx, operator.id);
    await recordAudit(tx, {
      actor: operator.login,
      action: 'mfa_recovery_codes',
      target: operator.login,
    });
    await revokeOperatorSessions(tx, operator.id, {
      actor: operator.login,
      login: operator.login,
      reason: 'mfa_recovery_codes',
    });
    return codes;
  })) as string[] | undefined;
}
