import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { createSecureContext } from 'node:tls';
import { join, resolve } from 'node:path';
import { generate } from 'selfsigned';
import { log } from '../log.js';
import { ConfigError } from '../config/index.js';
import { warnIfReadable } from '../secret-files.js';

/** A file a setting names, read; a file that cannot be read is a configuration error naming it. */
function readSetting(variable: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `${variable}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }
}

export interface TlsMaterial {
  cert: string;
  key: string;
  selfSigned: boolean;
}

/**
 * The operator's certificate (TOLLGATE_TLS_CERT / TOLLGATE_TLS_KEY), or else a self-signed one
 * generated once into <data dir>/tls and reused on every start.
 */
export async function loadTls(opts: {
  certFile?: string;
  keyFile?: string;
  dataDir: string;
}): Promise<TlsMaterial> {
  if (opts.certFile && opts.keyFile) {
    const cert = readSetting('TOLLGATE_TLS_CERT', opts.certFile);
    const key = readSetting('TOLLGATE_TLS_KEY', opts.keyFile);
    // A file of another kind, or a key of another certificate, is said now, naming the settings
    // (it was OpenSSL's "no start line" or an EISDIR, exit 1; found by an outside probe).
    try {
      createSecureContext({ cert, key });
    } catch (err) {
      throw new ConfigError(
        `TOLLGATE_TLS_CERT, TOLLGATE_TLS_KEY: not a PEM certificate and its private key (${(err as Error).message})`,
      );
    }
    warnIfReadable(opts.keyFile, "the TLS certificate's private key file", 'others');
    return { cert, key, selfSigned: false };
  }
  const dir = join(resolve(opts.dataDir), 'tls');
  const certPath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  if (existsSync(certPath) && existsSync(keyPath)) {
    warnIfReadable(keyPath, "the TLS certificate's private key file", 'others');
    return {
      cert: readFileSync(certPath, 'utf8'),
      key: readFileSync(keyPath, 'utf8'),
      selfSigned: true,
    };
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const notAfter = new Date();
  notAfter.setFullYear(notAfter.getFullYear() + 2);
  // A subject of its own: certificates are looked up by subject in a trust store, so two
  // appliances trusting each other's self-signed certificates need different ones.
  const pems = await generate(
    [{ name: 'commonName', value: `tollgate-${randomBytes(6).toString('hex')}.local` }],
    {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notAfterDate: notAfter,
      extensions: [
        // Its own trust anchor: a peer appliance can trust exactly this certificate by listing it
        // in its TOLLGATE_TRP_CA_FILE (OpenSSL accepts a self-signed certificate as an anchor only
        // when it may sign certificates). It signs nothing else; its key never leaves the data dir.
        { name: 'basicConstraints', cA: true, pathLenConstraint: 0 },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 2, value: hostname() },
            { type: 7, ip: '127.0.0.1' },
            { type: 7, ip: '::1' },
          ],
        },
      ],
    },
  );
  writeFileSync(keyPath, pems.private, { mode: 0o600 });
  writeFileSync(certPath, pems.cert, { mode: 0o644 });
  log.info({ cert_file: certPath }, 'generated a self-signed TLS certificate');
  return { cert: pems.cert, key: pems.private, selfSigned: true };
}
