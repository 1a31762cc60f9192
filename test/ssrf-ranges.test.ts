import dgram from 'node:dgram';
import dns from 'node:dns';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import ipaddr from 'ipaddr.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { TrpRefused, trpPost } from '../src/travelrule/trp/client.js';
import { checkFetchTarget, guardedGet } from '../src/net/fetch-url.js';
import { postWebhook } from '../src/webhooks/post.js';
import {
  checkWebhookUrl,
  guardedLookup,
  isAllowedAddress,
  parseAllowList,
  type ResolveAll,
} from '../src/net/ssrf.js';
import { startTestAppliance } from './helpers/appliance.js';
import { fundedWallet, randomAddress } from './helpers/chain.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { call } from './helpers/http.js';

/**
 * Every range a webhook, an NFT metadata fetch or a TRP message must never reach, against the real
 * guard (src/net/ssrf.ts) and the real clients. Layout on loopback: the allowed receiver is
 * 127.0.0.3 (the only address allowed, /32); traps listen on 127.0.0.1 and 127.0.0.2, which are
 * forbidden like the rest of 127/8, and count every TCP connection they get — which must stay 0.
 *
 * Decisions: documentation, benchmarking and other special-purpose ranges are refused like
 * private ones. IPv6 forms that embed an IPv4 address other than IPv4-mapped (NAT64, 6to4,
 * Teredo, IPv4-compatible, IPv4-translated) are refused whatever IPv4 they carry — even a public
 * one — and so is IPv6 outside global unicast 2000::/3.
 */

