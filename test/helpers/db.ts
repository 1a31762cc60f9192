import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { openPool, type Sql } from '../../src/db/index.js';
import { withDatabase } from './urls.js';

export interface TestDatabase {
  url: string;
  sql: Sql;
  drop(): Promise<void>;
}

/** A fresh database cloned from the migrated template: each test file gets its own. */
export async function freshDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('pgAdminUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = openPool(adminUrl, { max: 1 });
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.unsafe(`create database ${name} template ${inject('templateDb')}`);
      break;
    } catch (err) {
      if (attempt >= 10) throw err;
      await new Promise((r) => setTimeout(r, 200 + attempt * 100)); // the template is busy with another clone
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
