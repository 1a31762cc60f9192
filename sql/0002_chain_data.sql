-- Chain data, second step: decoded token transfers, retraction webhooks after reorgs, indexer
-- halt state, and block time on the address index (wallet history newest first across networks).

-- Token transfers decoded from logs: ERC-20, ERC-721, ERC-1155 single and batch (one row per
-- id of a batch, batch_index 0..n-1). Used by webhooks, wallet queries and AML.
create table evm_token_transfers (
  network      text not null,
  block_number bigint not null,
  log_index    int not null,
  batch_index  int not null default 0,
  tx_hash      text not null,
  token        text not null,            -- contract address, lower-case
  standard     text not null check (standard in ('ERC20', 'ERC721', 'ERC1155')),
  from_address text not null,
  to_address   text not null,
  token_id     numeric(78, 0),           -- null for ERC-20
  value        numeric(78, 0) not null,  -- amount (1 for ERC-721)
  timestamp    bigint not null,
  primary key (network, block_number, log_index, batch_index)
) partition by list (network);
create index evm_token_transfers_to on evm_token_transfers (to_address, network);
create index evm_token_transfers_from on evm_token_transfers (from_address, network);
create index evm_token_transfers_tx on evm_token_transfers (network, tx_hash);

-- Block time of each (address, transaction): the wallet history index, newest first.
alter table evm_tx_addresses add column timestamp bigint not null default 0;
update evm_tx_addresses a set timestamp = b.timestamp from evm_blocks b
  where b.network = a.network and b.number = a.block_number;
create index evm_tx_addresses_history on evm_tx_addresses (address, timestamp desc, network, block_number desc, tx_hash);

-- A retraction is the same event with removed = true: it needs its own identity.
do $$
declare c text;
begin
  for c in select conname from pg_constraint where conrelid = 'webhook_events'::regclass and contype = 'u' loop
    execute format('alter table webhook_events drop constraint %I', c);
  end loop;
end $$;
alter table webhook_events add column removed boolean not null default false;
create unique index webhook_events_identity
  on webhook_events (tracked_id, kind, network, tx_hash, block_hash, confirmed, removed);

-- An indexer that stopped on purpose (a reorg deeper than allowed, a node on the wrong chain)
-- says why here; /readyz fails while it is set. The next successful start clears it.
alter table indexer_cursors add column halted_reason text;
alter table indexer_cursors add column halted_at timestamptz;
