import { PermanentError } from '../errors.js';
import dns from 'node:dns';
import net from 'node:net';
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may go. Only public unicast addresses, unless the operator lists a private
 * range in TOLLGATE_WEBHOOK_ALLOW_CIDRS (an on-premise receiver). Loopback, private (RFC 1918,
 * IPv6 ULA), link-local (and so cloud metadata at 169.254.169.254), CGNAT, multicast, reserved,
 * benchmarking and documentation ranges are refused; an IPv4-mapped IPv6 address is judged as the
 * IPv4 it carries. Other IPv6 forms that embed an IPv4 address (NAT64 64:ff9b::/96 and
 * 64:ff9b:1::/48, 6to4 2002::/16, Teredo, IPv4-compatible ::/96) are refused whatever they carry,
 * as is anything outside global unicast 2000::/3.
 */

export type AllowList = ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]>;

export function parseAllowList(cidrs: readonly string[]): AllowList {
  return cidrs.map((c) => ipaddr.parseCIDR(c));
}

/**
 * What an allow-list opens that no receiver should need: this host itself (loopback) and the
 * cloud's instance metadata service (its credentials). An operator's allow-list covering them
 * (`0.0.0.0/0`, say) is taken, and said at start: for the NFT metadata list it lets any
 * contract's author make the worker fetch from them.
 */
export function sensitiveReach(list: AllowList): string[] {
  return [
    ['127.0.0.1', 'loopback (this host)'],
    ['169.254.169.254', 'the cloud metadata service (169.254.169.254)'],
  ]
    .filter(([ip]) => inAllowList(ipaddr.parse(ip!), list))
    .map(([, what]) => what!);
}

function unmap(addr: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress())
    return (addr as ipaddr.IPv6).toIPv4Address();
  return addr;
}

/** IPv6 global unicast, 2000::/3: the only IPv6 space a public receiver can be in. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d` (IPv4-mapped), but a socket given that string
 * connects to the IPv4-compatible `::a.b.c.d`: the dotted tail is rewritten in hex first.
 */
