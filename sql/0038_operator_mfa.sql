-- Operators' second factor and sessions that end on any credential change (src/operators/).

-- TOTP (RFC 6238) per operator. The secret is sealed with the data keyring like the IVMS101
-- payloads (AES-256-GCM, associated data naming this column and the operator's id); confirmed_at
-- stays null until the operator's first code proves the authenticator holds it. last_step is
-- the time step of the last code accepted: a code is taken once, and never one older.
create table operator_mfa (
  operator_id      bigint primary key references operators (id),
  secret_sealed    bytea not null,
  secret_nonce     bytea not null,
  secret_key_id    text not null,
  confirmed_at     timestamptz,
  last_step        bigint,
  created_at       timestamptz not null default now()
);

-- Single-use recovery codes, shown once at enrolment: only their SHA-256 is kept (each is 60
-- random bits, so no slow hash is needed).
create table operator_recovery_codes (
  operator_id bigint not null references operators (id),
  code_hash   text not null,
  used_at     timestamptz,
  primary key (operator_id, code_hash)
);

-- A session is 'full', or half-open after the password: 'code' (the second factor is asked) or
-- 'enrol' (the role requires one the operator has not set up: enrolment only). 'ops' sessions
-- are the operator API's bearer tokens (POST /ops/session), never a dashboard cookie.
alter table operator_sessions
  add column stage text not null default 'full' check (stage in ('code', 'enrol', 'full')),
  add column via text not null default 'dashboard' check (via in ('dashboard', 'ops')),
  add column code_failures int not null default 0;

-- No more per-account lockout: a stranger's wrong guesses could lock the real operator out.
-- Login attempts are limited per client address instead (src/operators/limits.ts, in memory).
alter table operators drop column failed_logins, drop column locked_until;
