-- Tollgate schema, first version. Forward-only: later changes go in new numbered files.

-- API keys: only a SHA-256 of the key is stored. The webhook secret signs outgoing webhooks
-- (Standard Webhooks, whsec_ prefix) and so is kept as it is.
create table api_keys (
  id             bigserial primary key,
  name           text not null,
  key_prefix     text not null,
  key_hash       text not null unique,
  webhook_secret text not null,
  created_at     timestamptz not null default now(),
  revoked_at     timestamptz
);

-- An address a key watches. One row per (key, address): the stream webhook and the live AML
-- webhook are two optional subscriptions on it; a row with neither is deleted.
create table tracked_addresses (
  id                bigserial primary key,
  api_key_id        bigint not null references api_keys (id),
  address           text not null,           -- normalised (EVM: lower-case 0x…)
  family            text not null,           -- 'evm' | 'utxo'
  stream_webhook    text,
  stream_created_at timestamptz,
  aml_webhook       text,
  aml_created_at    timestamptz,
  created_at        timestamptz not null default now(),
  updated_at        timestamptz not null default now(),
  unique (api_key_id, address),
  check (stream_webhook is not null or aml_webhook is not null)
);
create index tracked_addresses_address on tracked_addresses (address);

-- Indexer position per network. The cursor moves in the same transaction as the rows it covers.
create table indexer_cursors (
  network       text primary key,
  chain_id      bigint not null,
  block_number  bigint not null,
  block_hash    text not null,
  head_number   bigint,
  head_seen_at  timestamptz,
  last_reorg_at timestamptz,
  last_reorg_depth int,
  updated_at    timestamptz not null default now()
);

-- EVM chain data, partitioned by network (LIST) so that a large install can spread networks
-- apart; the indexer creates each network's partition on first start.
create table evm_blocks (
  network     text not null,
  number      bigint not null,
  hash        text not null,
  parent_hash text not null,
  timestamp   bigint not null,
  tx_count    int not null,
  primary key (network, number)
) partition by list (network);

create table evm_transactions (
  network          text not null,
  hash             text not null,
  block_number     bigint not null,
  block_hash       text not null,
  tx_index         int not null,
  from_address     text not null,
  to_address       text,
  contract_address text,
  value            numeric(78, 0) not null,
  gas              numeric(78, 0) not null,
  gas_price        numeric(78, 0),
  gas_used         numeric(78, 0),
  nonce            bigint not null,
  input            text not null,
  status           smallint,
  primary key (network, hash)
) partition by list (network);
create index evm_transactions_block on evm_transactions (network, block_number);

create table evm_logs (
  network      text not null,
  block_number bigint not null,
  log_index    int not null,
  block_hash   text not null,
  tx_hash      text not null,
  tx_index     int not null,
  address      text not null,
  topics       text[] not null,
  data         text not null,
  primary key (network, block_number, log_index)
) partition by list (network);
create index evm_logs_tx on evm_logs (network, tx_hash);

-- Every address a transaction touches (sender, recipient, created contract, parties of token
-- Transfer/Approval logs): the join that finds streamed addresses, and later wallet history.
create table evm_tx_addresses (
  network      text not null,
  address      text not null,
  block_number bigint not null,
  tx_hash      text not null,
  primary key (network, address, block_number, tx_hash)
) partition by list (network);
create index evm_tx_addresses_block on evm_tx_addresses (network, block_number);

-- Token metadata read from the contract once (name, symbol, decimals), then cached.
create table evm_tokens (
  network    text not null,
  address    text not null,
  name       text,
  symbol     text,
  decimals   int,
  fetched_at timestamptz not null default now(),
  primary key (network, address)
);

-- One webhook event: one body, one webhook-id, delivered until a 2xx (or given up).
-- The body is frozen at the first attempt, so every retry sends the same bytes.
create table webhook_events (
  id                uuid primary key default gen_random_uuid(),
  kind              text not null,            -- 'stream'
  api_key_id        bigint not null references api_keys (id),
  tracked_id        bigint references tracked_addresses (id) on delete set null,
  network           text not null,
  address           text not null,
  tx_hash           text not null,
  block_number      bigint not null,
  block_hash        text not null,
  confirmed         boolean not null,
  -- unconfirmed events only: the confirmed event for it was enqueued (or it was orphaned)
  confirmation_done boolean not null default false,
  orphaned          boolean not null default false,
  body              text,
  status            text not null default 'pending',  -- pending | delivered | failed | cancelled
  attempts          int not null default 0,
  created_at        timestamptz not null default now(),
  delivered_at      timestamptz,
  unique (tracked_id, kind, network, tx_hash, block_hash, confirmed)
);
create index webhook_events_awaiting_confirmation on webhook_events (network, block_number)
  where not confirmed and not confirmation_done;
create index webhook_events_block on webhook_events (network, block_hash);

-- Every delivery attempt, for the operator: status code, duration, error.
create table webhook_deliveries (
  id          bigserial primary key,
  event_id    uuid not null references webhook_events (id),
  attempt     int not null,
  url         text not null,
  status_code int,
  duration_ms int not null,
  error       text,
  created_at  timestamptz not null default now()
);
create index webhook_deliveries_event on webhook_deliveries (event_id);
