import type { Context, MiddlewareHandler } from 'hono';
import { recordAudit } from '../audit/index.js';
import type { Sql } from '../db/index.js';
import { decodeBasicAuth } from '../net/basic-auth.js';
import { ApiError, ErrorNumber } from '../errors.js';
import { log } from '../log.js';
import type { Keyring } from '../travelrule/index.js';
import { checkCode, checkPassword, recordLogin, type Refusal } from './login.js';
import { clientAddress, operatorPolicy } from './policy.js';
import { type Operator, type OperatorRole, roleAllows } from './roles.js';
import {
  createSession,
  deleteSession,
  SESSION_ABSOLUTE_HOURS,
  SESSION_IDLE_MINUTES,
  touchSession,
} from './sessions.js';

export type OperatorEnv = {
  Variables: { operator: Operator; requestId: string; opsSessionHash?: string };
};

export const OPERATOR_REALM = 'tollgate-operators';
/** The header that carries a TOTP code to POST /ops/session. */
export const OTP_HEADER = 'x-tollgate-otp';

/** Longest Authorization header read: a 64-character login and a 1024-character password fit. */
const MAX_AUTHORIZATION_LENGTH = 1500;

const INVALID = 'Invalid operator credentials.';
// Every call with a password is a login attempt, so calls side by side meet the limit on
// attempts in progress at once (found by an outside probe, who read it as a wrong password).
const LIMITED =
  'Too many login attempts from this address, failed or in progress at once; try again later. Calls side by side: use a session token (POST /ops/session) as Bearer instead of the password.';
const BUSY = 'Too many logins at once; try again in a moment.';
const SESSION_NEEDED =
  'This operator has a second factor: open a session with POST /ops/session (basic auth and the X-Tollgate-OTP header) and send its token as "Authorization: Bearer <token>".';
const ENROL_FIRST =
  'Your role requires a second factor: enrol one in the dashboard (Account) first.';

function basicCredentials(
  header: string | undefined,
): { login: string; password: string } | undefined {
  if (header && header.length > MAX_AUTHORIZATION_LENGTH) return undefined;
  const decoded = decodeBasicAuth(header);
  if (!decoded?.user || decoded.password === undefined) return undefined;
  return { login: decoded.user, password: decoded.password };
}

function bearerToken(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m?.[1];
}

/** A 401 that asks the browser for credentials: the header is set on c and survives app.onError. */
function unauthorized(c: Context, message: string): ApiError {
  c.header('WWW-Authenticate', `Basic realm="${OPERATOR_REALM}"`);
  return new ApiError(401, ErrorNumber.UNAUTHORIZED, message);
}

function refused(c: Context, r: Refusal): ApiError {
  if (r.reason === 'invalid') return unauthorized(c, INVALID);
  c.header('Retry-After', String(r.retryAfterS ?? 1));
  return r.reason === 'limited'
    ? new ApiError(429, ErrorNumber.RATE_LIMITED, LIMITED)
    : new ApiError(503, ErrorNumber.UNAVAILABLE, BUSY);
}

/** Login and password of a basic-auth request, checked within the login limits. */
async function passwordStep(sql: Sql, c: Context) {
  const policy = operatorPolicy(sql);
  const credentials = basicCredentials(c.req.header('authorization'));
  if (!credentials)
    throw unauthorized(
      c,
      'Operator credentials required (HTTP basic auth, or a session token as Bearer).',
    );
  const client = clientAddress(c, policy);
  const result = await checkPassword(sql, policy, { ...credentials, client, via: 'api' });
  if (!result.ok) throw refused(c, result);
  return { policy, client, ...result };
}

/**
 * Operator authentication for the operator API (/ops): a session token (POST /ops/session) as
 * `Authorization: Bearer`, or HTTP basic auth (login:password) for an operator with no second
 * factor whose role does not require one. Basic auth is never a way around the second factor:
 * an operator who has one, or whose role requires one, gets 401 (or 403 until enrolled) with
 * basic auth alone. Then the role. Passwords and tokens are never logged.
 */
