-- Sanctions and blacklists read from the indexed blocks (src/aml/onchain-lists.ts): each add or
-- remove event of a configured list contract (config/networks.json `label_lists`), one row per
-- listed address, kept with its block so that a reorg takes it back. A label of source
-- 'onchain:<kind>' exists while the address's latest event of that list adds it.
create table onchain_list_events (
  network      text not null,
  block_number bigint not null,
  log_index    int not null,
  -- position of the address in the event (the sanctions oracle lists several per event)
  item         int not null,
  tx_hash      text not null,
  kind         text not null,
  contract     text not null,
  address      text not null,
  listed       boolean not null,
  primary key (network, block_number, log_index, item)
);
create index onchain_list_events_address on onchain_list_events (network, kind, address, block_number desc);

-- List events that could not be read (a payload that does not decode): skipped, the block is
-- still indexed; counted for /metrics.
alter table indexer_cursors add column list_events_skipped bigint not null default 0;
