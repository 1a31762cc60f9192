import { type Db, settingMs } from './index.js';

/**
 * The time limits a DBA may set for the server, the database or Tollgate's role that would cancel
 * a migration taking longer (an index built on a large table, or waiting for another process's
 * migration under their lock): every start would stop there. Migrations run without them.
 * `lock_timeout` is kept: a migration that waits too long for a busy table fails, and the next
 * start tries again. (transaction_timeout is Postgres 17+: a setting the server lacks is left
 * out.)
 */
export const MIGRATION_UNLIMITED = ['statement_timeout', 'transaction_timeout'];

/** Lifts MIGRATION_UNLIMITED for the transaction it runs in. */
export async function withoutTimeLimits(tx: Db): Promise<void> {
  await tx`select set_config(name, '0', true) from pg_settings where name = any(${MIGRATION_UNLIMITED}::text[])`;
}

/**
 * The `statement_timeout` of the API's sessions: the request deadline, past which the request was
 * answered 503 and nobody waits for the statement, or the database's own when that is set and
 * lower (a DBA's limit is never raised).
 */
export async function apiStatementTimeoutMs(sql: Db, requestTimeoutMs: number): Promise<number> {
  const database = await settingMs(sql, 'statement_timeout');
  return database > 0 ? Math.min(database, requestTimeoutMs) : requestTimeoutMs;
}
