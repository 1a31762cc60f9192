import { secretHash } from '../ids.js';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Sql } from '../db/index.js';
import { randomToken } from '../ids.js';
import type { Operator } from '../operators/index.js';

/**
 * Dashboard sessions (table operator_sessions). The cookie holds 32 random bytes (base64url);
 * only their SHA-256 is stored, so a copy of the table opens no session. A session ends after
 * SESSION_IDLE_MINUTES without a request, SESSION_ABSOLUTE_HOURS after the login, at logout, or
 * when its operator is disabled. Each session has its own CSRF token (see csrf.ts).
 */

export const SESSION_COOKIE = 'tollgate_session';
export const SESSION_IDLE_MINUTES = 30;
export const SESSION_ABSOLUTE_HOURS = 12;
export const DASHBOARD_PATH = '/dashboard';

export interface Session {
  operator: Operator;
  csrfToken: string;
  tokenHash: string;
}

function hashToken(token: string): string {
  return secretHash(token);
}

const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

/** A new session for the operator; returns the cookie's token. Expired sessions are swept on the way. */
export async function createSession(sql: Sql, operatorId: string): Promise<string> {
  const token = randomToken();
  await sql`
    delete from operator_sessions
    where expires_at <= now() or last_seen_at <= now() - make_interval(mins => ${SESSION_IDLE_MINUTES})`;
  await sql`
    insert into operator_sessions (token_hash, operator_id, csrf_token, expires_at)
    values (${hashToken(token)}, ${operatorId}, ${randomToken()}, now() + make_interval(hours => ${SESSION_ABSOLUTE_HOURS}))`;
  return token;
}

/**
 * The live session of a cookie token, its last_seen_at moved to now in the same statement;
 * undefined when the token is unknown, idle too long, past its absolute expiry, or its operator
 * is disabled.
 */
export async function touchSession(sql: Sql, token: string): Promise<Session | undefined> {
  if (!TOKEN_RE.test(token)) return undefined;
  const [row] = await sql<
    { id: string; login: string; role: Operator['role']; csrf_token: string; token_hash: string }[]
  >`
    update operator_sessions s set last_seen_at = now()
    from operators o
    where s.token_hash = ${hashToken(token)} and o.id = s.operator_id and o.disabled_at is null
      and s.expires_at > now() and s.last_seen_at > now() - make_interval(mins => ${SESSION_IDLE_MINUTES})
    returning o.id, o.login, o.role, s.csrf_token, s.token_hash`;
  if (!row) return undefined;
  return {
    operator: { id: String(row.id), login: row.login, role: row.role },
    csrfToken: row.csrf_token,
    tokenHash: row.token_hash,
  };
}

export async function deleteSession(sql: Sql, tokenHash: string): Promise<void> {
  await sql`delete from operator_sessions where token_hash = ${tokenHash}`;
}

/** Ends the session a cookie token names, if any (a new login replaces the browser's old session). */
export async function deleteSessionByToken(sql: Sql, token: string): Promise<void> {
  if (TOKEN_RE.test(token)) await deleteSession(sql, hashToken(token));
}

/** Ends every session of an operator (disabled, or given a new password), but the one `keep` names. */
export async function deleteOperatorSessions(
  sql: Sql,
  login: string,
  keep?: string,
): Promise<void> {
  await sql`
    delete from operator_sessions
    where operator_id = (select id from operators where login = ${login.trim().toLowerCase()}) and token_hash <> ${keep ?? ''}`;
}

const COOKIE_OPTIONS = {
  path: DASHBOARD_PATH,
  httpOnly: true,
  secure: true,
  sameSite: 'Strict',
} as const;

export function sessionCookie(c: Context): string | undefined {
  return getCookie(c, SESSION_COOKIE);
}

export function setSessionCookie(c: Context, token: string): void {
  setCookie(c, SESSION_COOKIE, token, { ...COOKIE_OPTIONS, maxAge: SESSION_ABSOLUTE_HOURS * 3600 });
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, COOKIE_OPTIONS);
}

export { COOKIE_OPTIONS };
