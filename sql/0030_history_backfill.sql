-- How far each network's indexed history reaches: from `history_from` up to the cursor, every
-- block is stored (the live indexer's first block, lowered by backfills that join it). Wallet
-- answers report it (X-Tollgate-History), so "no transactions" and "not indexed" differ.
alter table indexer_cursors add column history_from bigint;
update indexer_cursors c set history_from = coalesce(
  (select min(number) from evm_blocks b where b.network = c.network),
  (select min(height) from utxo_blocks u where u.network = c.network),
  c.block_number + 1);

-- A range backfill (`tollgate indexer backfill`, the operations page): the network's active
-- indexer stores blocks from_block..to_block beside the live follower, from the top down, each
-- batch linked to the block above it (its hash must be the parent hash the block above names).
-- `next_block` is the highest block still to store and moves in the batch's transaction, so a
-- killed backfill goes on where it stopped and stores nothing twice.
create table indexer_backfills (
  id           bigserial primary key,
  network      text not null,
  from_block   bigint not null check (from_block >= 0),
  to_block     bigint not null check (to_block >= from_block),
  next_block   bigint not null,
  -- The hash block next_block must have (the parent hash of the stored block above it); null
  -- when the block above is not stored (a range that leaves a gap): the node's block is taken.
  expect_hash  text,
  status       text not null default 'running' check (status in ('running', 'done', 'failed', 'cancelled')),
  error        text,
  blocks_done  bigint not null default 0,
  txs_done     bigint not null default 0,
  requested_by text not null,
  created_at   timestamptz not null default now(),
  updated_at   timestamptz not null default now(),
  finished_at  timestamptz
);
-- One running backfill per network: a second request is refused, never run beside it.
create unique index indexer_backfills_running on indexer_backfills (network) where status = 'running';
create index indexer_backfills_network on indexer_backfills (network, id desc);
