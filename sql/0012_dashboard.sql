-- The operator dashboard (src/dashboard/) and operations monitoring (src/ops/).

-- Dashboard sessions: the cookie holds a random token; only its SHA-256 is stored. Each session
-- has its own CSRF token, sent back in every form. Idle and absolute expiry are enforced in code.
create table operator_sessions (
  token_hash   text primary key,
  operator_id  bigint not null references operators (id),
  csrf_token   text not null,
  created_at   timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at   timestamptz not null
);
create index operator_sessions_operator on operator_sessions (operator_id);

-- What operators did (and tried): logins, decisions, reads of personal data, directory and
-- account changes, job and delivery actions. `details` never holds personal data.
create table audit_log (
  id          bigserial primary key,
  at          timestamptz not null default clock_timestamp(),
  actor       text not null,                -- operator login, or 'cli' / 'system'
  action      text not null,                -- login, login_failed, logout, travelrule_accept, …
  target      text,                         -- a transaction id, VASP uid, login, job id, …
  details     jsonb not null default '{}'::jsonb
);
create index audit_log_at on audit_log (at desc, id desc);
create index audit_log_actor on audit_log (actor, at desc);
create index audit_log_action on audit_log (action, at desc);

-- The dashboard's queue across all statuses, newest first (one status: travelrule_transactions_status).
create index travelrule_transactions_created on travelrule_transactions (created_at, id);

-- Counters for /metrics, kept where the indexer already writes in the same transaction, so that
-- any API process can report them whichever process indexes.
alter table indexer_cursors
  add column reorg_count    bigint not null default 0,
  add column blocks_indexed bigint not null default 0,
  add column txs_indexed    bigint not null default 0;
