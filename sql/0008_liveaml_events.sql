-- Live AML events: one row per risky transaction of a tracked address, recorded by the risk
-- worker (src/aml/liveaml-events.ts) and listed by GET /v2/liveaml/events.
--
-- The event belongs to the key (api_key_id), not to the tracking row: when the tracking is
-- deleted, tracked_id becomes null and the event stays in the key's history.
--
-- A transaction is identified by (tx_hash, block_hash), as in webhook_events: the same
-- transaction mined again in another block after a reorg is another event. An event whose block
-- was reorganised away is kept with orphaned = true and no longer listed (the spec's event record
-- has no field to mark it).
create table liveaml_events (
  id           bigserial primary key,
  api_key_id   bigint not null references api_keys (id),
  tracked_id   bigint references tracked_addresses (id) on delete set null,
  network      text not null,
  address      text not null,              -- the tracked address, normalised
  tx_hash      text not null,
  block_number bigint not null,
  block_hash   text not null,
  score        smallint not null check (score between 0 and 100),
  tags         jsonb not null check (jsonb_typeof(tags) = 'object'),      -- every AML tag, boolean
  hash_tags    jsonb not null check (jsonb_typeof(hash_tags) = 'object'), -- the tags true for this transaction
  orphaned     boolean not null default false,
  created_at   timestamptz not null default now(),
  unique (tracked_id, tx_hash, block_hash)
);
-- GET /liveaml/events: a key's visible events, newest first.
create index liveaml_events_listing on liveaml_events (api_key_id, created_at desc, id desc) where not orphaned;
-- Reorgs: the events above a network's common ancestor.
create index liveaml_events_block on liveaml_events (network, block_number) where not orphaned;
