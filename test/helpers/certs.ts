import { X509Certificate } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { freePort } from '../../support/ports.js';

/**
 * A self-signed P-256 certificate valid for 127.0.0.1 (a TLS listener's, or a client's), with
 * its SHA-256 fingerprint as a directory pins it.
 */
export async function selfSignedLoopback(
  commonName: string,
): Promise<{ cert: string; key: string; fingerprint: string }> {
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  return {
    cert: pems.cert,
    key: pems.private,
    fingerprint: new X509Certificate(pems.cert).fingerprint256,
  };
}

/**
 * A test appliance's own TRP identity for a mutual-TLS listener on a port of its own: a
 * self-signed loopback certificate written where TOLLGATE_TRP_CLIENT_CERT_FILE and _KEY_FILE
 * point (it serves the listener and is presented to peers), and the settings that turn it on,
 * for startTestAppliance.
 */
export async function mutualTlsTrpListener(dirPrefix: string) {
  const ours = await selfSignedLoopback('tollgate.test');
  const dir = mkdtempSync(join(tmpdir(), dirPrefix));
  writeFileSync(join(dir, 'cert.pem'), ours.cert);
  writeFileSync(join(dir, 'key.pem'), ours.key);
  const trpBase = `https://127.0.0.1:${await freePort()}`;
  return {
    ours,
    trpBase,
    env: {
      TOLLGATE_TRP_PORT: new URL(trpBase).port,
      TOLLGATE_TRP_PUBLIC_URL: trpBase,
      TOLLGATE_TRP_CLIENT_CERT_FILE: join(dir, 'cert.pem'),
      TOLLGATE_TRP_CLIENT_KEY_FILE: join(dir, 'key.pem'),
      TOLLGATE_TRP_REQUIRE_CLIENT_CERT: 'true',
    },
  };
}
