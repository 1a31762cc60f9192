-- The dashboard's search by part of a reference (any letter case) reads every travel rule
-- transaction without an index that can serve "contains": at 100,000 transactions a search page
-- took about 200 ms. A trigram index (pg_trgm, shipped with Postgres's contrib modules and
-- trusted since Postgres 13, so the database's owner may create it) serves it for three
-- characters or more. Where the extension cannot be created (contrib not installed, no CREATE
-- privilege), the search works as before, reading every row: the migration does not fail for it.
do $$
begin
  begin
    create extension if not exists pg_trgm;
  exception when others then
    raise notice 'pg_trgm not available (%): the search by reference reads every transaction', sqlerrm;
    return;
  end;
  begin
    create index if not exists travelrule_transactions_ref_trgm
      on travelrule_transactions using gin (lower(transaction_ref) gin_trgm_ops);
  exception when others then
    raise notice 'no trigram index on transaction_ref (%): the search by reference reads every transaction', sqlerrm;
  end;
end $$;
