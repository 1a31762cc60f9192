import type { Context } from 'hono';
import type { Sql } from '../db/index.js';
import { ProxyTrust } from '../net/proxy.js';
import { LoginLimiter, type LoginLimits } from './limits.js';
import { OPERATOR_ROLES, type OperatorRole } from './roles.js';

/**
 * How operators log in to one appliance: which roles must have a second factor (config
 * mfa_required_roles), which proxies' forwarded client addresses are believed (trust_proxy), and
 * the login limits of its process. The appliance sets it when it starts the API
 * (setOperatorPolicy); the dashboard and the operator API find it by the appliance's database
 * pool. Not set (a test building the routes alone): every role requires a second factor and no
 * proxy is trusted, the strict reading.
 */

export interface OperatorPolicy {
  mfaRequiredRoles: ReadonlySet<OperatorRole>;
  trustProxy: ProxyTrust | null;
  limiter: LoginLimiter;
}

const policies = new WeakMap<object, OperatorPolicy>();

export function setOperatorPolicy(
  sql: Sql,
  options: {
    mfaRequiredRoles: readonly OperatorRole[];
    trustProxy: ProxyTrust | null;
    limits?: LoginLimits;
  },
): OperatorPolicy {
  const policy: OperatorPolicy = {
    mfaRequiredRoles: new Set(options.mfaRequiredRoles),
    trustProxy: options.trustProxy,
    limiter: new LoginLimiter(options.limits),
  };
  policies.set(sql, policy);
  return policy;
}

export function operatorPolicy(sql: Sql): OperatorPolicy {
  return (
    policies.get(sql) ??
    setOperatorPolicy(sql, { mfaRequiredRoles: OPERATOR_ROLES, trustProxy: null })
  );
}

export function mfaRequired(policy: OperatorPolicy, role: OperatorRole): boolean {
  return policy.mfaRequiredRoles.has(role);
}

/** The client's address: the TCP peer, or behind a configured proxy the address it forwarded. */
export function clientAddress(c: Context, policy: OperatorPolicy): string | undefined {
  return ProxyTrust.originOf(c, policy.trustProxy, true).client;
}