const FORBIDDEN: [range: string, samples: string[]][] = [
  ['loopback 127.0.0.0/8', ['127.0.0.1', '127.0.0.2', '127.1.2.3', '127.255.255.255']],
  ['loopback ::1', ['::1', '0:0:0:0:0:0:0:1']],
  ['unspecified 0.0.0.0/8', ['0.0.0.0', '0.1.2.3', '0.255.255.255']],
  ['unspecified ::', ['::']],
  ['private 10.0.0.0/8', ['10.0.0.0', '10.0.0.1', '10.255.255.255']],
  ['private 172.16.0.0/12', ['172.16.0.0', '172.20.1.1', '172.31.255.255']],
  ['private 192.168.0.0/16', ['192.168.0.0', '192.168.1.1', '192.168.255.255']],
  ['unique local fc00::/7', ['fc00::1', 'fd00::1', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']],
  [
    'link-local 169.254.0.0/16 (cloud metadata)',
    ['169.254.0.1', '169.254.169.254', '169.254.170.2', '169.254.255.255'],
  ],
  ['link-local fe80::/10', ['fe80::1', 'fe80::a9fe:a9fe', 'febf:ffff::1']],
  ['cloud metadata over IPv6 (AWS)', ['fd00:ec2::254']],
  ['CGNAT 100.64.0.0/10 (Alibaba metadata)', ['100.64.0.0', '100.100.100.200', '100.127.255.255']],
  [
    'IPv4-mapped ::ffff:0:0/96',
    [
      '::ffff:127.0.0.1',
      '0::ffff:127.0.0.2',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '::ffff:a00:1',
      '0:0:0:0:0:ffff:7f00:2',
      '::ffff:0.0.0.0',
    ],
  ],
  [
    'IPv4-compatible ::/96',
    ['::7f00:1', '::a00:1', '::a9fe:a9fe', '::808:808', '::127.0.0.1', '::8.8.8.8'],
  ],
  ['IPv4-translated ::ffff:0:0:0/96', ['::ffff:0:7f00:1', '::ffff:0:a00:1']],
  [
    'NAT64 64:ff9b::/96',
    ['64:ff9b::7f00:1', '64:ff9b::a00:1', '64:ff9b::a9fe:a9fe', '64:ff9b::808:808'],
  ],
  ['local-use NAT64 64:ff9b:1::/48', ['64:ff9b:1::a00:1']],
  ['6to4 2002::/16', ['2002:7f00:1::1', '2002:a00:1::1', '2002:a9fe:a9fe::', '2002:808:808::1']],
  ['Teredo 2001::/32', ['2001:0:4136:e378:8000:63bf:3fff:fdd2']],
  ['multicast', ['224.0.0.1', '239.255.255.250', 'ff02::1', 'ff05::1:3', 'ff0e::1']],
  ['broadcast', ['255.255.255.255']],
  ['reserved 240.0.0.0/4', ['240.0.0.1', '250.1.2.3', '255.255.255.254']],
  ['benchmarking 198.18.0.0/15, 2001:2::/48', ['198.18.0.1', '198.19.255.255', '2001:2::1']],
  ['documentation', ['192.0.2.1', '198.51.100.1', '203.0.113.1', '2001:db8::1', '3fff::1']],
  ['IETF protocol assignments 192.0.0.0/24', ['192.0.0.1', '192.0.0.170']],
  ['6to4 relay anycast 192.88.99.0/24', ['192.88.99.1']],
  ['discard 100::/64', ['100::1']],
  ['site-local fec0::/10 (deprecated)', ['fec0::1']],
  ['IPv6 outside global unicast 2000::/3', ['4000::1', 'e000::1', 'fbff::1']],
];
const ALL_FORBIDDEN = FORBIDDEN.flatMap(([range, samples]) =>
  samples.map((ip) => [range, ip] as const),
);

/** Public neighbours of the forbidden ranges: the guard must not refuse too much either. */
const PUBLIC = [
  '1.0.0.0',
  '1.1.1.1',
  '8.8.8.8',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '169.253.255.255',
  '169.255.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '192.167.255.255',
  '192.169.0.0',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '::ffff:8.8.8.8',
  '2606:4700:4700::1111',
  '2a00:1450:4001::1',
  '2001:4860:4860::8888',
];

const none = parseAllowList([]);
const RECEIVER_HOST = '127.0.0.3';
const allowReceiver = parseAllowList([`${RECEIVER_HOST}/32`]);

/** The host part of a URL for an address: IPv6 in brackets. */
const hostOf = (ip: string) => (ip.includes(':') ? `[${ip}]` : ip);

/** Obfuscated spellings of forbidden IPv4 hosts that URL parsing turns into the plain form. */
const ODD_SPELLINGS = [
  'http://2130706433/',
  'http://0x7f000001/',
  'http://0x7f.0.0.1/',
  'http://0177.0.0.1/',
  'http://127.1/',
  'http://0/',
  'http://0xa9fea9fe/',
  'http://169.254.169.254./',
  'http://[0:0:0:0:0:ffff:127.0.0.1]/',
  'http://[::ffff:169.254.169.254]/',
  'http://localhost/',
  'http://localhost./',
  'http://LOCALHOST/',
  'http://[fe80::1%25eth0]/',
];

// ---------------------------------------------------------------------------------------------
// Servers: traps that count connections, an allowed receiver, a tiny DNS server.

interface Trap {
  port: number;
  connections: () => number;
  close: () => Promise<void>;
}

/** HTTP servers on 127.0.0.1 and 127.0.0.2, the same port, counting every TCP connection. */
async function startTrap(): Promise<Trap> {
  let count = 0;
  const make = () => {
    const s = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"secret":"leaked"}'),
    );
    s.on('connection', () => count++);
    return s;
  };
  const a = make();
  await new Promise<void>((r) => a.listen(0, '127.0.0.1', r));
  const port = (a.address() as AddressInfo).port;
  const b = make();
  await new Promise<void>((r, j) => b.once('error', j).listen(port, '127.0.0.2', r));
  return {
    port,
    connections: () => count,
    close: async () => {
      for (const s of [a, b]) {
        s.closeAllConnections();
        await new Promise((r) => s.close(r));
      }
    },
  };
}

