import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';
import { type AllowList, inAllowList, parseAllowList } from './ssrf.js';

/**
 * Who a request came from, with a TLS-terminating proxy in front (config `trust_proxy`: the
 * proxies' addresses as CIDR ranges). Forwarded headers (X-Forwarded-For, -Proto, -Host) are
 * believed only when the socket's peer is one of those proxies; from anyone else they are
 * ignored, whatever they say. Without proxies configured, the peer is the client and forwarded
 * headers mean nothing.
 */

export interface RequestOrigin {
  /** The client's address: the peer, or behind trusted proxies the nearest untrusted hop. */
  client: string | undefined;
  /** The request came through a trusted proxy (its forwarded headers were read). */
  viaProxy: boolean;
  /** How the client reached us: https directly, or what a trusted proxy says it received. */
  proto: 'https' | 'http';
  /** The Host the client asked for, as a trusted proxy forwarded it. */
  forwardedHost: string | undefined;
}

/** IPv4-mapped IPv6 (::ffff:127.0.0.1) is the IPv4 address it carries; brackets and zones go. */
export function parseAddress(ip: string | undefined): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
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

/** The TCP peer of the request (@hono/node-server's incoming message). */
export function peerAddress(c: Context): string | undefined {
  return (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming
    ?.socket?.remoteAddress;
}

export class ProxyTrust {
  private constructor(private readonly ranges: AllowList) {}

  /** The trust of these ranges; none given: no proxy is trusted (null). */
  static of(cidrs: readonly string[]): ProxyTrust | null {
    return cidrs.length ? new ProxyTrust(parseAllowList(cidrs)) : null;
  }

  trusts(ip: string | undefined): boolean {
    const addr = parseAddress(ip);
    return addr !== undefined && inAllowList(addr, this.ranges);
  }

  /**
   * Where a request came from. Through a trusted proxy, the client is the rightmost
   * X-Forwarded-For entry that is not itself a trusted proxy (a client cannot choose it by
   * sending the header: the proxies append the peer they saw); all of them trusted: the leftmost.
   * A proxied request without X-Forwarded-For has no client address: it may be anyone's (a proxy
   * not set to add the header), not the proxy's own.
   */
  static originOf(c: Context, trust: ProxyTrust | null, tls: boolean): RequestOrigin {
    const peer = peerAddress(c);
    if (!trust?.trusts(peer))
      return {
        client: peer,
        viaProxy: false,
        proto: tls ? 'https' : 'http',
        forwardedHost: undefined,
      };
    const hops = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    let client: string | undefined;
    for (let i = hops.length - 1; i >= 0; i--) {
      client = hops[i];
      if (!trust.trusts(hops[i])) break;
    }
    const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
    return {
      client: parseAddress(client) ? client : undefined,
      viaProxy: true,
      proto: proto === 'https' ? 'https' : 'http',
      forwardedHost: c.req.header('x-forwarded-host')?.split(',')[0]?.trim() || undefined,
    };
  }
}
