import { recordAudit } from '../audit/index.js';
import type { Sql, TransactionSql } from '../db/index.js';
import { randomToken, secretHash } from '../ids.js';
import type { Operator } from './roles.js';

/**
 * Operator sessions (table operator_sessions): the dashboard's cookies and the operator API's
 * bearer tokens. The token is 32 random bytes (base64url); only its SHA-256 is stored, so a copy
 * of the table opens no session. A session ends after SESSION_IDLE_MINUTES without a request,
 * SESSION_ABSOLUTE_HOURS after the login, at logout, when its operator is disabled, and when the
 * operator's password or second factor changes (revokeOperatorSessions, called by every such
 * change, from the dashboard or the CLI).
 *
 * A session is half-open between the password and the second factor: stage 'code' (a code is
 * asked) or 'enrol' (the role requires a second factor the operator has not set up). A half-open
 * session lasts HALF_OPEN_MINUTES at most and MAX_CODE_FAILURES wrong codes; completing it
 * replaces it with a new full session (a new token).
 */

export const SESSION_IDLE_MINUTES = 30;
export const SESSION_ABSOLUTE_HOURS = 12;
export const HALF_OPEN_MINUTES = 10;
export const MAX_CODE_FAILURES = 5;

export type SessionStage = 'code' | 'enrol' | 'full';
export type SessionVia = 'dashboard' | 'ops';

export interface OperatorSession {
  operator: Operator;
  csrfToken: string;
  tokenHash: string;
  stage: SessionStage;
}

const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

/** A new session; returns its token and expiry. Expired sessions are swept on the way. */
export async function createSession(
  sql: Sql,
  operatorId: string,
  options: { via: SessionVia; stage: SessionStage },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken();
  await sql`
    delete from operator_sessions
    where expires_at <= now() or last_seen_at <= now() - make_interval(mins => ${SESSION_IDLE_MINUTES})`;
  const lifetimeMinutes =
    options.stage === 'full' ? SESSION_ABSOLUTE_HOURS * 60 : HALF_OPEN_MINUTES;
  const [row] = await sql<{ expires_at: Date }[]>`
    insert into operator_sessions (token_hash, operator_id, csrf_token, expires_at, stage, via)
    values (${secretHash(token)}, ${operatorId}, ${randomToken()},
            now() + make_interval(mins => ${lifetimeMinutes}), ${options.stage}, ${options.via})
    returning expires_at`;
  return { token, expiresAt: row!.expires_at };
}

/**
 * The live session of a token (of the given kind), its last_seen_at moved to now in the same
 * statement; undefined when the token is unknown, idle too long, past its absolute expiry, or
 * its operator is disabled.
 */
export async function touchSession(
  sql: Sql,
  token: string,
  via: SessionVia,
): Promise<OperatorSession | undefined> {
  if (!TOKEN_RE.test(token)) return undefined;
  const [row] = await sql<
    {
      id: string;
      login: string;
      role: Operator['role'];
      csrf_token: string;
      token_hash: string;
      stage: SessionStage;
    }[]
  >`
    update operator_sessions s set last_seen_at = now()
    from operators o
    where s.token_hash = ${secretHash(token)} and s.via = ${via} and o.id = s.operator_id
      and o.disabled_at is null and s.expires_at > now()
      and s.last_seen_at > now() - make_interval(mins => ${SESSION_IDLE_MINUTES})
    returning o.id, o.login, o.role, s.csrf_token, s.token_hash, s.stage`;
  if (!row) return undefined;
  return {
    operator: { id: String(row.id), login: row.login, role: row.role },
    csrfToken: row.csrf_token,
    tokenHash: row.token_hash,
    stage: row.stage,
  };
}

export async function deleteSession(sql: Sql, tokenHash: string): Promise<void> {
  await sql`delete from operator_sessions where token_hash = ${tokenHash}`;
}

/** Ends the session a token names, if any (a new login replaces the browser's old session). */
export async function deleteSessionByToken(sql: Sql, token: string): Promise<void> {
  if (TOKEN_RE.test(token)) await deleteSession(sql, secretHash(token));
}

/**
 * Counts a wrong code on a half-open session; at MAX_CODE_FAILURES the session ends (the
 * password is asked again). Returns whether the session is still there.
 */
export async function noteCodeFailure(sql: Sql, tokenHash: string): Promise<boolean> {
  const [row] = await sql<{ code_failures: number }[]>`
    update operator_sessions set code_failures = code_failures + 1
    where token_hash = ${tokenHash} returning code_failures`;
  if (!row) return false;
  if (row.code_failures < MAX_CODE_FAILURES) return true;
  await deleteSession(sql, tokenHash);
  return false;
}

/**
 * Ends every session of an operator, dashboard and operator API alike (their password or second
 * factor changed, or they were disabled), and audits it with the count. Returns the count.
 */
export async function revokeOperatorSessions(
  sql: Sql | TransactionSql,
  operatorId: string,
  audit: { actor: string; login: string; reason: string },
): Promise<number> {
  const rows =
    await sql`delete from operator_sessions where operator_id = ${operatorId} returning 1`;
  await recordAudit(sql, {
    actor: audit.actor,
    action: 'sessions_revoked',
    target: audit.login,
    details: { count: rows.length, reason: audit.reason },
  });
  return rows.length;
}
