import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';

/**
 * DATABASE_URL read once, with one meaning, for both drivers: postgres.js (every pool) and
 * node-postgres (graphile-worker's pool and migrations, the worker's liveness session, the
 * indexers' lock sessions). Given the URL itself, the two read it differently: postgres.js sends
 * a query key it does not know (`sslrootcert`, `sslcert`) to the server as a session setting,
 * which refuses the connection, and takes `sslmode=require` as "encrypt, check nothing", where
 * node-postgres checks the certificate against Node's CAs; node-postgres lets the URL's `options`
 * replace the startup options Tollgate gives its sessions. Each driver is given the parts below
 * instead.
 *
 * `sslmode`, as libpq means it:
 * - `disable` (or none): no TLS;
 * - `require`: TLS, the certificate not checked (checked as by `verify-ca` when `sslrootcert` is
 *   given, as libpq does); `no-verify`: TLS, never checked;
 * - `verify-ca`: TLS, the certificate signed by `sslrootcert` (a PEM file; `system`, or none:
 *   the CAs Node trusts), any host name;
 * - `verify-full`: as verify-ca, and the certificate names the host.
 * `prefer` and `allow` are refused: they fall back to plain text when the server (or anyone on
 * the way) says it has no TLS. `sslcert` / `sslkey`: a client certificate. `options`: startup
 * options, added to Tollgate's own. `connect_timeout`: seconds to connect (both drivers; 10 by
 * default). `application_name` is taken and not used: Tollgate names its sessions by role
 * (tollgate, tollgate-api, tollgate-worker, …) for a DBA to tell them apart. Any other query key
 * is refused, named.
 */

export interface DatabaseConnection {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string | undefined;
  /** What both drivers give tls.connect; false: no TLS. */
  ssl: false | ConnectionOptions;
  /** The URL's `options` (e.g. `-c search_path=app`, a proxy's `endpoint=…`), if any. */
  options: string | undefined;
  /** The URL's `connect_timeout` in seconds (libpq's), if any. */
  connectTimeoutS: number | undefined;
}

export class DatabaseUrlError extends Error {
  constructor(message: string) {
    super(`DATABASE_URL: ${message}`);
    this.name = 'DatabaseUrlError';
  }
}

const SSL_MODES = ['disable', 'require', 'no-verify', 'verify-ca', 'verify-full'] as const;
const QUERY_KEYS = [
  'sslmode',
  'sslrootcert',
  'sslcert',
  'sslkey',
  'options',
  'connect_timeout',
  'application_name',
];

/**
 * The URL's parts, checked, without reading any file (config loading): throws DatabaseUrlError
 * naming what is wrong, never the password.
 */
export function checkDatabaseUrl(url: string): void {
  parse(url);
}

function parse(url: string): { u: URL; mode: (typeof SSL_MODES)[number] } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new DatabaseUrlError(
      'not a URL (postgres://user:password@host:port/database?sslmode=…; one host)',
    );
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:')
    throw new DatabaseUrlError(`must be postgres:// or postgresql://, not ${u.protocol}//`);
  if (!u.hostname) throw new DatabaseUrlError('names no host');
  // postgres.js splits its host at colons: an IPv6 address reaches it as its first group.
  if (u.hostname.startsWith('['))
    throw new DatabaseUrlError('an IPv6 address is not taken as the host: use a host name for it');
  for (const key of u.searchParams.keys())
    if (!QUERY_KEYS.includes(key))
      throw new DatabaseUrlError(
        `the query key ${key} is not taken (these are: ${QUERY_KEYS.join(', ')})`,
      );
  const given = u.searchParams.get('sslmode') ?? 'disable';
  if (given === 'prefer' || given === 'allow')
    throw new DatabaseUrlError(
      `sslmode=${given} falls back to plain text when the server, or anyone on the way, says it has no TLS: use require (encrypted), verify-ca or verify-full (encrypted, the certificate checked), or disable`,
    );
  const mode = SSL_MODES.find((m) => m === given);
  if (!mode)
    throw new DatabaseUrlError(
      `sslmode=${given} is not one of ${SSL_MODES.join(', ')} (prefer and allow are refused)`,
    );
  if (mode === 'disable' && ['sslrootcert', 'sslcert', 'sslkey'].some((k) => u.searchParams.has(k)))
    throw new DatabaseUrlError(
      'sslrootcert, sslcert and sslkey need an sslmode other than disable',
    );
  if (u.searchParams.has('sslcert') !== u.searchParams.has('sslkey'))
    throw new DatabaseUrlError('sslcert and sslkey go together');
  const timeout = u.searchParams.get('connect_timeout');
  if (timeout !== null && !/^[1-9]\d{0,3}$/.test(timeout))
    throw new DatabaseUrlError('connect_timeout must be whole seconds, 1 to 9999');
  return { u, mode };
}

function readPem(u: URL, key: string): string {
  const path = u.searchParams.get(key)!;
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new DatabaseUrlError(
      `${key}=${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
}

const known = new Map<string, DatabaseConnection>();

/** The parts of DATABASE_URL both drivers are given (files read once per URL). */
export function databaseConnection(url: string): DatabaseConnection {
  const kept = known.get(url);
  if (kept) return kept;
  const { u, mode } = parse(url);
  const host = u.hostname;
  const rootCert = u.searchParams.get('sslrootcert');
  const ca = rootCert && rootCert !== 'system' ? readPem(u, 'sslrootcert') : undefined;
  const checked =
    mode === 'verify-ca' || mode === 'verify-full' || (mode === 'require' && rootCert !== null);
  const ssl: false | ConnectionOptions =
    mode === 'disable'
      ? false
      : {
          rejectUnauthorized: checked,
          // The host the certificate must name: postgres.js gives tls.connect no host for an IP
          // address (it would check the name against "localhost").
          host,
          ...(ca ? { ca } : {}),
          ...(checked && mode !== 'verify-full' ? { checkServerIdentity: () => undefined } : {}),
          ...(u.searchParams.has('sslcert')
            ? { cert: readPem(u, 'sslcert'), key: readPem(u, 'sslkey') }
            : {}),
        };
  const user = decodeURIComponent(u.username);
  const connection: DatabaseConnection = {
    host,
    port: u.port ? Number(u.port) : 5432,
    database: decodeURIComponent(u.pathname.slice(1)) || user || 'postgres',
    user: user || 'postgres',
    password: u.password ? decodeURIComponent(u.password) : undefined,
    ssl,
    options: u.searchParams.get('options') ?? undefined,
    connectTimeoutS: u.searchParams.has('connect_timeout')
      ? Number(u.searchParams.get('connect_timeout'))
      : undefined,
  };
  known.set(url, connection);
  return connection;
}

/**
 * A node-postgres pool's or client's connection: the URL's parts, with `ours` (startup options
 * Tollgate's sessions need) and the URL's `options` both applied.
 */
export function nodePgConnection(
  url: string,
  ours?: string,
): Omit<DatabaseConnection, 'options' | 'connectTimeoutS'> & {
  options?: string;
  connectionTimeoutMillis?: number;
} {
  const c = databaseConnection(url);
  const options = [ours, c.options].filter(Boolean).join(' ');
  return {
    host: c.host,
    port: c.port,
    database: c.database,
    user: c.user,
    password: c.password,
    ssl: c.ssl,
    ...(options ? { options } : {}),
    ...(c.connectTimeoutS !== undefined
      ? { connectionTimeoutMillis: c.connectTimeoutS * 1000 }
      : {}),
  };
}
