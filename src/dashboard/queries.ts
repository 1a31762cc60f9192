import { whereAll, type Sql } from '../db/index.js';
import type { Direction, Screening, Status, Vasp } from '../travelrule/index.js';

/**
 * The dashboard's read queries that the domains do not have: the travel rule search (reference,
 * status, direction, created date range), and the directory.
 * One query per page of rows (counterparty names joined in, never fetched row by row), LIMIT and
 * OFFSET on the existing indexes.
 */

export interface TransactionSearch {
  status?: Status | undefined;
  direction?: Direction | undefined;
  /** Part of the caller's reference, any letter case. */
  ref?: string | undefined;
  /** Created on or after this day (UTC, YYYY-MM-DD). */
  from?: string | undefined;
  /** Created on or before this day (UTC, YYYY-MM-DD), the whole day. */
  to?: string | undefined;
  page: number;
  limit: number;
}

/** A row of the queue: no personal data. */
export interface TransactionListRow {
  id: string;
  direction: Direction;
  transaction_ref: string;
  status: Status;
  asset: string;
  network: string | null;
  amount: string;
  originator_score: number | null;
  beneficiary_score: number | null;
  screening: Screening | null;
  counterparty_vasp_id: string | null;
  counterparty_name: string | null;
  created_at: Date;
}

/**
 * A page of travel rule transactions. The PENDING queue is oldest first (who waited longest is
 * decided first; index travelrule_transactions_status); any other filter is newest first.
 */
export async function searchTransactions(
  sql: Sql,
  f: TransactionSearch,
): Promise<{ rows: TransactionListRow[]; total: number }> {
  const ref = f.ref?.trim() ? f.ref.trim().toLowerCase() : null;
  // Only the filters given become conditions (whereAll): index scans on
  // travelrule_transactions_status and travelrule_transactions_created.
  const where = whereAll(sql, [
    f.status ? sql`t.status = ${f.status}` : null,
    f.direction ? sql`t.direction = ${f.direction}` : null,
    ref ? sql`strpos(lower(t.transaction_ref), ${ref}::text) > 0` : null,
    f.from ? sql`t.created_at >= (${f.from}::date)::timestamp at time zone 'UTC'` : null,
    f.to ? sql`t.created_at < (${f.to}::date + 1)::timestamp at time zone 'UTC'` : null,
  ]);
  const order =
    f.status === 'PENDING'
      ? sql`order by t.created_at, t.id`
      : sql`order by t.created_at desc, t.id desc`;
  const [rows, [count]] = await Promise.all([
    sql<TransactionListRow[]>`
      select t.id, t.direction, t.transaction_ref, t.status, t.asset, t.network, t.amount::text as amount,
        t.originator_score, t.beneficiary_score, t.screening, t.counterparty_vasp_id, v.name as counterparty_name, t.created_at
      from travelrule_transactions t left join vasps v on v.uid = t.counterparty_vasp_id
      ${where} ${order}
      limit ${f.limit} offset ${(f.page - 1) * f.limit}`,
    sql<{ total: number }[]>`select count(*)::int as total from travelrule_transactions t ${where}`,
  ]);
  return { rows, total: count!.total };
}

/** A page of the directory by name. Inbound tokens are not stored (only their hashes). */
export async function listVaspPage(
  sql: Sql,
  f: { page: number; limit: number },
): Promise<{ rows: Vasp[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    sql<Vasp[]>`
      select uid, name, legal_name, country, website, trp_endpoint, email, trp_slip0044, trp_tls_fingerprints, source, created_at, updated_at
      from vasps order by lower(name), uid limit ${f.limit} offset ${(f.page - 1) * f.limit}`,
    sql<{ total: number }[]>`select count(*)::int as total from vasps`,
  ]);
  return { rows, total: count!.total };
}
