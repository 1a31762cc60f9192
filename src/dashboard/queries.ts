import { whereAll, type Sql } from '../db/index.js';
import type { Direction, Screening, Status, Vasp } from '../travelrule/index.js';

/**
 * The dashboard's read queries that the domains do not have: the travel rule search (reference,
 * status, direction, created date range, assignee, risk, failed messages) and its export, and
 * the directory.
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
  /** The assignee's login; NOBODY: cases nobody is on. */
  assignee?: string | undefined;
  /** Only transactions with a message to the other VASP that failed. */
  failed?: boolean | undefined;
  /** Either party's score at least this. */
  minScore?: number | undefined;
  /** A base tag found true on either party, itself or direct_/indirect_. */
  tag?: string | undefined;
}

/** The assignee filter's value for cases nobody is on. */
export const NOBODY = '-';

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
  /** The login of the operator on the case. */
  assigned_to: string | null;
  notes: number;
  /** Messages to the other VASP that failed (not retried any more). */
  failed_messages: number;
  created_at: Date;
  updated_at: Date;
}

function searchWhere(sql: Sql, f: TransactionSearch) {
  const ref = f.ref?.trim() ? f.ref.trim().toLowerCase() : null;
  const tags = f.tag ? [f.tag, `direct_${f.tag}`, `indirect_${f.tag}`] : null;
  // Only the filters given become conditions (whereAll): index scans on
  // travelrule_transactions_status, _created and _assigned.
  return whereAll(sql, [
    f.status ? sql`t.status = ${f.status}` : null,
    f.direction ? sql`t.direction = ${f.direction}` : null,
    // "Contains" as LIKE, which the trigram index serves (sql/0047); % _ \ in it taken literally.
    ref ? sql`lower(t.transaction_ref) like ${`%${ref.replace(/[\\%_]/g, '\\$&')}%`}::text` : null,
    f.from ? sql`t.created_at >= (${f.from}::date)::timestamp at time zone 'UTC'` : null,
    f.to ? sql`t.created_at < (${f.to}::date + 1)::timestamp at time zone 'UTC'` : null,
    f.assignee === NOBODY
      ? sql`t.assigned_to is null`
      : f.assignee
        ? sql`t.assigned_to = (select id from operators where login = ${f.assignee})`
        : null,
    f.failed
      ? sql`exists (select 1 from travelrule_messages m where m.transaction_id = t.id and m.status = 'failed')`
      : null,
    f.minScore !== undefined
      ? sql`greatest(t.originator_score, t.beneficiary_score) >= ${f.minScore}`
      : null,
    tags
      ? sql`(coalesce(t.screening->'originator'->'tags', '{}') ?| ${tags}::text[]
          or coalesce(t.screening->'beneficiary'->'tags', '{}') ?| ${tags}::text[])`
      : null,
  ]);
}

/** The PENDING queue is oldest first (who waited longest is decided first); the rest newest first. */
function searchOrder(sql: Sql, f: TransactionSearch) {
  return f.status === 'PENDING'
    ? sql`order by t.created_at, t.id`
    : sql`order by t.created_at desc, t.id desc`;
}

function searchRows(sql: Sql, f: TransactionSearch, limit: number, offset: number) {
  return sql<TransactionListRow[]>`
    select t.id, t.direction, t.transaction_ref, t.status, t.asset, t.network, t.amount::text as amount,
      t.originator_score, t.beneficiary_score, t.screening, t.counterparty_vasp_id, v.name as counterparty_name,
      o.login as assigned_to,
      (select count(*) from travelrule_notes n where n.transaction_id = t.id)::int as notes,
      (select count(*) from travelrule_messages m where m.transaction_id = t.id and m.status = 'failed')::int
        as failed_messages,
      t.created_at, t.updated_at
    from travelrule_transactions t
      left join vasps v on v.uid = t.counterparty_vasp_id
      left join operators o on o.id = t.assigned_to
    ${searchWhere(sql, f)} ${searchOrder(sql, f)}
    limit ${limit} offset ${offset}`;
}

/** A page of travel rule transactions, filtered (one query for the rows, one for the count). */
export async function searchTransactions(
  sql: Sql,
  f: TransactionSearch & { page: number; limit: number },
): Promise<{ rows: TransactionListRow[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    searchRows(sql, f, f.limit, (f.page - 1) * f.limit),
    sql<
      { total: number }[]
    >`select count(*)::int as total from travelrule_transactions t ${searchWhere(sql, f)}`,
  ]);
  return { rows, total: count!.total };
}

/** Most transactions one export holds: a longer period is exported in parts (narrower dates). */
export const MAX_EXPORT_TRANSACTIONS = 100_000;

/** The filtered transactions, in the queue's order, for an export (at most MAX_EXPORT_TRANSACTIONS). */
export function exportTransactions(sql: Sql, f: TransactionSearch): Promise<TransactionListRow[]> {
  return searchRows(sql, f, MAX_EXPORT_TRANSACTIONS, 0);
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
