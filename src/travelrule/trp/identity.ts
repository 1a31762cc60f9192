import { X509Certificate } from 'node:crypto';

/**
 * TRP's identity discovery: `GET /identity` at the host of a VASP's TRP endpoint answers who
 * runs it, `{name, lei, x509}` (the name as in the commercial register, the LEI, the certificate
 * in PEM), so that a counterparty that found the endpoint through a Travel Address can check
 * whom it is about to send personal data to, and pin the certificate.
 */
export interface TrpIdentity {
  name: string;
  lei?: string;
  x509?: string;
}

/**
 * The first certificate of a PEM file (a leaf before its chain), checked to parse and written as
 * Node writes PEM. Throws naming what is wrong: the appliance does not start with an identity it
 * cannot show.
 */
export function leafCertificate(pem: string, file: string): string {
  const first = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(pem);
  if (!first) throw new Error(`${file}: no PEM certificate in it`);
  try {
    return new X509Certificate(first[0]).toString();
  } catch (err) {
    throw new Error(`${file}: its first certificate cannot be read (${(err as Error).message})`);
  }
}
