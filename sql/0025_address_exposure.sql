-- AML exposure kept current instead of walked at request time (src/aml/exposure-store.ts).
-- Per network, address and label category:
--   direct_n:   counterparties of the address (address_edges rows from it) that carry the category;
--   indirect_n: two-hop paths address → B → C (address_edges rows) with C carrying the category
--               and C not the address itself.
--   category '*': direct_n is the address's degree (its counterparties); indirect_n stays 0.
-- direct_X is true when direct_n > 0, indirect_X when indirect_n > 0: what the two-hop walk over
-- address_edges answers. The indexer updates the counts in the same transaction as the edges it
-- adds or subtracts (src/indexer/edges.ts); label changes update them through the triggers below,
-- in the transaction of the change. "Carries the category" on a network: a label of that network,
-- or of the family-wide 'evm' scope on an EVM network (network_families).
create table network_families (
  network text primary key,
  family  text not null
);
insert into network_families (network, family) values
  ('eth', 'evm'), ('bsc', 'evm'), ('polygon', 'evm'), ('avalanche', 'evm'), ('arb', 'evm'), ('op', 'evm'),
  ('bitcoin', 'utxo'), ('litecoin', 'utxo'), ('doge', 'utxo');

create table address_exposure (
  network    text not null,
  address    text not null,
  category   text not null,
  direct_n   bigint not null default 0,
  indirect_n bigint not null default 0,
  primary key (network, address, category)
);

-- Edge changes and label changes read each other's tables: run concurrently under read committed,
-- an edge A → L added while L is being labelled would be counted by neither. Both take this
-- lock per network first (transaction-scoped), so one waits for the other's commit and then sees
-- it. A label transaction locks its networks in name order; an indexer locks only its own.
create function exposure_lock(p_network text) returns void language sql as $$
  select pg_advisory_xact_lock(hashtext('tollgate_exposure'), hashtext(p_network))
$$;

-- Locks the networks a set of label rows (jsonb records with `network`) counts on, in name order.
create function exposure_lock_for_labels(rows jsonb) returns void language plpgsql as $$
declare
  n text;
begin
  for n in
    select distinct f.network from network_families f
    where exists (select 1 from jsonb_array_elements(rows) r
                  where r->>'network' = f.network or (r->>'network' = 'evm' and f.family = 'evm'))
    union
    select distinct r->>'network' from jsonb_array_elements(rows) r
    where r->>'network' <> 'evm'
    order by 1
  loop
    perform exposure_lock(n);
  end loop;
end $$;

-- The label networks that count on `network`: itself, and 'evm' for an EVM network.
create function label_scopes(p_network text) returns text[] language sql stable as $$
  select case when exists (select 1 from network_families where network = p_network and family = 'evm')
    then array[p_network, 'evm'] else array[p_network] end
$$;

-- Adds `sign` × the exposure of the label pairs in `flipped` (network, address L, category X):
-- pairs whose "L carries X on the network" just became true (sign 1) or false (sign -1).
-- direct: every B with a row B → L; indirect: every A with rows A → B → L, A <> L.
create function exposure_apply_label_flips(flipped jsonb, sign int) returns void language plpgsql as $$
declare
  zero jsonb;
begin
  with f as (
    select distinct x->>'network' as network, x->>'address' as address, x->>'category' as category
    from jsonb_array_elements(flipped) x
  ), d as (
    select e.network, e.address, f.category, count(*) as n
    from f join address_edges e on e.network = f.network and e.counterparty = f.address
    group by 1, 2, 3
  ), i as (
    select e2.network, e2.address, f.category, count(*) as n
    from f join address_edges e1 on e1.network = f.network and e1.counterparty = f.address
      join address_edges e2 on e2.network = f.network and e2.counterparty = e1.address
    where e2.address <> f.address
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

-- The (edge network, address, category) pairs of `rows` (label rows) that no other label row
-- keeps true: on each network where the address has edges and the row's scope counts.
create function exposure_label_pairs(rows jsonb) returns jsonb language sql as $$
  select coalesce(jsonb_agg(distinct jsonb_build_object('network', n.network, 'address', r.address, 'category', r.category)), '[]'::jsonb)
  from jsonb_to_recordset(rows) as r(id bigint, network text, address text, category text)
  join lateral (
    select distinct e.network from address_edges e
    where e.counterparty = r.address and (e.network = r.network or r.network = any(label_scopes(e.network)))
  ) n on true
  where not exists (
    select 1 from labels o
    where o.address = r.address and o.category = r.category and o.network = any(label_scopes(n.network))
      and o.id not in (select (x->>'id')::bigint from jsonb_array_elements(rows) x)
  )
$$;

create function exposure_labels_inserted() returns trigger language plpgsql as $$
declare
  rows jsonb := (select jsonb_agg(to_jsonb(n)) from new_rows n);
begin
  perform exposure_lock_for_labels(rows);
  perform exposure_apply_label_flips(exposure_label_pairs(rows), 1);
  return null;
end $$;

create function exposure_labels_deleted() returns trigger language plpgsql as $$
declare
  rows jsonb := (select jsonb_agg(to_jsonb(o)) from old_rows o);
begin
  perform exposure_lock_for_labels(rows);
  perform exposure_apply_label_flips(exposure_label_pairs(rows), -1);
  return null;
end $$;

create trigger labels_exposure_insert after insert on labels
  referencing new table as new_rows for each statement execute function exposure_labels_inserted();
create trigger labels_exposure_delete after delete on labels
  referencing old table as old_rows for each statement execute function exposure_labels_deleted();

-- From scratch, for one network (the backfill below; benchmarks that build a graph in SQL):
-- D from the edges and labels, then I = Σ over rows A → B of D(B), less the paths A → B → A.
create function exposure_rebuild(p_network text) returns void language sql as $$
  delete from address_exposure where network = p_network;
  with cats as (
    select distinct address, category from labels where network = any(label_scopes(p_network))
  ), d as (
    select e.address, c.category, count(*) as n
    from address_edges e join cats c on c.address = e.counterparty
    where e.network = p_network group by 1, 2
  ), i as (
    select e.address, d.category, sum(d.n) as n
    from address_edges e join d on d.address = e.counterparty
    where e.network = p_network group by 1, 2
  ), back as (
    select e.address, c.category, count(*) as n
    from address_edges e join address_edges r on r.network = p_network and r.address = e.counterparty and r.counterparty = e.address
      join cats c on c.address = e.address
    where e.network = p_network group by 1, 2
  ), degree as (
    select address, '*' as category, count(*) as n from address_edges where network = p_network group by 1
  ), delta as (
    select address, category, n as dn, 0::numeric as inn from d
    union all select address, category, n, 0 from degree
    union all select address, category, 0, n from i
    union all select address, category, 0, -n from back
  )
  insert into address_exposure (network, address, category, direct_n, indirect_n)
  select p_network, address, category, sum(dn), sum(inn) from delta group by 2, 3
  having sum(dn) <> 0 or sum(inn) <> 0;
$$;

select exposure_rebuild(network) from (select distinct network from address_edges) n;
