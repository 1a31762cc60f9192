import { whereAll, type Sql, type TransactionSql } from '../db/index.js';
import { currentAuditClient } from './client.js';

/**
 * The audit log (table `audit_log`): what operators did and tried — logins, travel rule
 * decisions, reads of personal data, directory and account changes, job and delivery actions —
 * and the webhook operations an API key made through /v2 (actor `apikey:<id>`).
 * `details` holds ids, statuses and counts only: never personal data (no IVMS101 values, no
 * operator's rejection reason, no passwords, tokens or keys). The CLI's entries have actor `cli`.
 * `client_address` is the address of the request that wrote the entry (src/audit/client.ts), null
 * for the CLI and the appliance itself; it is part of the entry's hashed content (sql/0041).
 */

export const AUDIT_ACTIONS = [
  'login',
  'login_failed',
  'logout',
  'password_change',
  'sessions_revoked',
  'mfa_enrol',
  'mfa_disable',
  'mfa_reset',
  'mfa_recovery_codes',
  'mfa_recovery_code_used',
  'travelrule_view',
  'travelrule_accept',
  'travelrule_reject',
  'travelrule_cancel',
  'travelrule_answer',
  'vasp_create',
  'vasp_update',
  'operator_create',
  'operator_disable',
  'operator_reset_password',
  'apikey_create',
  'apikey_revoke',
  'job_retry',
  'job_delete',
  'webhook_redeliver',
  'webhook_recover',
  'webhook_test',
  'webhook_secret_rotate',
  'webhook_endpoint_enable',
  'stream_pause',
  'stream_resume',
  'liveaml_pause',
  'liveaml_resume',
  'indexer_resume',
  'indexer_backfill',
  'indexer_retrace',
  'apikey_rotate',
  'vasp_remove',
  'vasp_rotate_token',
  'vasp_import',
  'labels_import',
  'travel_address_issue',
  'travelrule_view_link',
  'audit_export',
  'travelrule_note',
  'travelrule_assign',
  'travelrule_export',
  'travelrule_message_send',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
  id: string;
  at: Date;
  actor: string;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
  client_address: string | null;
  /** When the target is a travel rule transaction: its reference. */
  transaction_ref: string | null;
  /** A rejection's or cancellation's reason, from the transaction's history. */
  reason: string | null;
}

/** Longest actor stored: a failed login's attempted name is cut here. */
export const MAX_ACTOR_CHARS = 64;

export async function recordAudit(
  sql: Sql | TransactionSql,
  e: {
    actor: string;
    action: AuditAction;
    target?: string | null;
    details?: Record<string, string | number | boolean | null>;
    /** Defaults to the client of the request being served (none outside a request). */
    clientAddress?: string | null;
  },
): Promise<void> {
  const client = e.clientAddress === undefined ? currentAuditClient() : (e.clientAddress ?? null);
  await sql`
    insert into audit_log (actor, action, target, details, client_address)
    values (${e.actor.slice(0, MAX_ACTOR_CHARS)}, ${e.action}, ${e.target ?? null}, ${sql.json((e.details ?? {}) as never)}, ${client})`;
}

export interface AuditFilter {
  actor?: string;
  action?: string;
  /** Entries at or after this time. */
  from?: Date;
  /** Entries before this time. */
  before?: Date;
  /** The target exactly, or a travel rule transaction's reference. */
  target?: string;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function auditWhere(sql: Sql, f: AuditFilter) {
  // Only the filters given: keeps the index scans (audit_log_actor, _action, _at, _target).
  return whereAll(sql, [
    f.actor ? sql`a.actor = ${f.actor}` : null,
    f.action ? sql`a.action = ${f.action}` : null,
    f.from ? sql`a.at >= ${f.from}` : null,
    f.before ? sql`a.at < ${f.before}` : null,
    f.target
      ? sql`(a.target = ${f.target} or a.target in (
          select id::text from travelrule_transactions where transaction_ref = ${f.target}))`
      : null,
  ]);
}

/**
 * The entries with what makes them readable: a travel rule transaction's reference, and for a
 * rejection or cancellation the reason the operator gave (kept in the transaction's history, not
 * in the entry: it is free text).
 */
function auditRows(sql: Sql, f: AuditFilter, limit: number, offset: number) {
  return sql<AuditEntry[]>`
    select a.id, a.at, a.actor, a.action, a.target, a.details, a.client_address,
      t.transaction_ref, h.reason
    from audit_log a
    left join travelrule_transactions t
      -- case: the cast is made only of a uuid (a join's conditions are evaluated in any order)
      on t.id = case when a.action like 'travelrule%' and a.target ~ ${UUID_RE.source}
        then a.target::uuid end
    left join lateral (
      select reason from travelrule_history
      where t.id is not null and a.action in ('travelrule_reject', 'travelrule_cancel')
        and transaction_id = t.id and actor_type = 'operator' and actor_id = a.actor
        and reason is not null and at <= a.at
      order by id desc limit 1) h on true
    ${auditWhere(sql, f)}
    order by a.at desc, a.id desc limit ${limit} offset ${offset}`;
}

const asEntry = (r: AuditEntry): AuditEntry => ({ ...r, id: String(r.id) });

/** A page of the log, newest first (index audit_log_at), filtered. */
export async function listAudit(
  sql: Sql,
  f: AuditFilter & { page: number; limit: number },
): Promise<{ rows: AuditEntry[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    auditRows(sql, f, f.limit, (f.page - 1) * f.limit),
    sql<{ total: number }[]>`select count(*)::int as total from audit_log a ${auditWhere(sql, f)}`,
  ]);
  return { rows: rows.map(asEntry), total: count!.total };
}

/** Most entries one export holds: a longer period is exported in parts (narrower dates). */
export const MAX_EXPORT_ROWS = 100_000;

/** The filtered entries, newest first, for an export (at most MAX_EXPORT_ROWS). */
export async function exportAudit(sql: Sql, f: AuditFilter): Promise<AuditEntry[]> {
  return (await auditRows(sql, f, MAX_EXPORT_ROWS, 0)).map(asEntry);
}
