-- Travel Rule exchange with other VASPs (src/travelrule/): the VASP directory, the operators who
-- decide, the caller's travel rule webhook, the messages we send to other VASPs, and the travel
-- rule webhooks to the caller.

-- The VASP directory: what list_vasps returns, and how each VASP is reached. A VASP with a TRP
-- endpoint is reached by the Travel Rule Protocol; one without, by e-mail (the view link).
-- inbound_token is the secret part of the inbound TRP URL handed to this VASP
-- (<public url>/trp/v3/inquiries/<token>): an inquiry that arrives there is from this VASP.
create table vasps (
  uid           uuid primary key,
  name          text not null,
  legal_name    text,
  country       text,                      -- ISO 3166-1 alpha-2, upper case
  website       text not null,
  trp_endpoint  text,                      -- their TRP inquiry URL; null: no protocol
  email         text,                      -- the e-mail fallback's recipient
  inbound_token text not null unique,
  source        text not null default 'cli' check (source in ('config', 'cli', 'dashboard')),
  created_at    timestamptz not null default now(),
  updated_at    timestamptz not null default now()
);
create index vasps_name on vasps (lower(name), uid);

-- Operators of the compliance team: they accept and reject travel rule transactions. Separate
-- from API keys. password_hash is scrypt (src/operators/password.ts).
create table operators (
  id            bigserial primary key,
  login         text not null unique,
  password_hash text not null,
  role          text not null check (role in ('viewer', 'reviewer', 'admin')),
  failed_logins int not null default 0,
  locked_until  timestamptz,
  created_at    timestamptz not null default now(),
  disabled_at   timestamptz
);

-- The caller's travel rule webhook, per API key (POST /v2/travelrule/webhook). Without a row,
-- the configured default (travel_rule.webhook_url) is used.
create table travelrule_webhooks (
  api_key_id bigint primary key references api_keys (id),
  url        text not null,
  updated_at timestamptz not null default now()
);

alter table travelrule_transactions
  -- The other VASP (outgoing: the beneficiary's; incoming: the originator's), once known.
  add column counterparty_vasp_id  uuid references vasps (uid),
  -- Where the other VASP takes our next message: incoming, the originator's callback (for the
  -- resolution); outgoing, the beneficiary's approved.callback (for the confirmation).
  add column counterparty_callback text,
  -- The secret part of our callback URL for this transfer (/trp/v3/resolutions/<token> or
  -- /trp/v3/confirmations/<token>).
  add column callback_token        text unique,
  -- The e-mail address the view link went to, when the other VASP has no protocol.
  add column counterparty_email    text,
  -- The beneficiary's wallet address: incoming, from send_address; outgoing, from the approval.
  add column beneficiary_address   text,
  -- The reason the other VASP gave for a rejection or cancellation (sent by them, not personal data).
  add column counterparty_reason   text,
  -- The Travel Rule threshold per configured jurisdiction: above, below or unknown (not enforced).
  add column threshold             jsonb;
alter table travelrule_transactions drop column threshold_note;

-- Messages to the other VASP: TRP inquiry, resolution and confirmation, and the e-mails. One
-- graphile-worker job each (travelrule_send), retried with backoff. The personal data is read
-- from the sealed payload when the message is sent; nothing here holds it.
create table travelrule_messages (
  id              bigserial primary key,
  transaction_id  uuid not null references travelrule_transactions (id),
  kind            text not null check (kind in ('trp_inquiry', 'trp_resolution', 'trp_confirmation', 'email_inquiry', 'email_tx_hash')),
  -- Non-personal parameters: {"approved": true} / {"rejected": "reason"} / {"txid": "0x…"} / {"canceled": "reason"}.
  params          jsonb not null default '{}'::jsonb,
  request_id      uuid not null,            -- TRP request-identifier: the same on every attempt
  status          text not null default 'pending' check (status in ('pending', 'sent', 'failed', 'cancelled')),
  attempts        int not null default 0,
  last_status     int,
  last_error      text,
  created_at      timestamptz not null default now(),
  sent_at         timestamptz
);
create index travelrule_messages_transaction on travelrule_messages (transaction_id, id);

-- Travel rule webhooks to the caller ride on webhook_events (kind 'travelrule'): the same signing,
-- retries and attempt records as streams. The body is built at each attempt from the event's
-- status and the sealed payload (it may hold persons, which are not stored in clear), and is the
-- same on every attempt.
alter table webhook_events
  add column travelrule_id     uuid references travelrule_transactions (id),
  add column travelrule_status text;
create index webhook_events_travelrule on webhook_events (travelrule_id) where travelrule_id is not null;
