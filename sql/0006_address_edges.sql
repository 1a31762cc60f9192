-- Counterparty edges: who transacted with whom, per network, maintained by the indexers in the
-- same transaction as the blocks (and reverted with them). Both directions are stored, so every
-- lookup starts from `address`. The AML exposure (direct_/indirect_ tags) is computed over it.
--
-- tx_count: transactions in which the two addresses were counterparties (EVM: sender and
-- recipient of the native value, or from/to of a token transfer; Bitcoin-family: an address of a
-- spent coin and an address of an output), each transaction counted once per pair. The zero
-- address (mints and burns) is not a counterparty. first_seen/last_seen are block times; after a
-- reorg they may be wider than what remains (tx_count is exact).
create table address_edges (
  network      text not null,
  address      text not null,
  counterparty text not null,
  tx_count     bigint not null,
  first_seen   bigint not null,
  last_seen    bigint not null,
  primary key (network, address, counterparty)
) partition by list (network);
create index address_edges_counterparty on address_edges (counterparty, network);
