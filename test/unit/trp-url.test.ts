import { describe, expect, it } from 'vitest';
import { parseAllowList } from '../../src/net/ssrf.js';
import { trpUrlRefusal } from '../../src/travelrule/trp/client.js';

/**
 * Where a TRP message may go, as far as its URL tells: asked before each message, and of each
 * callback a counterparty gives, when it gives it.
 */
describe('trpUrlRefusal', () => {
  const none = parseAllowList([]);
  const refusal = (
    url: string,
    o: { allow?: string[]; loopback?: boolean; pins?: string[] } = {},
  ) =>
    trpUrlRefusal(new URL(url), {
      allow: o.allow ? parseAllowList(o.allow) : none,
      allowHttpLoopback: o.loopback ?? false,
      pins: o.pins,
    });

  it('takes https to a public host, and a private one inside the allowed ranges', () => {
    expect(refusal('https://vasp.example/trp/cb?t=1')).toBeUndefined();
    expect(refusal('https://10.1.2.3/cb', { allow: ['10.0.0.0/8'] })).toBeUndefined();
    expect(
      refusal('http://127.0.0.1:8080/cb', { loopback: true, allow: ['127.0.0.0/8'] }),
    ).toBeUndefined();
  });

  it('refuses private, loopback and link-local addresses outside them, plain http, and http to a pinned VASP', () => {
    expect(refusal('https://10.1.2.3/cb')).toBe(
      '10.1.2.3 is an address TRP messages may not be sent to',
    );
    expect(refusal('https://[::1]/cb')).toBe('[::1] is an address TRP messages may not be sent to');
    expect(refusal('https://169.254.169.254/cb')).toBe(
      '169.254.169.254 is an address TRP messages may not be sent to',
    );
    expect(refusal('http://vasp.example/cb')).toBe('must be https: it carries personal data');
    expect(
      refusal('http://127.0.0.1:8080/cb', { loopback: true, allow: ['127.0.0.0/8'], pins: ['AB'] }),
    ).toBe('must be https: the directory pins TLS certificates for this VASP');
    expect(refusal('ftp://vasp.example/cb')).toBe('must be https');
  });
});
