import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkDatabaseUrl,
  databaseConnection,
  nodePgConnection,
} from '../../src/config/database-url.js';

const pem = join(mkdtempSync(join(tmpdir(), 'tollgate-db-url-')), 'ca.pem');
writeFileSync(pem, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');

describe('DATABASE_URL', () => {
  it('gives both drivers host, port, database, user, password and options', () => {
    const c = databaseConnection(
      'postgresql://app%40corp:p%3As%2Fs@db.internal:6432/tollgate?options=-c%20search_path%3Dapp',
    );
    expect(c).toMatchObject({
      host: 'db.internal',
      port: 6432,
      database: 'tollgate',
      user: 'app@corp',
      password: 'p:s/s',
      ssl: false,
      options: '-c search_path=app',
    });
    expect(databaseConnection('postgres://bob@db.internal').database).toBe('bob');
    // libpq's connect_timeout for both drivers; application_name taken (sessions are named by role).
    const timed = 'postgres://u@h/d?connect_timeout=7&application_name=dba-view';
    expect(databaseConnection(timed).connectTimeoutS).toBe(7);
    expect(nodePgConnection(timed).connectionTimeoutMillis).toBe(7_000);
    expect(nodePgConnection('postgres://u@h/d?options=-c%20a%3D1', '-c b=2').options).toBe(
      '-c b=2 -c a=1',
    );
  });

  it('means by sslmode what libpq means', () => {
    const ssl = (q: string) => databaseConnection(`postgres://u@db.internal/d?${q}`).ssl;
    expect(ssl('sslmode=disable')).toBe(false);
    expect(ssl('sslmode=require')).toEqual({ rejectUnauthorized: false, host: 'db.internal' });
    expect(ssl('sslmode=no-verify')).toEqual({ rejectUnauthorized: false, host: 'db.internal' });
    // require with a root certificate checks the chain, as verify-ca (libpq).
    const requireCa = ssl(`sslmode=require&sslrootcert=${pem}`);
    expect(requireCa).toMatchObject({
      rejectUnauthorized: true,
      ca: expect.stringContaining('BEGIN'),
    });
    expect(typeof (requireCa as { checkServerIdentity?: unknown }).checkServerIdentity).toBe(
      'function',
    );
    expect(ssl(`sslmode=verify-full&sslrootcert=${pem}`)).toEqual({
      rejectUnauthorized: true,
      host: 'db.internal',
      ca: expect.stringContaining('BEGIN'),
    });
    // system: the CAs Node trusts.
    expect(ssl('sslmode=verify-full&sslrootcert=system')).toEqual({
      rejectUnauthorized: true,
      host: 'db.internal',
    });
  });

  it('refuses what would be taken two ways, or not at all, naming it', () => {
    const refused = (url: string) => () => checkDatabaseUrl(url);
    expect(refused('postgres://u@h/d?sslmode=prefer')).toThrow(/sslmode=prefer falls back/);
    expect(refused('postgres://u@h/d?sslmode=allow')).toThrow(/sslmode=allow falls back/);
    expect(refused('postgres://u@h/d?sslmode=verify')).toThrow(/sslmode=verify is not one of/);
    expect(refused('postgres://u@h/d?connect_timeout=0')).toThrow(/connect_timeout must be/);
    expect(refused('postgres://u@h/d?search_path=x')).toThrow(
      /the query key search_path is not taken/,
    );
    expect(refused('postgres://u@h/d?sslmode=require&sslcert=/c.pem')).toThrow(
      /sslcert and sslkey go together/,
    );
    expect(refused(`postgres://u@h/d?sslrootcert=${pem}`)).toThrow(/need an sslmode/);
    expect(refused('mysql://u@h/d')).toThrow(/must be postgres:\/\//);
    expect(refused('postgres://u@[fd00::5]:5432/d')).toThrow(/an IPv6 address is not taken/);
    expect(refused('not a url')).toThrow(/not a URL/);
    expect(() =>
      databaseConnection('postgres://u@h/d?sslmode=verify-ca&sslrootcert=/nope.pem'),
    ).toThrow('DATABASE_URL: sslrootcert=/nope.pem cannot be read (ENOENT)');
    // Never the password.
    expect(refused('postgres://u:hunter2@h/d?sslmode=prefer')).not.toThrow(/hunter2/);
  });
});
