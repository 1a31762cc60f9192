import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { ErrorNumber } from '../errors.js';
import { parseAddress, ProxyTrust } from '../net/proxy.js';
import { inAllowList, parseAllowList } from '../net/ssrf.js';

/**
 * Who may read GET /metrics (config `metrics_token`, `metrics_allow_cidrs`):
 * - a request with an Authorization header must carry `Bearer <metrics_token>`; anything else
 *   is refused with 401, even from an allowed address;
 * - a request without one is served when its client address is in an allowed range (default
 *   loopback only), else refused with 403.
 * The client address is the socket's peer; for a request from a configured proxy (trust_proxy),
 * the address it forwarded (src/net/proxy.ts). Forwarded headers from anyone else are ignored.
 */

export const DEFAULT_METRICS_CIDRS = ['127.0.0.0/8', '::1/128'] as const;

export interface MetricsAccessOptions {
  token?: string;
  allowCidrs: readonly string[];
  trustProxy: ProxyTrust | null;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export function metricsAccess(opts: MetricsAccessOptions): MiddlewareHandler {
  const ranges = parseAllowList(opts.allowCidrs);
  const tokenDigest = opts.token ? digest(opts.token) : undefined;
  const refuse = (c: Context, status: 401 | 403, message: string) =>
    c.json(
      {
        code: status === 401 ? ErrorNumber.UNAUTHORIZED : ErrorNumber.FORBIDDEN,
        status: status === 401 ? ErrorNumber.UNAUTHORIZED : ErrorNumber.FORBIDDEN,
        message,
      },
      status,
      status === 401 ? { 'www-authenticate': 'Bearer realm="tollgate-metrics"' } : {},
    );

  return async (c, next) => {
    const authorization = c.req.header('authorization');
    if (authorization !== undefined) {
      const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
      // Digests have equal lengths, so the comparison takes the same time whatever was sent.
      if (given && tokenDigest && timingSafeEqual(digest(given), tokenDigest)) return next();
      return refuse(c, 401, 'Invalid metrics token.');
    }
    const addr = parseAddress(ProxyTrust.originOf(c, opts.trustProxy, true).client);
    if (addr && inAllowList(addr, ranges)) return next();
    return refuse(
      c,
      403,
      'Metrics are served to the addresses in TOLLGATE_METRICS_ALLOW_CIDRS, or with the bearer token TOLLGATE_METRICS_TOKEN.',
    );
  };
}
