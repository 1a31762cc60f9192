-- A hub's label change is applied by the exposure_apply job in chunks of the hub's counterparties,
-- each chunk in a transaction of its own, instead of in one transaction that held the network's
-- exposure lock (and so its indexer) for seconds: 3.1 s for a hub of 100,000 counterparties at
-- 1M edges, 7.8 s at 10M (src/aml/exposure-store.ts, applyPendingExposure).
--
-- A change to a hub H's category touches the paths that end at H. Each such path passes one
-- counterparty A of H (an address_edges row A → H): the count of A itself (direct), and of every X
-- with a row X → A (indirect). A is the path's key. The job takes the keys in address order; a
-- pending row says which keys are done:
--   upward:     keys <= edge are done (edge null: none yet), keys above it are still to do;
--   not upward: keys >  edge are done, keys <= edge are still to do.
-- For a done key the counts follow H's category as the labels have it now; for the others, as
-- before the change. Edge batches of the indexer meanwhile count each path through H by the same
-- rule (exposure_counted), so the counts stay exact through a half-applied change.
-- A change reversed while half applied (the label removed again) turns its row around: the done
-- keys are now the ones to undo, the others already say the right thing (sign and direction
-- flip, the edge stays). Before any key is done, a reversal just drops the row, as before.
alter table exposure_pending add column upward boolean not null default true;
alter table exposure_pending add column edge text;

-- The job reads a hub's counterparties in address order, from where it stopped.
create index address_edges_counterparty_address on address_edges (counterparty, network, address);
drop index address_edges_counterparty;

-- Whether a path through a labelled address with a pending row (sign, upward, edge; all null
-- without one) and key `k` counts the address's category now. Inlined by the planner.
create function exposure_counted(p_sign smallint, p_upward boolean, p_edge text, k text)
returns boolean language sql immutable as $$
  select p_sign is null
    or ((p_sign = 1) = coalesce(case when p_upward then k <= p_edge else k > p_edge end, false))
$$;

-- The categories `addresses` carry on a network as far as the counts may know them: the labels
-- (in scope), and the categories of pending rows (a pending removal: no label any more), each
-- with its pending row's state for exposure_counted.
create function exposure_known_categories(p_network text, p_addresses text[])
returns table (address text, category text, p_sign smallint, p_upward boolean, p_edge text)
language sql stable as $$
  select coalesce(l.address, p.address), coalesce(l.category, p.category), p.sign, p.upward, p.edge
  from (
    select distinct l.address, l.category from labels l
    where l.network = any(label_scopes(p_network)) and l.address = any(p_addresses)
  ) l
  full join (
    select p.address, p.category, p.sign, p.upward, p.edge from exposure_pending p
    where p.network = p_network and p.address = any(p_addresses)
  ) p on p.address = l.address and p.category = l.category
$$;

drop function exposure_applied_categories(text, text[]);

-- One chunk of a hub's change: the paths through the keys `keys` (counterparties A of the hub,
-- rows A → hub), counted with `sign`.
create function exposure_apply_label_chunk(p_network text, p_address text, p_category text, sign int, keys text[])
returns void language plpgsql as $$
declare
  zero jsonb;
begin
  with k as (
    select e.address from address_edges e
    where e.network = p_network and e.counterparty = p_address and e.address = any(keys)
  ), i as (
    select e2.address, count(*) as n
    from k join address_edges e2 on e2.network = p_network and e2.counterparty = k.address
    where e2.address <> p_address
    group by 1
  ), delta as (
    select address, 1::bigint as dn, 0::bigint as inn from k
    union all select address, 0, n from i
  ), upserted as (
    insert into address_exposure as x (network, address, category, direct_n, indirect_n)
    select p_network, address, p_category, sign * sum(dn), sign * sum(inn) from delta group by 2
    on conflict (network, address, category) do update set
      direct_n = x.direct_n + excluded.direct_n, indirect_n = x.indirect_n + excluded.indirect_n
    returning x.address, x.direct_n, x.indirect_n
  )
  select coalesce(jsonb_agg(address), '[]'::jsonb) into zero
  from upserted where direct_n = 0 and indirect_n = 0;
  delete from address_exposure x using jsonb_array_elements_text(zero) z(address)
  where x.network = p_network and x.address = z.address and x.category = p_category
    and x.direct_n = 0 and x.indirect_n = 0;
end $$;

-- As in sql/0027, but a pair whose pending row has done keys turns the row around (above).
create or replace function exposure_label_changed(rows jsonb, sign int) returns void language plpgsql as $$
declare
  pairs jsonb;
  now_pairs jsonb := '[]'::jsonb;
  queued boolean := false;
  above bigint := coalesce((select value from exposure_settings where key = 'defer_fanout_above'), 1000);
  p jsonb;
  fan bigint;
  pending exposure_pending;
begin
  perform exposure_lock_for_labels(rows);
  pairs := exposure_label_pairs(rows);
  for p in select * from jsonb_array_elements(pairs) loop
    select * into pending from exposure_pending x
    where x.network = p->>'network' and x.address = p->>'address' and x.category = p->>'category';
    if found then
      if pending.upward and pending.edge is null then
        delete from exposure_pending x
        where x.network = p->>'network' and x.address = p->>'address' and x.category = p->>'category';
      else
        update exposure_pending x set sign = -x.sign, upward = not x.upward
        where x.network = p->>'network' and x.address = p->>'address' and x.category = p->>'category';
        queued := true;
      end if;
      continue;
    end if;
    select count(*) into fan from (
      select 1 from address_edges e where e.network = p->>'network' and e.counterparty = p->>'address'
      limit above + 1) s;
    if fan > above then
      insert into exposure_pending (network, address, category, sign)
      values (p->>'network', p->>'address', p->>'category', sign);
      queued := true;
    else
      now_pairs := now_pairs || jsonb_build_array(p);
    end if;
  end loop;
  perform exposure_apply_label_flips(now_pairs, sign);
  if queued then
    perform graphile_worker.add_job('exposure_apply', '{}'::json, max_attempts => 25, job_key => 'exposure_apply');
  end if;
end $$;

-- As in sql/0025, plus the networks where the address has a pending change of the category: a
-- hub whose in-edges were all reorged away after its change was queued has no edges there, and
-- its pending row must still hear that the change was reversed (else the job, or an edge added
-- later, would count a label that is gone). The networks with edges are asked one by one (every
-- network with edges is in network_families, which is never pruned), not read off every in-edge
-- of the address: a hub's 100,000.
create or replace function exposure_label_pairs(rows jsonb) returns jsonb language sql as $$
  select coalesce(jsonb_agg(distinct jsonb_build_object('network', n.network, 'address', r.address, 'category', r.category)), '[]'::jsonb)
  from jsonb_to_recordset(rows) as r(id bigint, network text, address text, category text)
  join lateral (
    select f.network from network_families f
    where (f.network = r.network or r.network = any(label_scopes(f.network)))
      and exists (select 1 from address_edges e where e.network = f.network and e.counterparty = r.address)
    union
    select p.network from exposure_pending p
    where p.address = r.address and p.category = r.category
      and (p.network = r.network or r.network = any(label_scopes(p.network)))
  ) n on true
  where not exists (
    select 1 from labels o
    where o.address = r.address and o.category = r.category and o.network = any(label_scopes(n.network))
      and o.id not in (select (x->>'id')::bigint from jsonb_array_elements(rows) x)
  )
$$;
