-- A label on a hub is applied to the stored exposure by a job, not in the label's transaction
-- (src/aml/exposure-store.ts). A change whose address has more in-edges on a network than
-- exposure_settings 'defer_fanout_above' (config aml.exposure_defer_above) is queued here; the
-- job `exposure_apply` applies it in a transaction of its own, under the network's exposure lock.
-- Until then the counts say what they said before the change: they follow the labels they have
-- applied, which are the labels less the pending additions, plus the pending removals.
create table exposure_settings (
  key   text primary key,
  value bigint not null
);
insert into exposure_settings (key, value) values ('defer_fanout_above', 1000);

create table exposure_pending (
  network   text not null,
  address   text not null,
  category  text not null,
  -- 1: the address now carries the category, the counts do not know yet; -1: the reverse
  sign      smallint not null check (sign in (1, -1)),
  queued_at timestamptz not null default now(),
  primary key (network, address, category)
);

-- The categories the counts know `addresses` carry on a network (see above).
create function exposure_applied_categories(p_network text, p_addresses text[])
returns table (address text, category text) language sql as $$
  select l.address, l.category from labels l
  where l.network = any(label_scopes(p_network)) and l.address = any(p_addresses)
  except
  select p.address, p.category from exposure_pending p
  where p.network = p_network and p.sign = 1 and p.address = any(p_addresses)
  union
  select p.address, p.category from exposure_pending p
  where p.network = p_network and p.sign = -1 and p.address = any(p_addresses)
$$;

-- A label change: the (network, address, category) pairs whose truth it changed. A pair with a
-- pending change goes back to what the counts know: the pending row goes, nothing is applied.
-- Otherwise a pair whose address has few in-edges is applied now; one with many is queued for
-- the job (graphile-worker task exposure_apply, one job for all of them).
create function exposure_label_changed(rows jsonb, sign int) returns void language plpgsql as $$
declare
  pairs jsonb;
  now_pairs jsonb := '[]'::jsonb;
  queued boolean := false;
  above bigint := coalesce((select value from exposure_settings where key = 'defer_fanout_above'), 1000);
  p jsonb;
  fan bigint;
begin
  perform exposure_lock_for_labels(rows);
  pairs := exposure_label_pairs(rows);
  for p in select * from jsonb_array_elements(pairs) loop
    delete from exposure_pending x
    where x.network = p->>'network' and x.address = p->>'address' and x.category = p->>'category';
    if found then
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

create or replace function exposure_labels_inserted() returns trigger language plpgsql as $$
begin
  perform exposure_label_changed((select jsonb_agg(to_jsonb(n)) from new_rows n), 1);
  return null;
end $$;

create or replace function exposure_labels_deleted() returns trigger language plpgsql as $$
begin
  perform exposure_label_changed((select jsonb_agg(to_jsonb(o)) from old_rows o), -1);
  return null;
end $$;

-- A rebuild computes the counts from the labels as they are: nothing is pending after it.
create or replace function exposure_rebuild(p_network text) returns void language sql as $$
  delete from exposure_pending where network = p_network;
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
