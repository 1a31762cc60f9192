import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  certificateFingerprints,
  makeDevCa,
  makeDevCertificate,
  type KeyAndCertificate,
} from '../net/tls-certs.js';
import { command, parseOptions } from './command.js';

export const TLS_USAGE = `Usage:
  tollgate tls dev-ca --out DIR [--name NAME]
      a development certificate authority: DIR/ca.pem (give it to the counterparty: its
      TOLLGATE_TRP_CA_FILE) and DIR/ca.key (keep it)
  tollgate tls dev-cert --ca DIR --host H [--host H2]... --out DIR2
      a certificate for one appliance's TRP endpoint signed by the CA in DIR, for server and client
      use: DIR2/cert.pem and DIR2/key.pem (TOLLGATE_TRP_CLIENT_CERT_FILE / _KEY_FILE); H are the
      DNS names or IP addresses other VASPs reach it at. Prints its SHA-256 fingerprint, which the
      counterparty pins in its directory (vasps add --trp-tls-fingerprint)
  tollgate tls fingerprint FILE
      the SHA-256 fingerprint of each certificate in a PEM file

Development and test only: a production VASP uses certificates from its own PKI. Keys are
written readable by their owner only; an existing file is never overwritten.`;

const cmd = command('tls', TLS_USAGE);

function writeNew(path: string, text: string, mode: number): void {
  writeFileSync(path, text, { mode, flag: 'wx' });
}

function refuseExisting(...paths: string[]): boolean {
  const existing = paths.find((p) => existsSync(p));
  if (existing) cmd.fail(`${existing} exists already: nothing written`, 1);
  return existing !== undefined;
}

async function devCa(args: string[]): Promise<void> {
  const { values } = parseOptions({
    args,
    options: { out: { type: 'string' }, name: { type: 'string' } },
  });
  if (!values.out) return cmd.usage('tls dev-ca needs --out DIR');
  const dir = resolve(values.out);
  const [certPath, keyPath] = [join(dir, 'ca.pem'), join(dir, 'ca.key')];
  if (refuseExisting(certPath, keyPath)) return;
  const ca = await makeDevCa(values.name ? { name: values.name } : {});
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeNew(keyPath, ca.key, 0o600);
  writeNew(certPath, ca.cert, 0o644);
  process.stdout.write(`${JSON.stringify({ ca_cert: certPath, ca_key: keyPath })}\n`);
}

async function devCert(args: string[]): Promise<void> {
  const { values } = parseOptions({
    args,
    options: {
      ca: { type: 'string' },
      host: { type: 'string', multiple: true },
      out: { type: 'string' },
    },
  });
  if (!values.ca || !values.out || !values.host?.length)
    return cmd.usage('tls dev-cert needs --ca DIR, --host H and --out DIR');
  const caDir = resolve(values.ca);
  let ca: KeyAndCertificate;
  try {
    ca = {
      cert: readFileSync(join(caDir, 'ca.pem'), 'utf8'),
      key: readFileSync(join(caDir, 'ca.key'), 'utf8'),
    };
  } catch {
    return cmd.fail(`--ca: ${caDir} has no ca.pem and ca.key (made by tollgate tls dev-ca)`, 1);
  }
  const dir = resolve(values.out);
  const [certPath, keyPath] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
  if (refuseExisting(certPath, keyPath)) return;
  const made = await makeDevCertificate(ca, { hosts: values.host });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeNew(keyPath, made.key, 0o600);
  writeNew(certPath, made.cert, 0o644);
  process.stdout.write(
    `${JSON.stringify({ cert: certPath, key: keyPath, hosts: values.host, fingerprint: made.fingerprint })}\n`,
  );
}

function fingerprint(args: string[]): void {
  const { positionals } = parseOptions({ args, allowPositionals: true, options: {} });
  if (positionals.length !== 1) {
    cmd.usage('tls fingerprint needs exactly one FILE');
    return;
  }
  const file = positionals[0]!;
  if (!existsSync(file)) {
    cmd.fail(`no such file: ${file}`, 1);
    return;
  }
  try {
    process.stdout.write(certificateFingerprints(readFileSync(file, 'utf8')).join('\n') + '\n');
  } catch (err) {
    cmd.fail(`${file}: ${(err as Error).message}`, 1);
  }
}

/** `tollgate tls …`: development certificates for TRP's mutual TLS, and fingerprints to pin. */
export async function tlsCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  await cmd.run(async () => {
    switch (sub) {
      case 'dev-ca':
        return devCa(rest);
      case 'dev-cert':
        return devCert(rest);
      case 'fingerprint':
        return fingerprint(rest);
      default:
        return cmd.usage();
    }
  });
}