/** The allowed receiver on 127.0.0.3: `routes` maps a path to [status, headers, body]. */
async function startReceiver(routes: Record<string, [number, Record<string, string>?, string?]>) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hits.push(req.url!);
      const [status, headers, body] = routes[req.url!.split('?')[0]!] ?? [404];
      res.writeHead(status, headers).end(body ?? '');
    });
  });
  await new Promise<void>((r) => server.listen(0, RECEIVER_HOST, r));
  const base = `http://${RECEIVER_HOST}:${(server.address() as AddressInfo).port}`;
  return {
    base,
    hits,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * A DNS server on UDP loopback answering A and AAAA from a table (hand-encoded RFC 1035
 * messages). A name with several answer sets gives them in turn (DNS rebinding).
 */
async function startDns(zone: Record<string, string[][]>) {
  const asked = new Map<string, number>();
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, from) => {
    let offset = 12;
    const labels: string[] = [];
    while (msg[offset]! > 0) {
      labels.push(msg.subarray(offset + 1, offset + 1 + msg[offset]!).toString('ascii'));
      offset += 1 + msg[offset]!;
    }
    const qtype = msg.readUInt16BE(offset + 1);
    const question = msg.subarray(12, offset + 5);
    const name = labels.join('.').toLowerCase();
    const sets = zone[name];
    let answers: Buffer[] = [];
    if (sets) {
      const n = asked.get(`${name}/${qtype}`) ?? 0;
      asked.set(`${name}/${qtype}`, n + 1);
      const set = sets[Math.min(n, sets.length - 1)]!;
      // Through the URL parser first: ipaddr.js would read ::a.b.c.d as ::ffff:a.b.c.d.
      answers = set
        .map((ip) =>
          ipaddr.parse(ip.includes(':') ? new URL(`http://[${ip}]/`).hostname.slice(1, -1) : ip),
        )
        .filter((a) => (qtype === 1 ? a.kind() === 'ipv4' : qtype === 28 && a.kind() === 'ipv6'))
        .map((a) => {
          const rdata = Buffer.from(a.toByteArray());
          const rr = Buffer.alloc(12);
          rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
          rr.writeUInt16BE(qtype, 2);
          rr.writeUInt16BE(1, 4); // IN
          rr.writeUInt32BE(0, 6); // TTL 0: never cached
          rr.writeUInt16BE(rdata.length, 10);
          return Buffer.concat([rr, rdata]);
        });
    }
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2); // id
    header.writeUInt16BE(0x8180 | (sets ? 0 : 3), 2); // response, recursion available; NXDOMAIN if unknown
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, question, ...answers]), from.port, from.address);
  });
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  const resolver = new dns.promises.Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([`127.0.0.1:${socket.address().port}`]);
  /** Like dns.lookup with all: true, but asking this server (per resolver, not process-wide). */
  const resolve: ResolveAll = async (host) => {
    const family = net.isIP(host);
    if (family) return [{ address: host, family }];
    const [a, aaaa] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
    const list = [
      ...(a.status === 'fulfilled' ? a.value.map((address) => ({ address, family: 4 })) : []),
      ...(aaaa.status === 'fulfilled' ? aaaa.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (list.length === 0)
      throw Object.assign(new Error(`${host} not found`), { code: 'ENOTFOUND' });
    return list;
  };
  return { resolve, close: () => new Promise<void>((r) => socket.close(() => r())) };
}

/** A GET through http.request with the guard as its `lookup`, as post.ts, fetch-url.ts and the TRP client do. */
function guardedRequest(
  url: string,
  allow: ReturnType<typeof parseAllowList>,
  resolve: ResolveAll,
): Promise<{ status: number } | { error: NodeJS.ErrnoException }> {
  return new Promise((done) => {
    const req = http.request(url, {
      lookup: guardedLookup(allow, resolve) as never,
      agent: false,
      timeout: 3000,
    });
    req.on('response', (res) => {
      res.resume();
      done({ status: res.statusCode! });
    });
    req.on('error', (error) => done({ error }));
    req.on('timeout', () =>
      req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
    );
    req.end();
  });
}

// ---------------------------------------------------------------------------------------------

let trap: Trap;
beforeAll(async () => {
  trap = await startTrap();
});
afterAll(async () => {
  // Whatever ran above, nothing connected to a forbidden address.
  expect(trap.connections()).toBe(0);
  await trap.close();
});

describe('the address check', () => {
  it.each(ALL_FORBIDDEN)('refuses %s: %s', (_range, ip) => {
    expect(isAllowedAddress(ip, none)).toBe(false);
    // Only the exact range the operator lists opens it; the loopback receiver's /32 opens nothing else.
    expect(isAllowedAddress(ip, allowReceiver)).toBe(false);
  });

  it.each(PUBLIC)('allows public %s', (ip) => {
    expect(isAllowedAddress(ip, none)).toBe(true);
  });

  it('judges an IPv4-mapped address as its IPv4 against the allow list, but no other embedding', () => {
    const allow = parseAllowList(['10.0.0.0/8']);
    expect(isAllowedAddress('10.1.2.3', allow)).toBe(true);
    expect(isAllowedAddress('::ffff:10.1.2.3', allow)).toBe(true);
    expect(isAllowedAddress('::ffff:a01:203', allow)).toBe(true);
    for (const ip of ['64:ff9b::a01:203', '2002:a01:203::1', '::a01:203', '::ffff:0:a01:203'])
      expect(isAllowedAddress(ip, allow), ip).toBe(false);
    // An IPv6 range the operator lists is honoured even outside 2000::/3.
    expect(isAllowedAddress('fd12::5', parseAllowList(['fd12::/16']))).toBe(true);
  });
});

describe('IP-literal URLs, before any connection', () => {
  const urls = [
    ...ALL_FORBIDDEN.map(([, ip]) => `http://${hostOf(ip)}:${80}/hook`),
    ...ODD_SPELLINGS,
  ];

  it('the webhook check refuses every one', async () => {
    for (const url of urls)
      expect(await checkWebhookUrl(url, allowReceiver), url).toMatchObject({ ok: false });
  });

  it('webhook delivery refuses every one without connecting', async () => {
    for (const [, ip] of ALL_FORBIDDEN) {
      const r = await postWebhook(`http://${hostOf(ip)}:${trap.port}/hook`, {}, '{}', {
        timeoutMs: 2000,
        allow: allowReceiver,
      });
      expect(r, ip).toMatchObject({ status_code: null });
      expect(r.error, ip).toMatch(/may not be sent to/);
    }
    for (const url of ODD_SPELLINGS.filter((u) => !u.includes('%25'))) {
      const r = await postWebhook(url.replace(/\/$/, `:${trap.port}/`), {}, '{}', {
        timeoutMs: 2000,
        allow: allowReceiver,
      });
      expect(r.status_code, url).toBeNull();
    }
    expect(trap.connections()).toBe(0);
  });

  it('the NFT metadata fetcher and the TRP client refuse every one', async () => {
    for (const [, ip] of ALL_FORBIDDEN) {
      const url = `http://${hostOf(ip)}:${trap.port}/x`;
      expect(() => checkFetchTarget(url, allowReceiver), ip).toThrow('forbidden address');
      await expect(
        guardedGet(url, { allow: allowReceiver, timeoutMs: 2000, maxBytes: 1000 }),
        ip,
      ).rejects.toThrow('forbidden address');
      const refused = trpPost(
        url,
        {},
        { allow: allowReceiver, timeoutMs: 2000, requestId: 'r', allowHttpLoopback: true },
      );
      // Refused for good (a TrpRefused, not to be retried).
      await expect(refused, ip).rejects.toBeInstanceOf(TrpRefused);
      await expect(refused, ip).rejects.toThrow('may not be sent to');
    }
  });
});

describe('host names that resolve to a forbidden address', () => {
  let server: Awaited<ReturnType<typeof startDns>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const zone: Record<string, string[][]> = {
    'public.test': [['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']],
    'receiver.test': [[RECEIVER_HOST]],
    'trap.test': [['127.0.0.2']],
    'rebind.test': [[RECEIVER_HOST], ['127.0.0.2']],
    'mixed.test': [['93.184.216.34', '10.0.0.1']],
    'mixed6.test': [['93.184.216.34', 'fd00:ec2::254']],
  };
  for (const [i, [, ip]] of ALL_FORBIDDEN.entries()) zone[`forbidden-${i}.test`] = [[ip]];
  const forbiddenNames = Object.keys(zone).filter(
    (n) => !['public.test', 'receiver.test', 'rebind.test'].includes(n),
  );

  beforeAll(async () => {
    server = await startDns(zone);
    receiver = await startReceiver({ '/hook': [200] });
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  it('the local DNS server answers (control): a public name passes the check, the receiver is reached', async () => {
    expect(await checkWebhookUrl('https://public.test/hook', none, server.resolve)).toMatchObject({
      ok: true,
    });
    const port = new URL(receiver.base).port;
    expect(
      await guardedRequest(`http://receiver.test:${port}/hook`, allowReceiver, server.resolve),
    ).toEqual({ status: 200 });
  });

  it('the webhook check refuses each name, and a name with any forbidden address among public ones', async () => {
    for (const name of forbiddenNames) {
      const check = await checkWebhookUrl(`https://${name}/hook`, allowReceiver, server.resolve);
      expect(check, `${name}: ${zone[name]}`).toEqual({
        ok: false,
        reason: 'resolves to a private, loopback, link-local or reserved address',
      });
    }
  });

  it('the connect-time guard refuses each name and never connects', async () => {
    for (const name of forbiddenNames) {
      const r = await guardedRequest(`http://${name}:${trap.port}/`, allowReceiver, server.resolve);
      expect(r, `${name}: ${zone[name]}`).toMatchObject({ error: { code: 'EFORBIDDENADDR' } });
    }
    expect(trap.connections()).toBe(0);
  });

  it('DNS rebinding: a name that passed the check is judged again at connect time, on the address used', async () => {
    expect(
      await checkWebhookUrl(`http://rebind.test:${trap.port}/hook`, allowReceiver, server.resolve),
    ).toMatchObject({ ok: true });
    const r = await guardedRequest(
      `http://rebind.test:${trap.port}/hook`,
      allowReceiver,
      server.resolve,
    );
    expect(r).toMatchObject({ error: { code: 'EFORBIDDENADDR' } });
  });

  it('localhost and localhost. are refused through the system resolver, by every client', async () => {
    for (const host of ['localhost', 'localhost.', 'LOCALHOST']) {
      const url = `http://${host}:${trap.port}/hook`;
      expect(await checkWebhookUrl(url, allowReceiver), host).toMatchObject({ ok: false });
      expect(
        (await postWebhook(url, {}, '{}', { timeoutMs: 2000, allow: allowReceiver })).status_code,
        host,
      ).toBeNull();
      await expect(
        guardedGet(url, { allow: allowReceiver, timeoutMs: 2000, maxBytes: 1000 }),
        host,
      ).rejects.toThrow();
      // A name that does not resolve (localhost. on most systems) is a retryable failure; one that resolves is refused for good.
      await expect(
        trpPost(
          url,
          {},
          { allow: allowReceiver, timeoutMs: 2000, requestId: 'r', allowHttpLoopback: true },
        ),
        host,
      ).rejects.toMatchObject({ message: expect.stringMatching(/may not be sent to|ENOTFOUND/) });
    }
    expect(trap.connections()).toBe(0);
  });
});

describe('redirects toward forbidden addresses', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const metadata = 'http://169.254.169.254/latest/meta-data/';
  const nft = { 'content-type': 'application/json' };

  beforeAll(async () => {
    const toTrap = `http://127.0.0.2:${trap.port}/stolen`;
    receiver = await startReceiver({
      '/hook': [200],
      '/to-trap': [302, { location: toTrap }],
      '/to-metadata': [307, { location: metadata }],
      '/to-mapped': [301, { location: `http://[::ffff:127.0.0.2]:${trap.port}/` }],
      '/to-localhost': [308, { location: `http://localhost:${trap.port}/` }],
      '/to-hex': [303, { location: `http://0x7f000002:${trap.port}/` }],
      '/to-allowed': [302, { location: '/final' }],
      '/final': [200, nft, '{"name":"Fine"}'],
      '/hop1': [302, { location: '/hop2' }],
      '/hop2': [302, { location: '/hop3' }],
      '/hop3': [302, { location: toTrap }],
    });
  });
  afterAll(async () => {
    await receiver?.close();
  });

  const bad = ['/to-trap', '/to-metadata', '/to-mapped', '/to-localhost', '/to-hex', '/hop3'];

  it('webhook delivery records the redirect as not followed', async () => {
    for (const path of [...bad, '/to-allowed']) {
      const r = await postWebhook(`${receiver.base}${path}`, {}, '{}', {
        timeoutMs: 2000,
        allow: allowReceiver,
      });
      expect(r, path).toMatchObject({
        status_code: expect.any(Number),
        retryable: false,
        error: `redirect ${r.status_code} not followed`,
      });
    }
    expect(receiver.hits.filter((h) => h === '/final')).toEqual([]);
  });

  it('the NFT metadata fetcher follows redirects (at most 3), each target checked', async () => {
    const opts = { allow: allowReceiver, timeoutMs: 3000, maxBytes: 1000 };
    expect((await guardedGet(`${receiver.base}/to-allowed`, opts)).toString()).toBe(
      '{"name":"Fine"}',
    );
    for (const path of ['/to-trap', '/to-metadata', '/to-mapped', '/to-hex', '/hop1']) {
      await expect(guardedGet(`${receiver.base}${path}`, opts), path).rejects.toThrow(
        'URL points at a forbidden address',
      );
    }
    await expect(guardedGet(`${receiver.base}/to-localhost`, opts)).rejects.toThrow(
      'host resolves to a forbidden address',
    );
    await expect(guardedGet(`${receiver.base}/hop1`, { ...opts, maxRedirects: 1 })).rejects.toThrow(
      'more than 1 redirects',
    );
  });

  it('the TRP client follows no redirect at all', async () => {
    for (const path of [...bad, '/to-allowed']) {
      const refused = trpPost(
        `${receiver.base}${path}`,
        {},
        { allow: allowReceiver, timeoutMs: 2000, requestId: 'r', allowHttpLoopback: true },
      );
      await expect(refused, path).rejects.toBeInstanceOf(TrpRefused);
      await expect(refused, path).rejects.toThrow(/^redirect 30\d not followed$/);
    }
  });
});

describe('on a running appliance', () => {
  let db: TestDatabase;
  let app: Awaited<ReturnType<typeof startTestAppliance>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    db = await freshDatabase();
    receiver = await startReceiver({
      '/hook': [200],
      '/to-trap': [302, { location: `http://127.0.0.2:${trap.port}/stolen` }],
      '/to-metadata': [307, { location: 'http://169.254.169.254/latest/meta-data/' }],
    });
    // Only the receiver's address is allowed; the rate limit is off (this file sends many requests).
    app = await startTestAppliance(db.url, {
      TOLLGATE_WEBHOOK_ALLOW_CIDRS: `${RECEIVER_HOST}/32`,
      TOLLGATE_TRP_ALLOW_CIDRS: `${RECEIVER_HOST}/32`,
      TOLLGATE_NFT_METADATA_ALLOW_CIDRS: `${RECEIVER_HOST}/32`,
      TOLLGATE_RATE_LIMIT_PER_MINUTE: '0',
    });
  });
  afterAll(async () => {
    await app?.stop();
    await receiver?.close();
    await db?.drop();
  });

  it('stream/create, liveaml/create and the travel rule webhook refuse every forbidden URL with 5004', async () => {
    const { apikey } = await createApiKey(db.sql, 'create');
    const address = randomAddress();
    const urls = [...ALL_FORBIDDEN.map(([, ip]) => `http://${hostOf(ip)}/hook`), ...ODD_SPELLINGS];
    for (const webhook of urls) {
      const res = await call(app.baseUrl, 'POST', '/v2/stream/create', {
        headers: { apikey },
        body: { address, webhook },
      });
      expect([res.status, res.json?.code], webhook).toEqual([400, 5004]);
    }
    for (const webhook of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://localhost/',
    ]) {
      const aml = await call(app.baseUrl, 'POST', '/v2/liveaml/create', {
        headers: { apikey },
        body: { address, webhook },
      });
      expect([aml.status, aml.json?.code], webhook).toEqual([400, 5004]);
      const tr = await call(app.baseUrl, 'POST', '/v2/travelrule/webhook', {
        headers: { apikey },
        body: { url: webhook },
      });
      expect([tr.status, tr.json?.code], webhook).toEqual([400, 5004]);
    }
    const ok = await call(app.baseUrl, 'POST', '/v2/stream/create', {
      headers: { apikey },
      body: { address, webhook: `${receiver.base}/hook` },
    });
    expect(ok.json).toMatchObject({ code: 0 });
  });

  it('delivery refuses a stored forbidden URL, and does not follow a receiver redirect', async () => {
    // Each key streams the same address; the forbidden URLs are written straight into the table,
    // as if the allow list had been narrowed since the stream was created.
    const to = randomAddress();
    const cases: Record<string, { url: string; expect: RegExp }> = {
      ok: { url: `${receiver.base}/hook`, expect: /^$/ },
      redirect_trap: { url: `${receiver.base}/to-trap`, expect: /^redirect 302 not followed$/ },
      redirect_metadata: {
        url: `${receiver.base}/to-metadata`,
        expect: /^redirect 307 not followed$/,
      },
      literal_loopback: { url: `http://127.0.0.2:${trap.port}/hook`, expect: /may not be sent to/ },
      literal_mapped: {
        url: `http://[::ffff:7f00:2]:${trap.port}/hook`,
        expect: /may not be sent to/,
      },
      literal_metadata: {
        url: 'http://169.254.169.254/latest/meta-data/',
        expect: /may not be sent to/,
      },
      literal_nat64: { url: 'http://[64:ff9b::a9fe:a9fe]/', expect: /may not be sent to/ },
      name_localhost: { url: `http://localhost:${trap.port}/hook`, expect: /may not be sent to/ },
    };
    const keyIds: Record<string, string> = {};
    for (const [name, c] of Object.entries(cases)) {
      const key = await createApiKey(db.sql, name);
      keyIds[key.id] = name;
      const res = await call(app.baseUrl, 'POST', '/v2/stream/create', {
        headers: { apikey: key.apikey },
        body: { address: to, webhook: `${receiver.base}/hook` },
      });
      expect(res.json, name).toMatchObject({ code: 0 });
      await db.sql`update tracked_addresses set stream_webhook = ${c.url} where api_key_id = ${key.id}`;
    }
    const w = await fundedWallet();
    await w.send(to, 1n);

    const firstAttempts = () => db.sql<
      {
        api_key_id: string;
        status: string;
        status_code: number | null;
        error: string | null;
        url: string;
      }[]
    >`
      select e.api_key_id::text as api_key_id, e.status, d.status_code, d.error, d.url
      from webhook_events e join webhook_deliveries d on d.event_id = e.id
      where e.address = ${to.toLowerCase()} and not e.confirmed and d.attempt = 1`;
    const rows = await eventually(
      firstAttempts,
      (r) => r.length === Object.keys(cases).length,
      30_000,
    );
    expect(rows).toHaveLength(Object.keys(cases).length);
    for (const row of rows) {
      const name = keyIds[row.api_key_id]!;
      expect(row.url, name).toBe(cases[name]!.url);
      expect(row.error ?? '', name).toMatch(cases[name]!.expect);
      if (name === 'ok') expect(row.status_code).toBe(200);
      else if (name.startsWith('redirect'))
        expect(row.status, name).toBe('failed'); // a redirect is not retried
      else expect(row.status_code, name).toBeNull();
    }
    expect(receiver.hits.filter((h) => h !== '/hook' && !h.startsWith('/to-'))).toEqual([]);
    expect(trap.connections()).toBe(0);
  });
});
