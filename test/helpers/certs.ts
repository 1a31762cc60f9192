import { X509Certificate } from 'node:crypto';
import { generate } from 'selfsigned';

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
