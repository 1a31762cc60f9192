import type { Sql, TransactionSql } from '../../src/db/index.js';
import { eventually } from './eventually.js';

/**
 * Commits a write in the middle of a read, as the indexer's next block or a reorg can: `write`
 * runs in a transaction that first takes `table` in access exclusive mode; `read` starts; once a
 * session waits for that lock (the read, reaching `table`), the reader's other statements get
 * 300 ms to finish, then the write commits. So a statement of the read that touches `table` sees
 * the write, and one beside it that does not, ran before it. Returns the read's outcome.
 */
export async function commitWhileRead<T>(
  sql: Sql,
  table: string,
  write: (tx: TransactionSql) => Promise<void>,
  read: () => Promise<T>,
): Promise<{ value?: T; error?: unknown }> {
  let outcome: Promise<{ value?: T; error?: unknown }> | undefined;
  await sql.begin(async (tx) => {
    await tx`lock table ${tx(table)} in access exclusive mode`;
    await write(tx);
    outcome = read().then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    const waiting = await eventually(
      () => sql<{ n: number }[]>`
        select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation
        where c.relname = ${table} and not l.granted`,
      (r) => r[0]!.n > 0,
    );
    if (waiting[0]!.n === 0) throw new Error(`the read never waited on ${table}`);
    await new Promise((r) => setTimeout(r, 300));
  });
  return outcome!;
}
