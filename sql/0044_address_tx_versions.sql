-- A version of each address's transaction history: the id of the last transaction that added or
-- removed one of its evm_tx_addresses rows (pg_current_xact_id, 64 bits, never reused). Two reads
-- of the same address with the same version saw the same rows, which lets an API process keep
-- where deep pages of /wallet/transactions begin (src/wallet/page-anchors.ts) and use it only
-- while it is exact: page 500 of a wallet was an OFFSET walk of 24,950 index entries per request.
-- The version moves in the same statement triggers that keep the count (sql/0033).
alter table address_tx_counts add column version bigint not null default 0;

create or replace function address_tx_counts_add() returns trigger language plpgsql as $$
begin
  insert into address_tx_counts (address, n, version)
    select address, count(*), pg_current_xact_id()::text::bigint from added group by address
    order by address -- one lock order for concurrent writers
  on conflict (address) do update set n = address_tx_counts.n + excluded.n, version = excluded.version;
  return null;
end $$;

create or replace function address_tx_counts_remove() returns trigger language plpgsql as $$
begin
  update address_tx_counts c set n = c.n - r.n, version = pg_current_xact_id()::text::bigint
  from (select address, count(*) as n from removed group by address order by address) r
  where c.address = r.address;
  delete from address_tx_counts c using (select distinct address from removed) r
    where c.address = r.address and c.n = 0;
  return null;
end $$;
