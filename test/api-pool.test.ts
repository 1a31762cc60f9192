/**
 * The API's requests run on a pool of their own (src/appliance.ts): in one process with the
 * indexer and the worker (`tollgate start`, the Docker image's command), requests waiting on the
 * database must not take the connections those need. Made here with a table the API reads and
 * neither of the others touches (the VASP directory) locked by another session, as a DBA's
 * maintenance or a long transaction would: more requests than the API's pool has connections
 * wait on it, and meanwhile a transfer to a streamed address is stored and delivered. The
 * statements of those requests are cancelled by the server at the request deadline (the API's
 * sessions' statement_timeout) instead of waiting on for as long as the lock is held.
 */
import { parseEther } from 'viem';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiStatementTimeoutMs } from '../src/db/time-limits.js';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { fundedWallet, randomAddress } from './helpers/chain.js';
import { freshDatabase, setDatabaseDefaults, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { call, type Reply } from './helpers/http.js';
import { Receiver } from './helpers/receiver.js';

// Long enough for every request to be waiting at once on a machine busy with other test files;
// the queued ones wait a deadline more before their statement is sent and cancelled.
const DEADLINE_MS = 8_000;
/** The API's pool, as configured (TOLLGATE_API_DATABASE_POOL_MAX), and more requests than that. */
const API_POOL = 4;
const REQUESTS = 7;

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let receiver: Receiver;

beforeAll(async () => {
  db = await freshDatabase();
  app = await startTestAppliance(db.url, {
    TOLLGATE_REQUEST_TIMEOUT_MS: String(DEADLINE_MS),
    TOLLGATE_API_DATABASE_POOL_MAX: String(API_POOL),
    TOLLGATE_RATE_LIMIT_PER_MINUTE: '0',
  });
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await app?.stop();
  await receiver?.stop();
  await db?.drop();
});

/** The sessions whose statement waits for a lock (only the API's requests do here), by name. */
const waitingStatements = () =>
  db.sql<{ application_name: string }[]>`
    select application_name from pg_stat_activity
    where datname = current_database() and state = 'active' and wait_event_type = 'Lock'`;

describe('the API’s pool, beside the indexer and the worker in one process', () => {
  it('leaves them their connections: a stream event is delivered while every API request waits on the database', async () => {
    const key = await createApiKey(db.sql, 'pool');
    const to = randomAddress();
    const created = await call(app.baseUrl, 'POST', '/v2/stream/create', {
      headers: { apikey: key.apikey },
      body: { address: to, webhook: receiver.url },
    });
    expect(created.status).toBe(200);
    const w = await fundedWallet();

    // The lock is held until the test lets it go.
    const admin = postgres(db.url, { max: 1, onnotice: () => {} });
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const held = admin.begin(async (tx) => {
      await tx`lock table vasps in access exclusive mode`;
      locked();
      await released;
    });
    try {
      await isLocked;
      const replies: Promise<Reply>[] = [];
      for (let i = 0; i < REQUESTS; i++)
        replies.push(
          call(app.baseUrl, 'GET', '/v2/travelrule/list_vasps', {
            headers: { apikey: key.apikey },
          }),
        );
      // Every connection of the API's pool waits on the lock (the rest of the requests queue).
      const waiting = await eventually(
        waitingStatements,
        (rows) => rows.length === API_POOL,
        30_000,
      );
      expect(waiting.map((r) => r.application_name)).toEqual(Array(API_POOL).fill('tollgate-api'));

      const sent = await w.send(to, parseEther('0.01'));
      const delivered = await receiver.waitFor(
        (all) => all.some((r) => r.json?.tx?.hash === sent.transactionHash),
        30_000,
      );
      expect(delivered.length).toBeGreaterThan(0);

      // Each request is answered 503 by its deadline, as the spec's error, and its statement does
      // not wait on: the server cancels it (statement_timeout), the queued ones' too, while the
      // lock is still held.
      for (const reply of await Promise.all(replies)) {
        expect(reply.status).toBe(503);
        expect(reply.json).toMatchObject({ code: 5030 });
        expect(reply.headers['retry-after']).toBeDefined();
        expect(reply.text).not.toMatch(/statement|canceling|postgres/i);
      }
      expect(await eventually(waitingStatements, (rows) => rows.length === 0, 60_000)).toEqual([]);
      expect(
        await db.sql`select 1 from pg_locks where relation = 'vasps'::regclass and granted and mode = 'AccessExclusiveLock'`,
      ).toHaveLength(1);
    } finally {
      release();
      await held;
      await admin.end();
    }
    // And the API answers again once the table is free.
    const after = await call(app.baseUrl, 'GET', '/v2/travelrule/list_vasps', {
      headers: { apikey: key.apikey },
    });
    expect(after.status).toBe(200);
  }, 180_000);

  it('keeps a DBA’s lower statement_timeout, and otherwise uses the request deadline', async () => {
    const other = await freshDatabase();
    try {
      expect(await apiStatementTimeoutMs(other.sql, 20_000)).toBe(20_000);
      for (const [database, expected] of [
        ['1500', 1_500],
        ['60s', 20_000],
        ['0', 20_000],
      ] as const) {
        await setDatabaseDefaults(other.sql, other.url, { statement_timeout: database });
        const fresh = postgres(other.url, { max: 1, onnotice: () => {} });
        try {
          expect(await apiStatementTimeoutMs(fresh, 20_000), database).toBe(expected);
        } finally {
          await fresh.end();
        }
      }
    } finally {
      await other.drop();
    }
  });
});
