/**
 * The start says when the database cannot give a process every connection it may open
 * (src/db/connections.ts): the limits as the database states them to Tollgate's role (the
 * server's slots, the role's and the database's CONNECTION LIMIT, none of which bind a
 * superuser), and the warning of a real `tollgate api` start whose pools exceed them.
 */
import postgres from 'postgres';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionLimits, connectionShortfall } from '../src/db/connections.js';
import { logLines, runCli } from './helpers/cli.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

describe('database connection limits', () => {
  it('names the tightest limit a process would exceed, and nothing when all have room', () => {
    const limits = { server: 97, role: 20, database: 30, superuser: false };
    expect(connectionShortfall(20, limits)).toBeUndefined();
    expect(connectionShortfall(21, limits)).toMatch(
      /^this process may open up to 21 database connections, more than Tollgate's role \(its CONNECTION LIMIT\) allows \(20\): .*TOLLGATE_DATABASE_POOL_MAX/,
    );
    expect(connectionShortfall(98, { ...limits, role: null, database: null })).toMatch(
      /more than the server \(max_connections less its reserved slots\) allows \(97\)/,
    );
    expect(connectionShortfall(31, { ...limits, role: null })).toMatch(
      /more than the database \(its CONNECTION LIMIT\) allows \(30\)/,
    );
  });

  it('reads the limits as the database states them to a role, and a superuser’s', async () => {
    const name = new URL(db.url).pathname.slice(1);
    const role = `tollgate_limited_${randomBytes(4).toString('hex')}`;
    const password = randomBytes(12).toString('hex');
    await db.sql.unsafe(`create role ${role} login password '${password}' connection limit 3`);
    await db.sql.unsafe(`alter database "${name}" connection limit 5`);
    const limited = postgres(
      Object.assign(new URL(db.url), { username: role, password }).toString(),
      { max: 1, onnotice: () => {} },
    );
    try {
      const [settings] = await db.sql<{ max: number; reserved: number }[]>`
        select current_setting('max_connections')::int as max,
          current_setting('superuser_reserved_connections')::int
            + coalesce(nullif(current_setting('reserved_connections', true), '')::int, 0) as reserved`;
      const limits = await connectionLimits(limited);
      expect(limits).toEqual({
        server: settings!.max - settings!.reserved,
        role: 3,
        database: 5,
        superuser: false,
      });
      expect(connectionShortfall(4, limits)).toMatch(/role \(its CONNECTION LIMIT\) allows \(3\)/);
      // A superuser: neither CONNECTION LIMIT binds it, and it may use the reserved slots.
      expect(await connectionLimits(db.sql)).toEqual({
        server: settings!.max,
        role: null,
        database: null,
        superuser: true,
      });
    } finally {
      await limited.end();
      await db.sql.unsafe(`alter database "${name}" connection limit -1`);
      await db.sql.unsafe(`drop role ${role}`);
    }
  });

  it('warns at start when the configured pools exceed what the server allows', async () => {
    const [setting] = await db.sql<{ max: number }[]>`
      select current_setting('max_connections')::int as max`;
    const run = runCli(
      db.url,
      ['api'],
      {
        TOLLGATE_PORT: '0',
        TOLLGATE_DATABASE_POOL_MAX: '500',
        TOLLGATE_API_DATABASE_POOL_MAX: '500',
      },
      'info',
    );
    try {
      const warned = await eventually(
        async () => logLines(run.err()).filter((l) => /database connections/.test(l.msg)),
        (lines) => lines.length > 0 || logLines(run.err()).some((l) => l.msg === 'api listening'),
        60_000,
      );
      expect(warned).toHaveLength(1);
      expect(warned[0]!.level).toBe(40);
      expect(warned[0]!.connections).toBe(1001);
      expect(warned[0]!.msg).toContain(`allows (${setting!.max})`);
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
    }
  }, 90_000);
});
