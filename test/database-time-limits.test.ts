import { readdirSync } from 'node:fs';
import { afterAll, afterEach, expect, inject, it, vi } from 'vitest';
import { openPool } from '../src/db/index.js';
import { migrate } from '../src/db/migrate.js';
import { createApiKey } from '../src/keys/keys.js';
import { log } from '../src/log.js';
import { projectPath } from '../src/paths.js';
import { API_ONLY, startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, setDatabaseDefaults, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { withDatabase } from './helpers/urls.js';

/**
 * A database whose DBA limits statements and transactions (`statement_timeout`, `lock_timeout`,
 * `transaction_timeout`, for the server, the database or Tollgate's role). Migrations run without
 * the time limits (an index on a large table may take minutes; a start waiting for another
 * process's migration waits as long as it takes); a request whose statement the database
 * cancels is a 503 with the spec's error shape, said as the database's doing in the log.
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

const adminUrl = () => inject('pgAdminUrl');

it('migrates an empty database whose statements and transactions are limited, waiting for another start past the limits', async () => {
  const name = `t_limits_${Date.now().toString(36)}`;
  const admin = openPool(adminUrl(), { max: 1 });
  await admin.unsafe(`create database ${name}`);
  cleanups.push(async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  const [{ v }] = await admin<[{ v: number }]>`
    select current_setting('server_version_num')::int as v`;
  const url = withDatabase(adminUrl(), name);
  await setDatabaseDefaults(admin, url, {
    statement_timeout: '400ms',
    ...(v >= 170000 ? { transaction_timeout: '700ms' } : {}),
  });
  // Another process holds the migrations' lock for 1.5 s, as a start migrating beside this one.
  const other = openPool(url, { max: 1 });
  const sql = openPool(url, { max: 2 });
  cleanups.push(async () => {
    await sql.end({ timeout: 1 });
    await other.end({ timeout: 1 });
  });
  await other`select pg_advisory_lock(hashtext('tollgate_migrate'))`;
  let unlocking = false;
  const released = new Promise<void>((resolve) =>
    setTimeout(() => {
      unlocking = true;
      other`select pg_advisory_unlock(hashtext('tollgate_migrate'))`.then(() => resolve());
    }, 1500),
  );
  const { applied } = await migrate(sql, url);
  // It waited for the lock (past both limits) instead of being cancelled.
  expect(unlocking).toBe(true);
  await released;
  const files = readdirSync(projectPath('sql')).filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f));
  expect(applied).toHaveLength(files.length);
  const [{ n }] = await sql<[{ n: number }]>`select count(*)::int as n from tollgate_migrations`;
  expect(n).toBe(files.length);
  expect(await sql`select 1 from graphile_worker.migrations limit 1`).toHaveLength(1);
  // The limits are the DBA's again for everything else.
  const [limits] = await sql<[{ statement: string }]>`
    select current_setting('statement_timeout') as statement`;
  expect(limits.statement).toBe('400ms');
}, 60_000);

/** The API on a database with `setting`, and a request that waits on a table someone locked. */
async function requestBehindALock(setting: Record<string, string>) {
  const db: TestDatabase = await freshDatabase();
  cleanups.push(() => db.drop());
  await setDatabaseDefaults(db.sql, db.url, setting);
  const app = await startTestAppliance(db.url, {}, API_ONLY, { waitForCursors: false });
  cleanups.push(() => app.stop());
  const { apikey } = await createApiKey(db.sql, 'limits');
  const warn = vi.spyOn(log, 'warn');
  const error = vi.spyOn(log, 'error');
  // Held for 2 s by a maintenance job (its own transaction without the limits).
  const holder = openPool(db.url, { max: 1 });
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  const held = holder.begin(async (tx) => {
    await tx`select set_config(name, '0', true) from pg_settings
      where name in ('statement_timeout', 'lock_timeout', 'transaction_timeout')`;
    await tx`lock table tracked_addresses in access exclusive mode`;
    locked();
    await tx`select pg_sleep(2)`;
  });
  await isLocked;
  const reply = await call(app.baseUrl, 'GET', '/v2/stream/list', { headers: { apikey } });
  await held;
  await holder.end();
  // Once the table is free, the same request is answered.
  const after = await call(app.baseUrl, 'GET', '/v2/stream/list', { headers: { apikey } });
  return { reply, after, warn, error };
}

it('answers 503 with Retry-After when the database cancels a request at its statement_timeout', async () => {
  const { reply, after, warn, error } = await requestBehindALock({ statement_timeout: '300ms' });
  expect(reply.status).toBe(503);
  expect(reply.headers['retry-after']).toBe('5');
  expect(reply.json).toMatchObject({ code: 5030 });
  expect(reply.json.message).toMatch(/cannot serve this request now; retry later/);
  expect(reply.text).not.toMatch(/statement timeout|canceling|postgres|57014/i);
  const said = warn.mock.calls.find((c) => String(c[1]).includes('answered 503'));
  expect((said?.[0] as { reason?: string })?.reason).toMatch(/statement_timeout/);
  expect(error).not.toHaveBeenCalled();
  expect(after.status).toBe(200);
}, 60_000);

it('answers 503 with Retry-After when a lock is not granted within the database lock_timeout', async () => {
  const { reply, after, warn, error } = await requestBehindALock({ lock_timeout: '300ms' });
  expect(reply.status).toBe(503);
  expect(reply.headers['retry-after']).toBe('5');
  expect(reply.json).toMatchObject({ code: 5030 });
  expect(reply.text).not.toMatch(/lock timeout|canceling|postgres|55P03/i);
  const said = warn.mock.calls.find((c) => String(c[1]).includes('answered 503'));
  expect((said?.[0] as { reason?: string })?.reason).toMatch(/lock_timeout/);
  expect(error).not.toHaveBeenCalled();
  expect(after.status).toBe(200);
}, 60_000);
