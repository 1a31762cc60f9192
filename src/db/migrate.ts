import { readdirSync, readFileSync } from 'node:fs';
import { projectPath } from '../paths.js';
import { Logger, runMigrations } from 'graphile-worker';
import pg from 'pg';
import { nodePgConnection } from '../config/database-url.js';
import { nodePgOptions, type Sql } from './index.js';
import { MIGRATION_UNLIMITED, withoutTimeLimits } from './time-limits.js';
import { ensureReferenceSearchIndex } from './reference-search.js';
import { describeError, PermanentError } from '../errors.js';
import { log } from '../log.js';
import { isDatabaseOutage } from './unavailable.js';

/**
 * Applies the numbered, forward-only migrations in sql/ (NNNN_name.sql), each in its own
 * transaction, under an advisory lock so that several processes starting at once are safe;
 * then graphile-worker's own migrations. None of them under a DBA's time limits
 * (MIGRATION_UNLIMITED).
 */
/**
 * The database was migrated by a newer Tollgate than this one: this version would run on a schema
 * it was not written for (an older version started after an upgrade, or beside a newer one, served
 * on it with no word; found by an outside probe).
 */
export class DatabaseNewerError extends PermanentError {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseNewerError';
  }
}

export async function migrate(sql: Sql, databaseUrl: string): Promise<{ applied: string[] }> {
  const dir = projectPath('sql');
  const files = readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort();
  const applied: string[] = [];
  await sql.begin(async (tx) => {
    await withoutTimeLimits(tx);
    await tx`create table if not exists tollgate_migrations (
      id int primary key, name text not null, applied_at timestamptz not null default now())`;
  });
  // An id past this version's last file is a newer version's. (An id below it without a file is
  // a migration taken back in a later version, such as 0051: not a newer schema.)
  const last = files[files.length - 1]!;
  const [ahead] = await sql<{ name: string }[]>`
    select name from tollgate_migrations where id > ${Number(last.slice(0, 4))} order by id desc limit 1`;
  if (ahead)
    throw new DatabaseNewerError(
      `the database was migrated by a newer Tollgate (its newest migration is ${ahead.name}; this version knows up to ${last}): run that version or a newer one, or restore the database as it was before the upgrade`,
    );
  for (const file of files) {
    const id = Number(file.slice(0, 4));
    await sql.begin(async (tx) => {
      await withoutTimeLimits(tx);
      await tx`select pg_advisory_xact_lock(hashtext('tollgate_migrate'))`;
      const [done] = await tx`select 1 from tollgate_migrations where id = ${id}`;
      if (done) return;
      await tx.unsafe(readFileSync(`${dir}/${file}`, 'utf8'));
      await tx`insert into tollgate_migrations (id, name) values (${id}, ${file})`;
      applied.push(file);
    });
  }
  // graphile-worker's migrations, on a connection of their own whose session has no time limits
  // from its start.
  const pgPool = new pg.Pool({
    ...nodePgConnection(databaseUrl, await nodePgOptions(sql, MIGRATION_UNLIMITED)),
    max: 1,
  });
  // A connection the server drops is logged (graphile-worker's migration then fails, and the
  // start with it); without these listeners graphile-worker installs its own and prints a warning.
  pgPool.on('error', (err) =>
    log.warn({ error: describeError(err) }, 'migration database connection lost'),
  );
  pgPool.on('connect', (client) =>
    client.on('error', (err) =>
      log.warn({ error: describeError(err) }, 'migration database connection failed'),
    ),
  );
  try {
    await runMigrations({ pgPool, logger: quietGraphileLogger });
  } finally {
    await pgPool.end();
  }
  if (applied.length) log.info({ applied }, 'migrations applied');
  await ensureReferenceSearchIndex(sql);
  return { applied };
}

/**
 * What graphile-worker logs as an error but tries again by itself: its database connection lost
 * or refused (a restart, a full server) is waited out like the rest of Tollgate's, which logs
 * that as a warning. An error-level line is kept for what needs someone.
 */
const GRAPHILE_RETRIES_ITSELF = [
  'Error with notify listener (trying again',
  // Its listener's connection failed: the UNLISTEN on it fails too (ignored; it connects anew).
  'Error occurred attempting to UNLISTEN',
  'Error occurred fetching jobs; will try again',
  "Failed to reset locked; we'll try again",
  'PostgreSQL idle client generated error',
  'PostgreSQL active client generated error',
  'Cron hit an error; restarting',
];

/**
 * What ends graphile-worker's pool: an outcome batch it could not record (graphile/worker#636: not
 * retried) or a worker of it failing. Caused by the database (lost, refused, full), it is waited
 * out too: startWorker starts a new pool, and the jobs whose outcome was not recorded run again.
 */
const GRAPHILE_POOL_ENDS = [
  'Failed to complete jobs',
  'Failed to fail jobs',
  'Worker exited with error',
];

/** The level Tollgate logs a graphile-worker line at; `cause` is the error the line is about. */
export function graphileLogLevel(
  level: string,
  message: string,
  cause?: unknown,
): 'error' | 'warn' | 'debug' {
  // A failed attempt is expected (a receiver down); the task logs it itself, without a stack.
  if (level === 'error' && message.startsWith('Failed task')) return 'debug';
  if (level === 'error') {
    if (GRAPHILE_RETRIES_ITSELF.some((p) => message.startsWith(p))) return 'warn';
    if (GRAPHILE_POOL_ENDS.some((p) => message.startsWith(p)) && isDatabaseOutage(cause))
      return 'warn';
    return 'error';
  }
  return level === 'warning' ? 'warn' : 'debug';
}

/** graphile-worker's logs routed into pino, at debug below warnings. */
export const quietGraphileLogger = new Logger(() => (level, message, meta) => {
  const entry = {
    graphile_worker: true,
    ...(meta?.job ? { job_id: String((meta.job as { id?: unknown }).id) } : {}),
  };
  const at = graphileLogLevel(level, message, meta?.fatalError ?? meta?.error);
  log[at](entry, message.startsWith('Failed task') ? message.split('\n')[0] : message);
});
