import { describe, expect, it } from 'vitest';
import {
  checkWebhookUrl,
  isAllowedAddress,
  parseAllowList,
  parseWebhookUrl,
  sensitiveReach,
} from '../../src/net/ssrf.js';

const none = parseAllowList([]);

describe('isAllowedAddress', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '0.0.0.0',
    '10.0.0.1',
    '172.16.5.5',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.254',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.1',
    '198.18.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
  ])('refuses %s', (ip) => {
    expect(isAllowedAddress(ip, none)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows public %s',
    (ip) => {
      expect(isAllowedAddress(ip, none)).toBe(true);
    },
  );

  it('allows a private range the operator lists, and nothing more', () => {
    const allow = parseAllowList(['10.20.0.0/16', 'fd12::/16']);
    expect(isAllowedAddress('10.20.3.4', allow)).toBe(true);
    expect(isAllowedAddress('::ffff:10.20.3.4', allow)).toBe(true);
    expect(isAllowedAddress('10.21.0.1', allow)).toBe(false);
    expect(isAllowedAddress('fd12::5', allow)).toBe(true);
    expect(isAllowedAddress('127.0.0.1', allow)).toBe(false);
  });

  it('refuses what is not an IP address', () => {
    expect(isAllowedAddress('example.com', none)).toBe(false);
  });
});

describe('webhook URLs', () => {
  it('takes http(s) URLs with a host and no credentials', () => {
    expect(parseWebhookUrl('https://hooks.example.com/x?y=1').ok).toBe(true);
    expect(parseWebhookUrl('ftp://example.com').ok).toBe(false);
    expect(parseWebhookUrl('https://u:p@example.com').ok).toBe(false);
    expect(parseWebhookUrl('javascript:alert(1)').ok).toBe(false);
    // Port 0 would be sent to 80 or 443, a port the URL does not name.
    expect(parseWebhookUrl('https://8.8.8.8:0/x')).toEqual({
      ok: false,
      reason: 'port 0 is not a port to connect to',
    });
    expect(parseWebhookUrl('http://127.0.0.1:00/x').ok).toBe(false);
    expect(parseWebhookUrl('https://hooks.example.com:8443/x').ok).toBe(true);
    expect(parseWebhookUrl('https://example.com/' + 'a'.repeat(3000)).ok).toBe(false);
    // What the URL parser would mend silently is refused: the URL listed is the one given.
    for (const [given, reason] of [
      ['http:/127.0.0.1/h', 'not a URL: write it as http(s)://host/path'],
      ['https:hooks.example.com/x', 'not a URL: write it as http(s)://host/path'],
      [
        'http://127.0.0.1:9000/h x',
        'must not contain spaces or control characters (percent-encode them)',
      ],
      [' https://hooks.example.com/x', 'not a URL: write it as http(s)://host/path'],
      [
        'https://hooks.example.com/x\ty',
        'must not contain spaces or control characters (percent-encode them)',
      ],
      ['https://hooks.example.com\\x', 'must not contain a backslash'],
      ['http://:@127.0.0.1:9000/h', 'must not carry credentials'],
      ['https://@hooks.example.com/x', 'must not carry credentials'],
      ['ftp://example.com/x', 'must be http or https'],
    ] as const)
      expect(parseWebhookUrl(given), given).toEqual({ ok: false, reason });
    // A URL read from elsewhere (a token's metadata URI) is taken as a browser takes it.
    const metadata = parseWebhookUrl('https://meta.example/My Token 7.json', true);
    expect(metadata.ok && metadata.url.toString()).toBe('https://meta.example/My%20Token%207.json');
    // An @ after the host (in the path or query) is no credential.
    expect(parseWebhookUrl('https://hooks.example.com/u@x?to=a@b').ok).toBe(true);
    expect(parseWebhookUrl('HTTPS://Hooks.Example.com/x').ok).toBe(true);
    // A fragment is never sent: not stored with the receiver either.
    const withFragment = parseWebhookUrl('https://hooks.example.com/x?y=1#part');
    expect(withFragment.ok && withFragment.url.toString()).toBe('https://hooks.example.com/x?y=1');
  });

  it('checks what a name resolves to', async () => {
    expect(await checkWebhookUrl('http://localhost:9000/hook', none)).toMatchObject({ ok: false });
    expect(
      await checkWebhookUrl(
        'http://localhost:9000/hook',
        parseAllowList(['127.0.0.0/8', '::1/128']),
      ),
    ).toMatchObject({ ok: true });
    expect(await checkWebhookUrl('http://[::ffff:7f00:1]/', none)).toMatchObject({ ok: false });
    expect(await checkWebhookUrl('http://0x7f000001/', none)).toMatchObject({ ok: false });
    expect(await checkWebhookUrl('http://2130706433/', none)).toMatchObject({ ok: false });
  });
});

