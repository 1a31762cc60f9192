-- EVM counterparty edges are value flows (src/indexer/evm/store.ts, evmPairs): the sender and the
-- recipient (or the contract created) only when native coin moved (value above 0, the transaction
-- not reverted), and the parties of each token transfer. Before, every transaction linked its
-- sender with the contract it called, value or not, reverted or not: a token contract was a
-- counterparty of everyone who sent the token, so every sender of a token a sanctioned address
-- ever sent was indirect_sanctioned through it (found by an outside probe of live AML).
--
-- The stored graph is rebuilt by the new rule from the stored transactions and token transfers
-- (each transaction counts once per ordered pair, both directions, self-pairs and the zero
-- address left out, first and last seen at block times: as src/indexer/edges.ts adds them), so
-- that a reorg subtracts exactly what was added, and the stored exposure with it.
-- Bitcoin-family networks' edges are not touched.
create temporary table evm_edge_networks on commit drop as
  select distinct network from evm_blocks;

delete from address_edges where network in (select network from evm_edge_networks);

insert into address_edges (network, address, counterparty, tx_count, first_seen, last_seen)
with pairs as (
  select t.network, t.hash as tx, t.from_address as a, coalesce(t.to_address, t.contract_address) as b,
    k.timestamp as ts
  from evm_transactions t
    join evm_blocks k on k.network = t.network and k.number = t.block_number
  where coalesce(t.to_address, t.contract_address) is not null and t.value > 0
    and t.status is distinct from 0
  union all
  select network, tx_hash, from_address, to_address, timestamp from evm_token_transfers
), both_ways as (
  select network, tx, a, b, ts from pairs
  union
  select network, tx, b, a, ts from pairs
)
select network, a, b, count(*), min(ts), max(ts) from both_ways
where a <> b and a <> '0x0000000000000000000000000000000000000000'
  and b <> '0x0000000000000000000000000000000000000000'
group by network, a, b;

select exposure_rebuild(network) from evm_edge_networks;
