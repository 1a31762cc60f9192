import type { Config } from '../config/index.js';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './embedded.js';
import { poolIdleTimeoutFor } from './idle-sessions.js';
import { openPool, type Sql } from './index.js';
import { migrate } from './migrate.js';
import { checkDatabaseReachable } from './reach.js';

export interface Database {
  url: string;
  sql: Sql;
  /**
   * Another pool on the same database, with the same idle-session handling, closed with it: the
   * API's, so that requests waiting on the database never hold the connections the indexer and
   * the worker need (src/appliance.ts).
   */
  pool(options: { application: string; max?: number; statementTimeoutMs?: number }): Sql;
  close(): Promise<void>;
}

/** The configured database, or the embedded one in the data dir; migrated. */
export async function openDatabase(
  config: Config,
  opts: { migrate?: boolean; poolMax?: number } = {},
): Promise<Database> {
  let embedded: EmbeddedDatabase | undefined;
  let url = config.database_url;
  if (!url) {
    embedded = await startEmbeddedPostgres(config.data_dir, config.embedded_postgres_port);
    url = embedded.url;
  }
  const max = opts.poolMax ?? config.database_pool_max;
  let sql = openPool(url, { max });
  if (!embedded)
    await checkDatabaseReachable(sql, url).catch(async (err: unknown) => {
      await sql.end({ timeout: 0 }).catch(() => {});
      throw err;
    });
  // A server that closes idle sessions sooner than the pool would: the pool again, closing its
  // idle connections first (idle-sessions.ts).
  let idleTimeoutS: number | undefined;
  try {
    idleTimeoutS = await poolIdleTimeoutFor(sql);
    if (idleTimeoutS !== undefined) {
      await sql.end({ timeout: 5 });
      sql = openPool(url, { max, idleTimeoutS });
    }
    if (opts.migrate !== false) await migrate(sql, url);
  } catch (err) {
    // Nothing left open by a start that failed here (it may be tried again: start-wait.ts).
    await sql.end({ timeout: 0 }).catch(() => {});
    await embedded?.release().catch(() => {});
    throw err;
  }
  const others: Sql[] = [];
  return {
    url,
    sql,
    pool: (options) => {
      const pool = openPool(url, { max, idleTimeoutS, ...options });
      others.push(pool);
      return pool;
    },
    close: async () => {
      await Promise.all([sql, ...others].map((pool) => pool.end({ timeout: 5 })));
      await embedded?.release();
    },
  };
}

/** Runs `fn` with the database open (a CLI command), closing it afterwards whatever happens. */
export async function withDatabase<T>(config: Config, fn: (sql: Sql) => Promise<T>): Promise<T> {
  const db = await openDatabase(config);
  try {
    return await fn(db.sql);
  } finally {
    await db.close();
  }
}
