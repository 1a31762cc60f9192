import { within } from '../concurrency.js';
import { PermanentError } from '../errors.js';
import type { Sql } from './index.js';
import { databaseCannotServe } from './unavailable.js';

/** How long the first connection to DATABASE_URL may take before the start gives up, naming it. */
export const REACH_TIMEOUT_MS = 10_000;

/**
 * A database the start cannot use, said in terms of DATABASE_URL (never its password).
 * `transient`: it may serve in a moment (refused or cut while it restarts, fails over or starts
 * up, out of connections, no answer in time); false for what no wait mends (a host not found, a
 * password or database name refused).
 */
export class DatabaseUnreachableError extends PermanentError {
  constructor(
    message: string,
    readonly transient = false,
  ) {
    super(message);
    this.name = 'DatabaseUnreachableError';
  }
}

/** user@host:port/database of a postgres URL, without its password. */
export function describeDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    const user = u.username ? `${decodeURIComponent(u.username)}@` : '';
    return `${user}${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

/** Node's codes for a TLS certificate it does not trust. */
const UNTRUSTED_CERTIFICATE = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
]);

/** Why a first connection failed, in words an operator acts on. */
function reason(err: unknown): string {
  const e = err as { code?: string; message?: string };
  if (e.code && UNTRUSTED_CERTIFICATE.has(e.code))
    return `the server's TLS certificate is not trusted (${e.message}): give its CA with sslrootcert=<PEM file>, or sslmode=require to encrypt without checking it`;
  if (e.code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `the server's TLS certificate does not name this host (${e.message}): use the name it has, or sslmode=verify-ca`;
  if (/before secure TLS connection was established/.test(e.message ?? ''))
    return `the server did not take TLS (${e.message}): turn ssl on in Postgres, or set sslmode=disable`;
  if (e.code === '28000' && /no encryption/.test(e.message ?? ''))
    return `${e.message}: the server takes only encrypted connections here (pg_hba.conf hostssl); add sslmode=require, verify-ca or verify-full`;
  switch (e.code) {
    case 'ECONNREFUSED':
      return 'connection refused (is Postgres running there, on that port?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return `no answer within ${REACH_TIMEOUT_MS / 1000} s (a firewall, a wrong host?)`;
    case '28P01':
    case '28000':
      return `authentication failed: ${e.message}`;
    case '3D000':
      return `${e.message} (create it, or fix the name)`;
    default:
      return e.message ?? String(err);
  }
}

/**
 * Asks the pool just opened on DATABASE_URL for one answer within REACH_TIMEOUT_MS, before
 * anything else uses it: a start against a database it cannot use stops within seconds with a
 * message that names the setting and the cause, instead of waiting on retries. The caller closes
 * the pool when this throws.
 */
export async function checkDatabaseReachable(sql: Sql, url: string): Promise<void> {
  try {
    await within(sql`select 1`, REACH_TIMEOUT_MS, () =>
      Object.assign(new Error('timeout'), { code: 'CONNECT_TIMEOUT' }),
    );
  } catch (err) {
    throw new DatabaseUnreachableError(
      `DATABASE_URL (${describeDatabaseUrl(url)}): ${reason(err)}`,
      databaseCannotServe(err) !== undefined,
    );
  }
}