describe('delivery connects only to an allowed address', () => {
  it('refuses at connect time a name that resolves to loopback, and allows it when listed', async () => {
    const { createServer } = await import('node:http');
    const { postWebhook } = await import('../../src/webhooks/post.js');
    let hits = 0;
    const srv = createServer((_req, res) => {
      hits++;
      res.writeHead(200).end();
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    try {
      const refused = await postWebhook(`http://localhost:${port}/hook`, {}, '{}', {
        timeoutMs: 2000,
        allow: none,
      });
      expect(refused).toMatchObject({ status_code: null, retryable: true });
      expect(refused.error).toContain('may not be sent to');
      expect(hits).toBe(0);
      const allowed = await postWebhook(`http://localhost:${port}/hook`, {}, '{}', {
        timeoutMs: 2000,
        allow: parseAllowList(['127.0.0.0/8', '::1/128']),
      });
      expect(allowed).toMatchObject({ status_code: 200, error: null });
      expect(hits).toBe(1);
    } finally {
      srv.close();
    }
  });

  it('gives up on a receiver that does not answer within the timeout, and never follows a redirect', async () => {
    const { createServer } = await import('node:http');
    const { postWebhook } = await import('../../src/webhooks/post.js');
    const srv = createServer((req, res) => {
      if (req.url === '/redirect')
        res.writeHead(307, { location: 'http://169.254.169.254/' }).end();
      // otherwise: never answer
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    const allow = parseAllowList(['127.0.0.0/8']);
    try {
      const slow = await postWebhook(`http://127.0.0.1:${port}/slow`, {}, '{}', {
        timeoutMs: 300,
        allow,
      });
      expect(slow).toMatchObject({ status_code: null, retryable: true });
      expect(slow.error).toContain('no response within 300 ms');
      const redirect = await postWebhook(`http://127.0.0.1:${port}/redirect`, {}, '{}', {
        timeoutMs: 2000,
        allow,
      });
      expect(redirect).toMatchObject({
        status_code: 307,
        retryable: false,
        error: 'redirect 307 not followed',
      });
    } finally {
      srv.closeAllConnections();
      srv.close();
    }
  });
});

describe('IP-literal webhook hosts', () => {
  it('are checked at delivery too (Node does not call lookup for them)', async () => {
    const { createServer } = await import('node:http');
    const { postWebhook } = await import('../../src/webhooks/post.js');
    let hits = 0;
    const srv = createServer((_req, res) => {
      hits++;
      res.writeHead(200).end();
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    try {
      for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '0x7f000001', '2130706433']) {
        const refused = await postWebhook(`http://${host}:${port}/hook`, {}, '{}', {
          timeoutMs: 2000,
          allow: none,
        });
        expect(refused.error, host).toContain('may not be sent to');
      }
      expect(hits).toBe(0);
      const allowed = await postWebhook(`http://127.0.0.1:${port}/hook`, {}, '{}', {
        timeoutMs: 2000,
        allow: parseAllowList(['127.0.0.0/8']),
      });
      expect(allowed.status_code).toBe(200);
      expect(hits).toBe(1);
    } finally {
      srv.close();
    }
  });
});

describe('sensitiveReach', () => {
  it("names what an allow-list opens that no receiver needs: this host, the cloud's metadata", () => {
    expect(sensitiveReach(parseAllowList(['10.0.0.0/8', '192.168.0.0/16']))).toEqual([]);
    expect(sensitiveReach(parseAllowList(['0.0.0.0/0', '::/0']))).toEqual([
      'loopback (this host)',
      'the cloud metadata service (169.254.169.254)',
    ]);
    expect(sensitiveReach(parseAllowList(['169.254.0.0/16']))).toEqual([
      'the cloud metadata service (169.254.169.254)',
    ]);
  });
});
