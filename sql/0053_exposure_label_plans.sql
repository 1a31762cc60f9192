-- A label change updates the exposure counts of the addresses one and two hops from the labelled
-- address, following address_edges from it through its index (sql/0025, 0027, 0045). Postgres
-- plans those statements from the tables' statistics, and with none (address_edges bulk-loaded
-- by a backfill and not yet analysed by autovacuum) it planned the two-hop count of 1,000 labels
-- on a 10,000,000-edge graph as the labels joined with every edge on the network alone, and only
-- then with the first hop: ten billion rows, whose temporary files filled the disk (measured:
-- EXPLAIN of the statement on such a graph; the 1,000-label insert ran out of space twice).
--
-- Now the first hop is taken first (a materialized step: the second hop can only join its rows),
-- and the statements of a label change run without table scans (enable_seqscan off while the
-- functions run, so through everything they call): a change touches the edges of its labelled
-- addresses, a few rows of a large table, which only the indexes find in proportion. A hub above
-- aml.exposure_defer_above is applied by the exposure_apply job in chunks
-- (exposure_apply_label_chunk), which gets the same setting.
create or replace function exposure_apply_label_flips(flipped jsonb, sign int) returns void
language plpgsql
set enable_seqscan = off
as $$
declare
  zero jsonb;
begin
  with f as materialized (
    select distinct x->>'network' as network, x->>'address' as address, x->>'category' as category
    from jsonb_array_elements(flipped) x
  ), hop as materialized (
    -- the labelled addresses' counterparties: each becomes direct, and leads to the second hop
    select f.network, f.address as labelled, f.category, e.address
    from f join address_edges e on e.network = f.network and e.counterparty = f.address
  ), d as (
    select network, address, category, count(*) as n from hop group by 1, 2, 3
  ), i as (
    select e2.network, e2.address, h.category, count(*) as n
    from hop h join address_edges e2 on e2.network = h.network and e2.counterparty = h.address
    where e2.address <> h.labelled
    group by 1, 2, 3
  ), delta as (
    select network, address, category, n as dn, 0::bigint as inn from d
    union all select network, address, category, 0, n from i
  ), upserted as (
    insert into address_exposure as x (network, address, category, direct_n, indirect_n)
    select network, address, category, sign * sum(dn), sign * sum(inn) from delta group by 1, 2, 3
    on conflict (network, address, category) do update set
      direct_n = x.direct_n + excluded.direct_n, indirect_n = x.indirect_n + excluded.indirect_n
    returning x.network, x.address, x.category, x.direct_n, x.indirect_n
  )
  select coalesce(jsonb_agg(jsonb_build_array(network, address, category)), '[]'::jsonb) into zero
  from upserted where direct_n = 0 and indirect_n = 0;
  -- Rows left at zero say nothing: removed (only those this change touched).
  delete from address_exposure x using jsonb_array_elements(zero) z
  where x.network = z->>0 and x.address = z->>1 and x.category = z->>2
    and x.direct_n = 0 and x.indirect_n = 0;
end $$;

alter function exposure_label_changed(jsonb, int) set enable_seqscan = off;
alter function exposure_apply_label_chunk(text, text, text, int, text[]) set enable_seqscan = off;
