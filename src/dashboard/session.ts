import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Sql } from '../db/index.js';
import {
  createSession,
  SESSION_ABSOLUTE_HOURS,
  SESSION_IDLE_MINUTES,
  touchSession,
  type OperatorSession,
  type SessionStage,
} from '../operators/index.js';

/**
 * The dashboard's session cookie. Sessions themselves (operator_sessions: only the token's
 * SHA-256 stored, 30 minutes idle, 12 hours at most, ended by logout, by disabling the operator
 * and by any change of their password or second factor) are the operators domain's
 * (src/operators/sessions.ts). Each session has its own CSRF token (see csrf.ts).
 */

export const SESSION_COOKIE = 'tollgate_session';
export { SESSION_ABSOLUTE_HOURS, SESSION_IDLE_MINUTES };
export const DASHBOARD_PATH = '/dashboard';

export type Session = OperatorSession;

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

/**
 * A new dashboard session for this browser (a login, or the one that replaces the sessions a
 * credential change ended): its cookie is set, and the session returned for the page at hand.
 */
export async function startSession(
  c: Context,
  sql: Sql,
  operatorId: string,
  stage: SessionStage,
): Promise<Session> {
  const { token } = await createSession(sql, operatorId, { via: 'dashboard', stage });
  setSessionCookie(c, token);
  const session = await touchSession(sql, token, 'dashboard');
  if (!session) throw new Error('a session just created was not found');
  return session;
}

export { COOKIE_OPTIONS };
