import {
  appendFileSync,
  chmodSync,
  chownSync,
  mkdtempSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodePgConnection } from '../src/config/database-url.js';
import { loadConfig } from '../src/config/index.js';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../src/db/embedded.js';
import { openPool } from '../src/db/index.js';
import { makeDevCa, makeDevCertificate } from '../src/net/tls-certs.js';
import { runCli } from './helpers/cli.js';
import { freshDatabase } from './helpers/db.js';

/**
 * DATABASE_URL with TLS and startup options, read the same way by both drivers Tollgate uses
 * (postgres.js for its pools, node-postgres for graphile-worker's pool and migrations and the
 * lock sessions), against a real Postgres serving TLS with a certificate of a CA of its own for
 * 127.0.0.1: sslmode require, verify-ca and verify-full with sslrootcert, a certificate not
 * trusted or naming another host, the URL's options beside Tollgate's own, and `tollgate migrate`
 * (both drivers) over verify-full.
 */

const dir = mkdtempSync(join(tmpdir(), 'tollgate-db-tls-'));
chmodSync(dir, 0o711);
let db: EmbeddedDatabase | undefined;
let plain = '';
let caFile = '';

beforeAll(async () => {
  // A Postgres of this file's own, started once to exist, then again with TLS on.
  await (await startEmbeddedPostgres(dir)).stop();
  const data = join(dir, 'postgres');
  const ca = await makeDevCa();
  const server = await makeDevCertificate(ca, { hosts: ['127.0.0.1'] });
  const owner = statSync(join(data, 'PG_VERSION'));
  for (const [name, pem] of [
    ['server.crt', server.cert],
    ['server.key', server.key],
  ] as const) {
    writeFileSync(join(data, name), pem, { mode: 0o600 });
    chownSync(join(data, name), owner.uid, owner.gid);
  }
  appendFileSync(
    join(data, 'postgresql.conf'),
    "\nssl = on\nssl_cert_file = 'server.crt'\nssl_key_file = 'server.key'\n",
  );
  caFile = join(mkdtempSync(join(tmpdir(), 'tollgate-db-ca-')), 'ca.pem');
  writeFileSync(caFile, ca.cert);
  db = await startEmbeddedPostgres(dir);
  plain = db.url;
}, 120_000);

afterAll(async () => {
  await db?.stop();
});

const withQuery = (url: string, query: string) => `${url}?${query}`;

/** One session through each driver: whether it is encrypted, and the settings asked for. */
async function sessions(url: string): Promise<{ postgresJs: Session; nodePg: Session }> {
  const sql = openPool(url, { max: 1, statementTimeoutMs: 4321 });
  try {
    const [a] = await sql<Session[]>`
      select s.ssl, current_setting('work_mem') as work_mem,
             current_setting('statement_timeout') as statement_timeout
      from pg_stat_ssl s where s.pid = pg_backend_pid()`;
    const client = new pg.Client(nodePgConnection(url, '-c statement_timeout=4242'));
    await client.connect();
    try {
      const { rows } = await client.query<Session>(
        `select s.ssl, current_setting('work_mem') as work_mem,
                current_setting('statement_timeout') as statement_timeout
         from pg_stat_ssl s where s.pid = pg_backend_pid()`,
      );
      return { postgresJs: a!, nodePg: rows[0]! };
    } finally {
      await client.end();
    }
  } finally {
    await sql.end({ timeout: 1 });
  }
}
interface Session {
  ssl: boolean;
  work_mem: string;
  statement_timeout: string;
}

/** The error each driver meets, or undefined when it connects. */
async function failures(url: string): Promise<(string | undefined)[]> {
  const sql = openPool(url, { max: 1 });
  const viaPostgresJs = await sql`select 1`.then(() => undefined).catch((e: Error) => e.message);
  await sql.end({ timeout: 1 });
  const client = new pg.Client(nodePgConnection(url));
  const viaNodePg = await client
    .connect()
    .then(() => undefined)
    .catch((e: Error) => e.message);
  await client.end().catch(() => {});
  return [viaPostgresJs, viaNodePg];
}

