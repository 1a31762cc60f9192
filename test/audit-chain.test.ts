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
});