export function requireOperator(sql: Sql, needed: OperatorRole): MiddlewareHandler<OperatorEnv> {
  return async (c, next) => {
    const requestId = c.get('requestId');
    let operator: Operator;
    const token = bearerToken(c.req.header('authorization'));
    if (token !== undefined) {
      const session = await touchSession(sql, token, 'ops');
      if (!session) throw unauthorized(c, 'Invalid or expired operator session.');
      operator = session.operator;
      c.set('opsSessionHash', session.tokenHash);
    } else {
      const step = await passwordStep(sql, c);
      if (step.next === 'code') throw unauthorized(c, SESSION_NEEDED);
      if (step.next === 'enrol') throw new ApiError(403, ErrorNumber.FORBIDDEN, ENROL_FIRST);
      operator = step.operator;
    }
    if (!roleAllows(operator.role, needed)) {
      log.info(
        {
          request_id: requestId,
          login: operator.login,
          outcome: 'forbidden',
          role: operator.role,
          needed_role: needed,
        },
        'operator lacks the role',
      );
      throw new ApiError(403, ErrorNumber.FORBIDDEN, `This needs the ${needed} role.`);
    }
    log.info(
      { request_id: requestId, login: operator.login, outcome: 'ok' },
      'operator authenticated',
    );
    c.set('operator', operator);
    await next();
  };
}

/**
 * POST /ops/session: basic auth, and for an operator with a second factor a TOTP code in
 * X-Tollgate-OTP (taken once). Answers a bearer token for the other /ops routes, which ends like
 * a dashboard session: idle, absolute expiry, DELETE /ops/session, or any change of the
 * operator's password or second factor.
 */
export function openOpsSession(
  sql: Sql,
  keyring: Keyring,
  /** Refuses (throws) a body the route does not take: after the password, before the code. */
  checkBody: (c: Context) => Promise<void>,
) {
  return async (c: Context) => {
    const step = await passwordStep(sql, c);
    const { operator, client, policy } = step;
    await checkBody(c);
    let secondFactor: 'totp' | 'none' = 'none';
    if (step.next === 'enrol') throw new ApiError(403, ErrorNumber.FORBIDDEN, ENROL_FIRST);
    if (step.next === 'code') {
      const code = c.req.header(OTP_HEADER) ?? '';
      if (!/^\d{6}$/.test(code.trim()))
        throw unauthorized(
          c,
          'A TOTP code from your authenticator is required in the X-Tollgate-OTP header.',
        );
      const checked = await checkCode(sql, keyring, policy, { operator, code, client, via: 'api' });
      if (!checked.ok) throw refused(c, checked);
      secondFactor = 'totp';
    }
    const session = await createSession(sql, operator.id, { via: 'ops', stage: 'full' });
    await recordLogin(sql, operator, { client, via: 'api', second_factor: secondFactor });
    return c.json(
      {
        code: 0,
        message: 'OK',
        data: {
          token: session.token,
          expires_at: session.expiresAt.toISOString(),
          idle_timeout_minutes: SESSION_IDLE_MINUTES,
          max_hours: SESSION_ABSOLUTE_HOURS,
        },
      },
      201,
    );
  };
}

/** DELETE /ops/session (after requireOperator with the session's token): ends it. */
export function closeOpsSession(sql: Sql) {
  return async (c: Context<OperatorEnv>) => {
    const hash = c.get('opsSessionHash');
    if (!hash)
      throw new ApiError(
        400,
        ErrorNumber.BAD_REQUEST,
        'Send the session token as "Authorization: Bearer <token>" to end it.',
      );
    await deleteSession(sql, hash);
    await recordAudit(sql, {
      actor: c.get('operator').login,
      action: 'logout',
      details: { via: 'api' },
    });
    return c.json({ code: 0, message: 'OK', data: { ended: true } });
  };
}
