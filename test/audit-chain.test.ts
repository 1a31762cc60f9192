import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit, verifyAuditChain } from '../src/audit/index.js';
import { runCli } from './helpers/cli.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';

/**
 * The audit log's hash chain (sql/0040) against a real Postgres: entries written at once from
 * several connections form one chain in id order; an entry edited or deleted afterwards (by
 * someone with write access to the database) is found by `tollgate audit verify`.
 */

let db: TestDatabase;

beforeAll(async () => {
  db = await freshDatabase();
});

afterAll(async () => {
  await db?.drop();
});

describe('the audit chain', () => {
  it('chains entries written concurrently, in id order', async () => {
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        recordAudit(db.sql, {
          actor: `op${i % 4}`,
          action: 'login',
          target: i % 3 ? `t${i}` : null,
          details: { n: i, note: 'ünïcode "quoted" \\ text' },
        }),
      ),
    );
    const report = await verifyAuditChain(db.sql);
    expect(report).toMatchObject({ entries: 60, intact: true, problems: [] });
    const rows = await db.sql<{ id: string; prev_hash: string; hash: string }[]>`
      select id, prev_hash, hash from audit_log order by id`;
    expect(rows[0]!.prev_hash).toBe('');
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.prev_hash).toBe(rows[i - 1]!.hash);
    expect(report.head).toEqual({ id: rows.at(-1)!.id, hash: rows.at(-1)!.hash });
    // The CLI says the same, exit 0.
    const run = runCli(db.url, ['audit', 'verify', '--json']);
    expect(await run.exited).toBe(0);
    expect(run.lastJson()).toMatchObject({ entries: 60, intact: true });
  });

  it('finds an edited entry and one that follows a deleted entry', async () => {
    const ids = (await db.sql<{ id: string }[]>`select id from audit_log order by id`).map(
      (r) => r.id,
    );
    await db.sql`update audit_log set actor = 'someone-else' where id = ${ids[10]!}`;
    await db.sql`update audit_log set details = '{"n": 999}' where id = ${ids[20]!}`;
    await db.sql`delete from audit_log where id = ${ids[30]!}`;
    const report = await verifyAuditChain(db.sql);
    expect(report.intact).toBe(false);
    expect(report.problems).toEqual([
      { id: ids[10], problem: 'edited' },
      { id: ids[20], problem: 'edited' },
      { id: ids[31], problem: 'entries before it missing' },
    ]);
    const run = runCli(db.url, ['audit', 'verify']);
    expect(await run.exited).toBe(1);
    expect(run.out()).toContain(`entry #${ids[10]}: edited`);
    expect(run.out()).toContain('The chain is BROKEN.');
    // New entries still chain on from the newest one.
    await recordAudit(db.sql, { actor: 'cli', action: 'login' });
    const [last] = await db.sql<{ prev_hash: string }[]>`
      select prev_hash from audit_log order by id desc limit 1`;
    expect(last!.prev_hash).toBe(report.head!.hash);
  });

  it('hashes the client address with the entry, and an entry without one as before sql/0041', async () => {
    const fresh = await freshDatabase();
    try {
      await recordAudit(fresh.sql, { actor: 'op', action: 'login', clientAddress: '192.0.2.7' });
      await recordAudit(fresh.sql, { actor: 'cli', action: 'apikey_create', target: '1' });
      const rows = await fresh.sql<
        { id: string; client_address: string | null; content: string; old_content: string }[]
      >`
        select id, client_address, audit_log_content(a) as content,
          jsonb_build_array(a.id, extract(epoch from a.at)::text, a.actor, a.action, a.target,
            a.details)::text as old_content
        from audit_log a order by id`;
      expect(rows.map((r) => r.client_address)).toEqual(['192.0.2.7', null]);
      // Without an address, the content is sql/0040's, character for character.
      expect(rows[1]!.content).toBe(rows[1]!.old_content);
      // With one, it is part of the content.
      expect(rows[0]!.content).toBe(`${rows[0]!.old_content.slice(0, -1)}, "192.0.2.7"]`);
      expect(await verifyAuditChain(fresh.sql)).toMatchObject({ entries: 2, intact: true });
      // Editing the address (or adding one to an entry without) is found.
      await fresh.sql`update audit_log set client_address = '198.51.100.1' where id = ${rows[0]!.id}`;
      await fresh.sql`update audit_log set client_address = '198.51.100.2' where id = ${rows[1]!.id}`;
      const report = await verifyAuditChain(fresh.sql);
      expect(report.intact).toBe(false);
      expect(report.problems).toEqual([
        { id: rows[0]!.id, problem: 'edited' },
        { id: rows[1]!.id, problem: 'edited' },
      ]);
      // Removing it from an entry that had one, too.
      await fresh.sql`update audit_log set client_address = '192.0.2.7' where id = ${rows[0]!.id}`;
      await fresh.sql`update audit_log set client_address = null where id = ${rows[1]!.id}`;
      expect((await verifyAuditChain(fresh.sql)).intact).toBe(true);
      await fresh.sql`update audit_log set client_address = null where id = ${rows[0]!.id}`;
      expect((await verifyAuditChain(fresh.sql)).problems).toEqual([
        { id: rows[0]!.id, problem: 'edited' },
      ]);
    } finally {
      await fresh.drop();
    }
  });
});
