-- Webhook operations (src/deliveries/, src/webhooks/operations.ts, README "Webhook operations"):
-- the delivery log per key, pause and resume, test events, secret rotation with an overlap, and
-- endpoints disabled after failing for too long. Every column added here is nullable or has a
-- constant default, so no table is rewritten; the one index on webhook_deliveries reads that
-- table once and holds only rows written from now on.

-- Pause: while set, the subscription's events are written to the outbox as usual and held there
-- (not sent); resuming makes them due again, oldest first.
alter table tracked_addresses
  add column stream_paused_at timestamptz,
  add column aml_paused_at    timestamptz;

-- Secret rotation: the secret before the last rotation still signs (beside the new one) until
-- webhook_secret_previous_until; after that only webhook_secret does.
alter table api_keys
  add column webhook_secret_previous       text,
  add column webhook_secret_previous_until timestamptz;

-- A test event (kind 'test') names its URL itself; other kinds find theirs by subscription.
alter table webhook_events add column url text;

-- The delivery log per API key: the key of each attempt's event (written with the attempt from
-- now on; attempts recorded before this migration are not in the per-key log), and the first
-- bytes of the receiver's answer (at most 1 KiB, never logged; not kept for travel rule
-- webhooks, whose bodies may hold persons a receiver could echo).
alter table webhook_deliveries
  add column api_key_id bigint,
  add column response   text;
create index webhook_deliveries_key on webhook_deliveries (api_key_id, created_at desc, id desc)
  where api_key_id is not null;

-- An endpoint is a key's webhook URL. Its row is written by the dispatcher's record of attempts:
-- failing_since is the first attempt without a 2xx since the last 2xx; an endpoint failing for
-- longer than TOLLGATE_WEBHOOK_DISABLE_AFTER_HOURS is disabled: its events stay pending and are
-- held (not sent) until it is enabled again. last_* are refreshed at most once a minute while
-- nothing changes (the row is not rewritten for every batch of a busy endpoint).
create table webhook_endpoints (
  id               bigserial primary key,
  api_key_id       bigint not null references api_keys (id),
  url              text not null,
  failing_since    timestamptz,
  disabled_at      timestamptz,
  -- How often it was disabled (the counter of tollgate_webhook_endpoint_disablements_total).
  disablements     int not null default 0,
  enabled_at       timestamptz,
  last_attempt_at  timestamptz,
  last_status_code int,
  last_error       text,
  last_success_at  timestamptz,
  unique (api_key_id, url)
);
-- What the claim asks of every event while any endpoint is disabled: is its endpoint one of them.
create index webhook_endpoints_disabled on webhook_endpoints (api_key_id, url) where disabled_at is not null;
