import type { Context, MiddlewareHandler } from 'hono';
import type { Sql } from '../db/index.js';
import { decodeBasicAuth } from '../net/basic-auth.js';
import { ApiError, ErrorNumber } from '../errors.js';
import { log } from '../log.js';
import { authenticateOperator, roleAllows, type Operator, type OperatorRole } from './operators.js';

export type OperatorEnv = { Variables: { operator: Operator; requestId: string } };

export const OPERATOR_REALM = 'tollgate-operators';

/** Longest Authorization header read: a 64-character login and a 1024-character password fit. */
const MAX_AUTHORIZATION_LENGTH = 1500;

function basicCredentials(
  header: string | undefined,
): { login: string; password: string } | undefined {
  if (header && header.length > MAX_AUTHORIZATION_LENGTH) return undefined;
  const decoded = decodeBasicAuth(header);
  if (!decoded?.user || decoded.password === undefined) return undefined;
  return { login: decoded.user, password: decoded.password };
}

/** A 401 that asks the browser for credentials: the header is set on c and survives app.onError. */
function unauthorized(c: Context, message: string): ApiError {
  c.header('WWW-Authenticate', `Basic realm="${OPERATOR_REALM}"`);
  return new ApiError(401, ErrorNumber.UNAUTHORIZED, message);
}

/**
 * Operator authentication for the dashboard: HTTP basic auth (login:password) checked against
 * the operators table, then the role. The password is never logged; the login and the outcome
 * are. A locked account gets the same answer whether the password was right or not.
 */
export function requireOperator(sql: Sql, needed: OperatorRole): MiddlewareHandler<OperatorEnv> {
  return async (c, next) => {
    const credentials = basicCredentials(c.req.header('authorization'));
    if (!credentials) throw unauthorized(c, 'Operator credentials required (HTTP basic auth).');
    const result = await authenticateOperator(sql, credentials.login, credentials.password);
    const requestId = c.get('requestId');
    if (!result.ok) {
      log.info(
        { request_id: requestId, login: credentials.login.slice(0, 64), outcome: result.reason },
        'operator login refused',
      );
      if (result.reason === 'locked')
        throw unauthorized(c, 'Account locked after repeated failed logins; try again later.');
      throw unauthorized(c, 'Invalid operator credentials.');
    }
    const { operator } = result;
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