function parseExact(ip: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const tail = /^(.*:)(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(ip);
  if (!tail || !net.isIPv6(ip)) return ipaddr.parse(ip);
  const [a, b, c, d] = ipaddr.IPv4.parse(tail[2]!).toByteArray() as [
    number,
    number,
    number,
    number,
  ];
  return ipaddr.IPv6.parse(
    `${tail[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`,
  );
}

/**
 * True when the address (IPv4-mapped IPv6 already unmapped) is in one of the ranges; an
 * IPv4-mapped range (::ffff:10.0.0.0/104) counts as the IPv4 range it carries.
 */
export function inAllowList(addr: ipaddr.IPv4 | ipaddr.IPv6, allow: AllowList): boolean {
  return allow.some(([range, bits]) => {
    const r = unmap(range);
    return r.kind() === addr.kind() && addr.match(r, r.kind() === range.kind() ? bits : bits - 96);
  });
}

/** True when a webhook may be delivered to this IP address. */
export function isAllowedAddress(ip: string, allow: AllowList): boolean {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = unmap(parseExact(ip));
  } catch {
    return false;
  }
  if (inAllowList(addr, allow)) return true;
  // ipaddr.js calls IPv4-compatible addresses (::a00:1, ::7f00:1) and unassigned space 'unicast'.
  if (addr.kind() === 'ipv6' && !addr.match(GLOBAL_UNICAST_V6)) return false;
  return addr.range() === 'unicast';
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

const MAX_URL_LENGTH = 2048;

/**
 * Syntax of a webhook URL: http(s), a host, no credentials, a sane length. Written as a URL is:
 * what the WHATWG parser would mend silently (a space, a backslash, `http:/host`, an empty
 * `user:@`) is refused, so that the URL listed is the one given, less a fragment (found by an
 * outside probe: `http:/127.0.0.1/h` and `…/h x` were stored as other URLs). `lenient`: a URL
 * read from elsewhere (a token's metadata URI, a redirect), taken as a browser would.
 */
export function parseWebhookUrl(value: string, lenient = false): UrlCheck {
  if (value.length > MAX_URL_LENGTH)
    return { ok: false, reason: `longer than ${MAX_URL_LENGTH} characters` };
  if (!lenient) {
    const refused = unmended(value);
    if (refused) return { ok: false, reason: refused };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, reason: 'must be http or https' };
  if (!url.hostname) return { ok: false, reason: 'has no host' };
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials' };
  // Node's clients take port 0 as none and connect to 80 or 443: not the port the URL names.
  if (url.port === '0') return { ok: false, reason: 'port 0 is not a port to connect to' };
  // A fragment is the client's own and never sent: not kept as if it were part of the receiver.
  url.hash = '';
  return { ok: true, url };
}

/** Why a URL given to be kept is not written as one (what the parser would mend), or undefined. */
function unmended(value: string): string | undefined {
  const written = /^(https?):\/\/([^/?#]*)/i.exec(value);
  if (!written)
    return /^[a-z][a-z0-9+.-]*:/i.test(value) && !/^https?:/i.test(value)
      ? 'must be http or https'
      : 'not a URL: write it as http(s)://host/path';
  if (/[\s\u0000-\u001f\u007f]/.test(value))
    return 'must not contain spaces or control characters (percent-encode them)';
  if (value.includes('\\')) return 'must not contain a backslash';
  if (written[2]!.includes('@')) return 'must not carry credentials';
  return undefined;
}

function hostForLookup(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Every address a host name resolves to. */
export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;

/** The system's resolver (getaddrinfo: /etc/hosts, then DNS); tests inject one of their own. */
export const systemResolve: ResolveAll = (hostname) =>
  dns.promises.lookup(hostname, { all: true, verbatim: true });

/** Syntax, then every address the host resolves to now must be allowed. */
export async function checkWebhookUrl(
  value: string,
  allow: AllowList,
  resolve: ResolveAll = systemResolve,
): Promise<UrlCheck> {
  const parsed = parseWebhookUrl(value);
  if (!parsed.ok) return parsed;
  const host = hostForLookup(parsed.url);
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    return { ok: false, reason: 'host does not resolve' };
  }
  if (addresses.length === 0) return { ok: false, reason: 'host does not resolve' };
  const refused = addresses.find((a) => !isAllowedAddress(a.address, allow));
  if (refused)
    return { ok: false, reason: 'resolves to a private, loopback, link-local or reserved address' };
  return parsed;
}

/**
 * An IP-literal host must be checked here: Node never calls a custom `lookup` for one, so the
 * connect-time guard below does not see it. A host name is left to guardedLookup.
 */
export function literalHostAllowed(url: URL, allow: AllowList): boolean {
  const host = hostForLookup(url);
  return net.isIP(host) === 0 || isAllowedAddress(host, allow);
}

export class ForbiddenAddressError extends PermanentError {
  readonly code = 'EFORBIDDENADDR';
  constructor(host: string) {
    super(`${host} resolves to an address webhooks may not be sent to`);
    this.name = 'ForbiddenAddressError';
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http.request that resolves once and refuses any forbidden address, so that the
 * socket connects to exactly the address that passed the check (no DNS rebinding in between).
 */
export function guardedLookup(allow: AllowList, resolve: ResolveAll = systemResolve) {
  return (
    hostname: string,
    options: LookupOneOptions | LookupAllOptions | number,
    callback: LookupCallback,
  ): void => {
    resolve(hostname).then(
      (list) => {
        const bad = list.find((a) => !isAllowedAddress(a.address, allow));
        if (bad || list.length === 0) return callback(new ForbiddenAddressError(hostname), '');
        const wantAll =
          typeof options === 'object' && options !== null && (options as LookupAllOptions).all;
        if (wantAll) return callback(null, list);
        callback(null, list[0]!.address, list[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}
