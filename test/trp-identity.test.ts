import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeDevCa, makeDevCertificate } from '../src/net/tls-certs.js';
import { leafCertificate } from '../src/travelrule/trp/identity.js';

describe("the certificate TRP's GET /identity shows", () => {
  it('is the first certificate of the file (a leaf before its chain), in PEM', async () => {
    const ca = await makeDevCa({ name: 'identity test CA' });
    const leaf = await makeDevCertificate(ca, { hosts: ['trp.identity.example'] });
    const chain = `${leaf.cert}${ca.cert}`;
    const shown = leafCertificate(chain, 'chain.pem');
    expect(new X509Certificate(shown).fingerprint256).toBe(
      new X509Certificate(leaf.cert).fingerprint256,
    );
    expect(shown.match(/BEGIN CERTIFICATE/g)).toHaveLength(1);
    // A key beside it in the same file is not shown.
    expect(leafCertificate(`${leaf.key}${leaf.cert}`, 'both.pem')).toBe(shown);
  });

  it('refuses a file without a readable certificate, naming it', () => {
    expect(() => leafCertificate('not a certificate', '/etc/tollgate/trp.pem')).toThrow(
      '/etc/tollgate/trp.pem: no PEM certificate in it',
    );
    expect(() =>
      leafCertificate(
        '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n',
        '/etc/tollgate/trp.pem',
      ),
    ).toThrow(/^\/etc\/tollgate\/trp\.pem: its first certificate cannot be read/);
  });
});
