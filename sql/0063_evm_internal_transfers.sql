-- Internal transfers: native coin a contract moved inside a transaction (a mixer's withdrawal to
-- its recipient, a contract's payout), read from the node's call traces where it has them
-- (src/chains/evm/traces.ts). One row per call frame below the transaction's own that moved coin
-- and did not fail; `trace_index` is the frame's place in the call tree, depth first (the
-- transaction itself is 0). Their parties are the transaction's touched addresses (streams,
-- wallet history) and counterparties (address_edges: AML exposure, live AML), as a token
-- transfer's are.
create table evm_internal_transfers (
  network      text not null,
  block_number bigint not null,
  tx_hash      text not null,
  trace_index  int not null,
  kind         text not null check (kind in ('call', 'create', 'selfdestruct')),
  from_address text not null,
  to_address   text not null,
  value        numeric(78, 0) not null,
  timestamp    bigint not null,
  primary key (network, block_number, tx_hash, trace_index)
) partition by list (network);
create index evm_internal_transfers_to on evm_internal_transfers (to_address, network);
create index evm_internal_transfers_from on evm_internal_transfers (from_address, network);
create index evm_internal_transfers_tx on evm_internal_transfers (network, tx_hash);

-- Whether a block's call traces were read: true, its internal transfers are stored; false, the
-- node had no call traces (or not the state to re-run the block), or they were off; null, stored
-- before Tollgate read them.
alter table evm_blocks add column traced boolean;

-- The partitions of the networks already indexed (an indexer creates its network's at start).
do $$
declare n text;
begin
  for n in select distinct network from evm_blocks loop
    if n ~ '^[a-z0-9]+$' then
      execute format('create table if not exists %I partition of evm_internal_transfers for values in (%L)',
        'evm_internal_transfers_' || n, n);
    end if;
  end loop;
end $$;
