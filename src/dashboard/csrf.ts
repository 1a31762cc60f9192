import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { randomToken } from '../ids.js';
import { ProxyTrust } from '../net/proxy.js';
import { COOKIE_OPTIONS } from './session.js';

/**
 * CSRF protection of the dashboard's forms, on top of SameSite=Strict cookies:
 * - after login, the synchronizer token: the session's csrf_token in a hidden `_csrf` field;
 * - the login form (no session yet), a double-submit cookie: `tollgate_login_csrf` and the
 *   same value in `_csrf`;
 * - any POST whose Origin header is present and names another host is refused.
 * Tokens are compared in constant time.
 */

export const CSRF_FIELD = '_csrf';
export const LOGIN_CSRF_COOKIE = 'tollgate_login_csrf';

/** True when both are non-empty and equal, compared in constant time. */
export function tokensEqual(expected: string, given: unknown): boolean {
  if (typeof given !== 'string' || expected === '' || given === '') return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The Origin check: a POST from a page of this host carries Origin equal to its scheme and
 * host; any other value (another site, "null") is refused. Without Origin (old clients, curl),
 * the token alone decides. Behind a trusted proxy the forwarded host counts as this host too.
 * The scheme is https: the pages are served over TLS only (directly, or by a proxy that says
 * X-Forwarded-Proto: https), so `http://` and this host is another origin, such as a page an
 * attacker on the network could put on plain HTTP under this name (found by an outside probe).
 */
export function originAllowed(c: Context, trustProxy: ProxyTrust | null): boolean {
  const origin = c.req.header('origin');
  if (origin === undefined) return true;
  let host: string;
  try {
    const url = new URL(origin);
    if (url.protocol !== 'https:') return false;
    host = url.host;
  } catch {
    return false;
  }
  if (!host) return false;
  const hosts = [c.req.header('host')];
  hosts.push(ProxyTrust.originOf(c, trustProxy, true).forwardedHost);
  return hosts.some((h) => h !== undefined && h.toLowerCase() === host.toLowerCase());
}

/** The login form's token: the cookie's value when it has a sane one, else a new one set now. */
export function loginCsrfToken(c: Context): string {
  const existing = getCookie(c, LOGIN_CSRF_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomToken();
  setCookie(c, LOGIN_CSRF_COOKIE, token, COOKIE_OPTIONS);
  return token;
}

export function loginCsrfValid(c: Context, given: unknown): boolean {
  return tokensEqual(getCookie(c, LOGIN_CSRF_COOKIE) ?? '', given);
}
