import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import ipaddr from 'ipaddr.js';
import { ErrorNumber } from '../errors.js';
import { inAllowList, parseAllowList } from '../net/ssrf.js';

/**
 * Who may read GET /metrics (config `metrics_token`, `metrics_allow_cidrs`):
 * - a request with an Authorization header must carry `Bearer <metrics_token>`; anything else
 *   is refused with 401, even from an allowed address;
 * - a request without one is served when its client address is in an allowed range (default
 *   loopback only), else refused with 403.
 * The client address is the socket's peer. Behind a TLS-terminating proxy (trust_proxy) that
 * peer is the proxy, so the address the proxy appended to X-Forwarded-For is judged instead;
 * a proxied request without X-Forwarded-For has no client address and needs the token.
 */

export const DEFAULT_METRICS_CIDRS = ['127.0.0.0/8', '::1/128'] as const;

export interface MetricsAccessOptions {
  token?: string;
  allowCidrs: readonly string[];
  trustProxy: boolean;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it carries. */
function parseAddress(ip: string | undefined): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (!ip) return undefined;
  try {
    return ipaddr.process(
      ip
        .trim()
        .replace(/^\[|\]$/g, '')
        .replace(/%.*$/, ''),
    );
  } catch {
    return undefined;
  }
}

function clientAddress(c: Context, trustProxy: boolean): string | undefined {
  if (trustProxy) return c.req.header('x-forwarded-for')?.split(',').pop()?.trim() || undefined;
  return (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming
    ?.socket?.remoteAddress;
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
    const addr = parseAddress(clientAddress(c, opts.trustProxy));
    if (addr && inAllowList(addr, ranges)) return next();
    return refuse(
      c,
      403,
      'Metrics are served to the addresses in TOLLGATE_METRICS_ALLOW_CIDRS, or with the bearer token TOLLGATE_METRICS_TOKEN.',
    );
  };
}
