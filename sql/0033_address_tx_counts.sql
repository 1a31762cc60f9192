-- How many evm_tx_addresses rows each address has over every EVM network: the total that
-- /wallet/transactions answers with page_count, read in one row instead of counted (an address
-- with 100,000 transactions cost a count of 100,000 index entries per request). Kept by statement
-- triggers in the transaction of every insert and delete (the indexer's blocks, backfills,
-- reorgs, a forgotten dev chain), from the rows actually written or removed.
create table address_tx_counts (
  address text primary key,
  n       bigint not null check (n >= 0)
);

insert into address_tx_counts (address, n)
  select address, count(*) from evm_tx_addresses group by address;

create function address_tx_counts_add() returns trigger language plpgsql as $$
begin
  insert into address_tx_counts (address, n)
    select address, count(*) from added group by address
    order by address -- one lock order for concurrent writers
  on conflict (address) do update set n = address_tx_counts.n + excluded.n;
  return null;
end $$;

create function address_tx_counts_remove() returns trigger language plpgsql as $$
begin
  update address_tx_counts c set n = c.n - r.n
  from (select address, count(*) as n from removed group by address order by address) r
  where c.address = r.address;
  delete from address_tx_counts c using (select distinct address from removed) r
    where c.address = r.address and c.n = 0;
  return null;
end $$;

create trigger evm_tx_addresses_count_add after insert on evm_tx_addresses
  referencing new table as added for each statement execute function address_tx_counts_add();
create trigger evm_tx_addresses_count_remove after delete on evm_tx_addresses
  referencing old table as removed for each statement execute function address_tx_counts_remove();
