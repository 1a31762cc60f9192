import type { Sql } from '../db/index.js';

/**
 * Checks the audit log's hash chain (sql/0040): each entry's `prev_hash` must be the hash of the
 * entry before it ('' for the first), and its `hash` the sha256 of `prev_hash` and its content,
 * recomputed by Postgres with the same function the writer used. An entry edited afterwards fails
 * the second check; a deleted one makes the next entry fail the first. Deleting the newest
 * entries leaves a shorter chain that is still whole: compare `head` with one recorded earlier
 * (the dashboard's audit page and `tollgate audit verify` print it). Read in batches by id.
 */

export interface ChainProblem {
  id: string;
  problem: 'edited' | 'entries before it missing' | 'not chained';
}

export interface ChainReport {
  entries: number;
  intact: boolean;
  /** The newest entry: record it elsewhere to detect a later truncation. */
  head: { id: string; hash: string } | null;
  /** The first problems found (at most 100). */
  problems: ChainProblem[];
}

const BATCH = 5_000;
const MAX_PROBLEMS = 100;

export async function verifyAuditChain(sql: Sql): Promise<ChainReport> {
  let after = '0';
  let previous = '';
  let entries = 0;
  let head: ChainReport['head'] = null;
  const problems: ChainProblem[] = [];
  const note = (id: string, problem: ChainProblem['problem']) => {
    if (problems.length < MAX_PROBLEMS) problems.push({ id, problem });
  };
  let problemCount = 0;
  for (;;) {
    const rows = await sql<
      { id: string; prev_hash: string | null; hash: string | null; recomputed: string | null }[]
    >`
      select a.id, a.prev_hash, a.hash, audit_log_hash(a.prev_hash, a) as recomputed
      from audit_log a where a.id > ${after}::bigint order by a.id limit ${BATCH}`;
    for (const r of rows) {
      entries++;
      if (r.hash === null || r.prev_hash === null) {
        note(r.id, 'not chained');
        problemCount++;
      } else {
        if (r.prev_hash !== previous) {
          note(r.id, 'entries before it missing');
          problemCount++;
        }
        if (r.recomputed !== r.hash) {
          note(r.id, 'edited');
          problemCount++;
        }
      }
      previous = r.hash ?? '';
      head = { id: r.id, hash: r.hash ?? '' };
    }
    if (rows.length < BATCH) break;
    after = rows.at(-1)!.id;
  }
  return { entries, intact: problemCount === 0, head, problems };
}

/** The newest entry of the chain (what verifyAuditChain reports as `head`), without checking it. */
export async function auditChainHead(sql: Sql): Promise<ChainReport['head']> {
  const [row] = await sql<{ id: string; hash: string | null }[]>`
    select id::text, hash from audit_log order by id desc limit 1`;
  return row ? { id: row.id, hash: row.hash ?? '' } : null;
}
