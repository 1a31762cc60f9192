import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { openPool, type Sql } from '../../src/db/index.js';
import { withDatabase } from './urls.js';

export interface TestDatabase {
  url: string;
  sql: Sql;
  drop(): Promise<void>;
}

/**
 * Creates database `name` as a copy of `template`, retried while the template is busy (another
 * copy of it under way, or a session of it still open: `beforeEach` runs between tries), and
 * opens a pool on it; `drop` ends the pool and drops the database.
 */
async function createFrom(
  template: string,
  beforeEach: (admin: Sql) => Promise<unknown> = async () => {},
): Promise<TestDatabase> {
  const adminUrl = inject('pgAdminUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = openPool(adminUrl, { max: 1 });
  for (let attempt = 0; ; attempt++) {
    await beforeEach(admin);
    try {
      await admin.unsafe(`create database ${name} template ${template}`);
      break;
    } catch (err) {
      if (attempt >= 10) {
        await admin.end();
        throw err;
      }
      await new Promise((r) => setTimeout(r, 200 + attempt * 100));
    }
  }
  const url = withDatabase(adminUrl, name);
  const sql = openPool(url, { max: 4 });
  return {
    url,
    sql,
    drop: async () => {
      await sql.end({ timeout: 5 });
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** A fresh database cloned from the migrated template: each test file gets its own. */
export function freshDatabase(): Promise<TestDatabase> {
  return createFrom(inject('templateDb'));
}

/**
 * A copy of `source` as it stands now (CREATE DATABASE … TEMPLATE), as a replica that stops
 * following it here would be: every session of the source is closed first (a copy needs none
 * open; its pools reconnect when used next).
 */
export function copyDatabase(source: { url: string }): Promise<TestDatabase> {
  const from = new URL(source.url).pathname.slice(1);
  return createFrom(
    from,
    (admin) =>
      admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${from} and pid <> pg_backend_pid()`,
  );
}

/**
 * Sets defaults for every new session of the database `url` names, as a DBA would (`alter
 * database … set`), through `sql`, a pool on any database of that server.
 */
export async function setDatabaseDefaults(
  sql: Sql,
  url: string,
  settings: Record<string, string>,
): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  for (const [setting, value] of Object.entries(settings))
    await sql.unsafe(`alter database "${name}" set ${setting} = '${value.replace(/'/g, "''")}'`);
}

/**
 * Makes the statistics `session` (a one-connection pool) gathered so far visible to the next read
 * on `reader`: the forced flush happens at the session's next transaction end, and the reader's
 * snapshot of the statistics is dropped.
 */
export async function flushStats(session: Sql, reader: Sql): Promise<void> {
  await session`select pg_stat_force_next_flush()`;
  await session`select 1`;
  await reader`select pg_stat_clear_snapshot()`;
}

/**
 * Rows read by scanning the tables whose name is like `pattern` (a partitioned table's
 * partitions, say), by every session whose statistics were flushed (flushStats).
 */
export async function rowsScanned(reader: Sql, pattern: string): Promise<number> {
  const [r] = await reader<{ n: string }[]>`
    select coalesce(sum(seq_tup_read), 0)::text as n from pg_stat_user_tables where relname like ${pattern}`;
  return Number(r!.n);
}
