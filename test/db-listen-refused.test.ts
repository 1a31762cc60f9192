/**
 * A LISTEN connection (postgres.js `sql.listen`: the dispatcher's and the API key cache's) that
 * the server refuses when it is opened again (53300: no free slot, as when another application
 * took them all, or a role's CONNECTION LIMIT) is tried again after a pause (src/db/index.ts,
 * RECONNECT_MIN_PAUSE_S), and listens again once it is let in. postgres.js opens it again as soon
 * as it closes, and a refused connection closes cleanly, so its own pause never grew: the
 * fault suite's worker opened about a hundred connections a second for as long as the server
 * was full (test/faults/postgres-connections-exhausted.test.ts).
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPool, RECONNECT_MIN_PAUSE_S } from '../src/db/index.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

/** A TCP relay to `host:port` that counts the connections opened through it. */
async function countingRelay(host: string, port: number) {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((client) => {
    connections++;
    const upstream = net.connect(port, host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    get connections() {
      return connections;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

it('tries a LISTEN connection the server refuses again after a pause, then listens again', async () => {
  const role = `tollgate_listener_${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  // A role of its own (not a superuser, whom no CONNECTION LIMIT binds): the server refuses it
  // alone, and the test's own pool goes on.
  await db.sql.unsafe(`create role ${role} login password '${password}'`);
  const target = new URL(db.url);
  const relay = await countingRelay(target.hostname, Number(target.port || 5432));
  const url = Object.assign(new URL(db.url), {
    username: role,
    password,
    hostname: '127.0.0.1',
    port: String(relay.port),
  }).toString();
  const sql = openPool(url, { max: 1, application: 'tollgate-listen-refused' });
  try {
    const heard: string[] = [];
    await sql.listen('listen_refused', (payload) => heard.push(payload));
    // From now on the server refuses the role (53300 "too many connections"), and its session ends.
    await db.sql.unsafe(`alter role ${role} connection limit 0`);
    const before = relay.connections;
    await db.sql`select pg_terminate_backend(pid) from pg_stat_activity where usename = ${role}`;
    const watchMs = 2000;
    await new Promise((r) => setTimeout(r, watchMs));
    const tries = relay.connections - before;
    expect(tries, 'connections tried while the server refused them').toBeGreaterThan(0);
    // At most one per pause (a slow machine tries fewer, never more).
    expect(tries).toBeLessThanOrEqual(Math.floor(watchMs / (RECONNECT_MIN_PAUSE_S * 1000)) + 1);

    await db.sql.unsafe(`alter role ${role} connection limit -1`);
    const back = await eventually(
      async () => {
        await db.sql`select pg_notify('listen_refused', 'back')`;
        return heard;
      },
      (h) => h.includes('back'),
      15_000,
    );
    expect(back).toContain('back');
  } finally {
    await sql.end({ timeout: 1 });
    await db.sql`select pg_terminate_backend(pid) from pg_stat_activity where usename = ${role}`;
    await db.sql.unsafe(`drop role if exists ${role}`);
    await relay.close();
  }
});
