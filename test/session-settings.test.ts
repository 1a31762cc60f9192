import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPool, SESSION_SETTING_OPTIONS } from '../src/db/index.js';
import { createApiKey } from '../src/keys/keys.js';
import { createOperator } from '../src/operators/operators.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, setDatabaseDefaults, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { travelBody } from './helpers/travelrule.js';

/**
 * A database whose DBA chose other session defaults (for the server, the database or Tollgate's
 * role): dates in SQL style with the day first, bytea as escape strings, intervals in SQL
 * standard style, SERIALIZABLE transactions. Tollgate reads what it stored as it stored it, and
 * its transactions are READ COMMITTED unless they ask for more: its sessions ask for the settings
 * its code is written for, at connection start (postgres.js and node-postgres alike).
 */

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;

beforeAll(async () => {
  db = await freshDatabase();
  await setDatabaseDefaults(db.sql, db.url, {
    datestyle: 'SQL, DMY',
    bytea_output: 'escape',
    intervalstyle: 'sql_standard',
    default_transaction_isolation: 'serializable',
  });
}, 60_000);
afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

it("reads timestamps, dates, bytea and intervals as stored, and runs READ COMMITTED, whatever the database's defaults", async () => {
  const sql = openPool(db.url, { max: 1 });
  try {
    const [row] = await sql<[{ t: Date; d: Date; b: Buffer; i: string; style: string }]>`
      select timestamptz '2026-11-28 03:40:00.123+00' as t, date '2026-01-02' as d,
        '\\x0102ff'::bytea as b, interval '1 day 2 hours' as i,
        current_setting('datestyle') as style`;
    expect(row.t.toISOString()).toBe('2026-11-28T03:40:00.123Z');
    expect(row.d.toISOString()).toBe('2026-01-02T00:00:00.000Z');
    expect([...row.b]).toEqual([1, 2, 255]);
    expect(row.i).toBe('1 day 02:00:00');
    expect(row.style).toBe('ISO, MDY');
    const isolation = await sql.begin(
      (tx) => tx<[{ level: string }]>`select current_setting('transaction_isolation') as level`,
    );
    expect(isolation[0].level).toBe('read committed');
  } finally {
    await sql.end();
  }
  // node-postgres (graphile-worker's pool) with the same settings as startup options.
  const pool = new pg.Pool({ connectionString: db.url, max: 1, options: SESSION_SETTING_OPTIONS });
  try {
    const { rows } = await pool.query(`select current_setting('datestyle') as style,
      current_setting('bytea_output') as bytea, current_setting('intervalstyle') as interval,
      current_setting('default_transaction_isolation') as isolation`);
    expect(rows[0]).toEqual({
      style: 'ISO, MDY',
      bytea: 'hex',
      interval: 'postgres',
      isolation: 'read committed',
    });
  } finally {
    await pool.end();
  }
});

it('stores a travel rule transaction and shows it to an operator, decrypted, with its times', async () => {
  app = await startTestAppliance(
    db.url,
    {},
    { api: true, worker: true, indexer: false, devChain: false },
  );
  const { apikey } = await createApiKey(db.sql, 'backend');
  const op = await createOperator(db.sql, 'vera.viewer', 'viewer');
  const viewer = {
    authorization: 'Basic ' + Buffer.from(`${op.login}:${op.password}`).toString('base64'),
  };
  const created = await call(app.baseUrl, 'POST', '/v2/travelrule/create_tx', {
    headers: { apikey },
    body: travelBody('formats-1'),
  });
  expect(created.json).toEqual({ code: 0, message: 'OK', data: 'PENDING' });
  const [{ id }] = await db.sql<[{ id: string }]>`
    select id from travelrule_transactions where transaction_ref = 'formats-1'`;
  const detail = await call(app.baseUrl, 'GET', `/ops/travelrule/transactions/${id}`, {
    headers: viewer,
  });
  expect(detail.status).toBe(200);
  expect(
    detail.json.data.ivms101.originator.persons[0].naturalPerson.name.nameIdentifier[0]
      .primaryIdentifier,
  ).toBe('Quennellworth');
  const times = JSON.stringify(detail.json).match(/"\w+_at":"[^"]*"/g) ?? [];
  expect(times.length).toBeGreaterThan(0);
  for (const t of times) expect(t).toMatch(/"\w+_at":"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
});
