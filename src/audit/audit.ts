import { whereAll, type Sql, type TransactionSql } from '../db/index.js';

/**
 * The audit log (table `audit_log`): what operators did and tried — logins, travel rule
 * decisions, reads of personal data, directory and account changes, job and delivery actions —
 * and the webhook operations an API key made through /v2 (actor `apikey:<id>`).
 * `details` holds ids, statuses and counts only: never personal data (no IVMS101 values, no
 * operator's rejection reason, no passwords or keys).
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
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
  id: string;
  at: Date;
  actor: string;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
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
  },
): Promise<void> {
  await sql`
    insert into audit_log (actor, action, target, details)
    values (${e.actor.slice(0, MAX_ACTOR_CHARS)}, ${e.action}, ${e.target ?? null}, ${sql.json((e.details ?? {}) as never)})`;
}

/** A page of the log, newest first (index audit_log_at), optionally of one actor and one action. */
export async function listAudit(
  sql: Sql,
  f: { page: number; limit: number; actor?: string; action?: string },
): Promise<{ rows: AuditEntry[]; total: number }> {
  // Only the filters given: keeps the index scans (audit_log_actor, audit_log_action, audit_log_at).
  const where = whereAll(sql, [
    f.actor ? sql`actor = ${f.actor}` : null,
    f.action ? sql`action = ${f.action}` : null,
  ]);
  const [rows, [count]] = await Promise.all([
    sql<AuditEntry[]>`
      select id, at, actor, action, target, details from audit_log ${where}
      order by at desc, id desc limit ${f.limit} offset ${(f.page - 1) * f.limit}`,
    sql<{ total: number }[]>`select count(*)::int as total from audit_log ${where}`,
  ]);
  return { rows: rows.map((r) => ({ ...r, id: String(r.id) })), total: count!.total };
}
