import { readdirSync, readFileSync } from 'node:fs';
import { projectPath } from '../paths.js';
import { Logger, runMigrations } from 'graphile-worker';
import pg from 'pg';
import { nodePgConnection } from '../config/database-url.js';
import { nodePgOptions, type Sql } from './index.js';
import { MIGRATION_UNLIMITED, withoutTimeLimits } from './time-limits.js';
import { ensureReferenceSearchIndex } from './reference-search.js';
import { describeError } from '../errors.js';
import { log } from '../log.js';

/**
 * Applies the numbered, forward-only migrations in sql/ (NNNN_name.sql), each in its own
 * transaction, under an advisory lock so that several processes starting at once are safe;
 * then graphile-worker's own migrations. None of them under a DBA's time limits
 * (MIGRATION_UNLIMITED).
 */
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

/** graphile-worker's logs routed into pino, at debug below warnings. */
export const quietGraphileLogger = new Logger(() => (level, message, meta) => {
  const entry = {
    graphile_worker: true,
    ...(meta?.job ? { job_id: String((meta.job as { id?: unknown }).id) } : {}),
  };
  // A failed attempt is expected (a receiver down); the task logs it itself, without a stack.
  if (level === 'error' && message.startsWith('Failed task'))
    log.debug(entry, message.split('\n')[0]);
  else if (level === 'error') log.error(entry, message);
  else if (level === 'warning') log.warn(entry, message);
  else log.debug(entry, message);
});