describe('DATABASE_URL over TLS, one meaning for both drivers', () => {
  it('encrypts with sslmode=require, checking nothing; checks the CA and the host with verify-full', async () => {
    for (const query of [
      'sslmode=require',
      'sslmode=require&connect_timeout=5&application_name=dba-view',
      'sslmode=no-verify',
      `sslmode=verify-ca&sslrootcert=${encodeURIComponent(caFile)}`,
      `sslmode=verify-full&sslrootcert=${encodeURIComponent(caFile)}`,
    ]) {
      const s = await sessions(withQuery(plain, query));
      expect(s.postgresJs, query).toMatchObject({ ssl: true, statement_timeout: '4321ms' });
      expect(s.nodePg, query).toMatchObject({ ssl: true, statement_timeout: '4242ms' });
    }
    const none = await sessions(plain);
    expect([none.postgresJs.ssl, none.nodePg.ssl]).toEqual([false, false]);
  });

  it('refuses a certificate its CA did not sign, or that names another host', async () => {
    // Node's own CAs do not know this one.
    for (const message of await failures(withQuery(plain, 'sslmode=verify-full')))
      expect(message).toMatch(/self.signed|unable to (get|verify)/i);
    // Signed by the CA, but for 127.0.0.1, not localhost: verify-ca takes it, verify-full not.
    const byName = plain.replace('@127.0.0.1:', '@localhost:');
    const ca = `sslrootcert=${encodeURIComponent(caFile)}`;
    expect(await failures(withQuery(byName, `sslmode=verify-ca&${ca}`))).toEqual([
      undefined,
      undefined,
    ]);
    for (const message of await failures(withQuery(byName, `sslmode=verify-full&${ca}`)))
      expect(message).toMatch(/localhost|altnames|Hostname/i);
  });

  it("applies the URL's options beside Tollgate's own session settings", async () => {
    const s = await sessions(
      withQuery(plain, `sslmode=require&options=${encodeURIComponent('-c work_mem=7MB')}`),
    );
    expect(s.postgresJs).toMatchObject({ work_mem: '7MB', statement_timeout: '4321ms' });
    expect(s.nodePg).toMatchObject({ work_mem: '7MB', statement_timeout: '4242ms' });
  });

  it('migrates over verify-full (both drivers), and refuses prefer, unknown keys and a CA file it cannot read, naming them', async () => {
    const url = withQuery(plain, `sslmode=verify-full&sslrootcert=${encodeURIComponent(caFile)}`);
    const run = runCli(url, ['migrate']);
    expect(await run.exited, run.err()).toBe(0);

    expect(() => loadConfig({ DATABASE_URL: withQuery(plain, 'sslmode=prefer') })).toThrow(
      /DATABASE_URL: sslmode=prefer falls back to plain text/,
    );
    expect(() => loadConfig({ DATABASE_URL: withQuery(plain, 'sslmod=require') })).toThrow(
      /DATABASE_URL: the query key sslmod is not taken/,
    );
    const missing = runCli(withQuery(plain, 'sslmode=verify-full&sslrootcert=/no/such/ca.pem'), [
      'migrate',
    ]);
    expect(await missing.exited).toBe(1);
    expect(missing.err()).toContain('DATABASE_URL: sslrootcert=/no/such/ca.pem cannot be read');
    expect(missing.err()).not.toContain(new URL(plain).password);
  });
});

describe('DATABASE_URL and TLS: what a start says when they do not agree', () => {
  /** `tollgate migrate` on `url`: its exit code and its one line of failure. */
  const migrate = async (url: string) => {
    const run = runCli(url, ['migrate']);
    return { code: await run.exited, err: run.err() };
  };

  it('names the setting to change: TLS asked of a server without it, a CA not given, TLS refused', async () => {
    const plainDb = await freshDatabase();
    try {
      const r = await migrate(withQuery(plainDb.url, 'sslmode=require'));
      expect(r.code).toBe(1);
      expect(r.err).toContain('the server did not take TLS');
      expect(r.err).toContain('set sslmode=disable');
    } finally {
      await plainDb.drop();
    }
    const unknownCa = await migrate(withQuery(plain, 'sslmode=verify-full'));
    expect(unknownCa.code).toBe(1);
    expect(unknownCa.err).toMatch(
      /the server's TLS certificate is not trusted \(unable to verify the first certificate\): give its CA with sslrootcert=/,
    );

    // The server takes only encrypted connections (pg_hba.conf hostssl), a URL without sslmode.
    const hba = join(dir, 'postgres', 'pg_hba.conf');
    const before = readFileSync(hba, 'utf8');
    writeFileSync(hba, before.replace(/^host(\s)/gm, 'hostssl$1'));
    const sql = openPool(withQuery(plain, 'sslmode=require'), { max: 1 });
    await sql`select pg_reload_conf()`;
    await sql.end({ timeout: 1 });
    try {
      const r = await migrate(plain);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(
        /no encryption: the server takes only encrypted connections here \(pg_hba.conf hostssl\); add sslmode=require/,
      );
      expect(r.err).not.toContain(new URL(plain).password);
    } finally {
      writeFileSync(hba, before);
      const again = openPool(withQuery(plain, 'sslmode=require'), { max: 1 });
      await again`select pg_reload_conf()`;
      await again.end({ timeout: 1 });
    }
  });
});
