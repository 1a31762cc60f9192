import { randomBytes, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { generate } from 'selfsigned';

/**
 * Certificates for TRP's mutual TLS: the SHA-256 fingerprints a directory VASP is pinned by, and
 * a development CA that makes certificates for two appliances (and the tests) to talk over
 * mutual TLS. A production VASP uses certificates from its own PKI; only fingerprints matter to
 * the pinning.
 */

/** Node's fingerprint256 form: 32 upper-case hex pairs joined by ':'. */
const FINGERPRINT = /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/;

/**
 * A SHA-256 fingerprint as given by a person or a tool ("ab:cd:…", "ABCD…", "sha256:ab cd …",
 * OpenSSL's "sha256 Fingerprint=AB:CD…") in the stored form, or undefined when it is not one.
 */
export function normalizeFingerprint(value: string): string | undefined {
  const hex = value
    .trim()
    .replace(/^sha-?256( fingerprint)?\s*[=:]?\s*/i, '')
    .replace(/[\s:]/g, '')
    .toUpperCase();
  if (!/^[0-9A-F]{64}$/.test(hex)) return undefined;
  return hex.match(/../g)!.join(':');
}

export function isFingerprint(value: string): boolean {
  return FINGERPRINT.test(value);
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The SHA-256 fingerprint of each certificate in a PEM text; throws on one that is not readable. */
export function certificateFingerprints(pem: string): string[] {
  const blocks = pem.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) throw new Error('no PEM certificate in it');
  return blocks.map((block) => new X509Certificate(block).fingerprint256);
}

export interface KeyAndCertificate {
  /** PEM */
  cert: string;
  /** PEM (PKCS #8), unencrypted */
  key: string;
}

const DAY_MS = 86_400_000;

function validity(days: number): { notBeforeDate: Date; notAfterDate: Date } {
  // An hour back: a peer whose clock is a little behind still takes a certificate made now.
  const notBeforeDate = new Date(Date.now() - 3_600_000);
  return { notBeforeDate, notAfterDate: new Date(notBeforeDate.getTime() + days * DAY_MS) };
}

/** A development certificate authority (EC P-256): signs certificates, nothing else. */
export async function makeDevCa(
  opts: { name?: string; days?: number } = {},
): Promise<KeyAndCertificate> {
  const name = opts.name ?? `Tollgate development CA ${randomBytes(4).toString('hex')}`;
  const pems = await generate([{ name: 'commonName', value: name }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    ...validity(opts.days ?? 825),
    extensions: [
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/**
 * A certificate signed by `ca` for one VASP's TRP endpoint, usable both as its server
 * certificate and as its client certificate (TRP implementations commonly present one identity
 * both ways). `hosts` are its DNS names and IP addresses; the first names the subject.
 */
export async function makeDevCertificate(
  ca: KeyAndCertificate,
  opts: { hosts: readonly string[]; days?: number },
): Promise<KeyAndCertificate & { fingerprint: string }> {
  if (opts.hosts.length === 0) throw new Error('a certificate needs at least one host name or IP');
  const altNames = opts.hosts.map((h) =>
    isIP(h) ? { type: 7 as const, ip: h } : { type: 2 as const, value: h },
  );
  const pems = await generate([{ name: 'commonName', value: opts.hosts[0]! }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    ...validity(opts.days ?? 397),
    ca,
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true, clientAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  return {
    cert: pems.cert,
    key: pems.private,
    fingerprint: new X509Certificate(pems.cert).fingerprint256,
  };
}

/** TLS 1.2 and 1.3 only, for every TLS connection the appliance makes or takes. */
export const TLS_VERSIONS = { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.3' } as const;
