-- GET /v2/stream/list and /v2/liveaml/list page a key's subscriptions in creation order and say
-- how many pages there are. Measured at 2,000 requests/s of page 1 of 1,000 streams: Postgres
-- took a whole core, every page reading and sorting all of the key's rows and counting them
-- again. Now a page reads its rows in order from a partial index, and the count is kept per key.
create index tracked_addresses_stream_list on tracked_addresses (api_key_id, stream_created_at, id)
  where stream_webhook is not null;
create index tracked_addresses_aml_list on tracked_addresses (api_key_id, aml_created_at, id)
  where aml_webhook is not null;

-- Per key, how many streams and live AML trackings it has: kept by the trigger below in the
-- transaction that changes tracked_addresses, so a list's page_count is as current as its rows.
create table subscription_counts (
  api_key_id bigint primary key references api_keys (id) on delete cascade,
  streams    int not null default 0,
  trackings  int not null default 0
);

create function tracked_addresses_count() returns trigger language plpgsql as $$
declare
  old_streams int := 0;
  old_trackings int := 0;
  new_streams int := 0;
  new_trackings int := 0;
begin
  if tg_op <> 'INSERT' then
    old_streams := (old.stream_webhook is not null)::int;
    old_trackings := (old.aml_webhook is not null)::int;
  end if;
  if tg_op <> 'DELETE' then
    new_streams := (new.stream_webhook is not null)::int;
    new_trackings := (new.aml_webhook is not null)::int;
  end if;
  if tg_op = 'UPDATE' and old.api_key_id = new.api_key_id then
    new_streams := new_streams - old_streams;
    new_trackings := new_trackings - old_trackings;
    old_streams := 0;
    old_trackings := 0;
  end if;
  if old_streams <> 0 or old_trackings <> 0 then
    update subscription_counts set streams = streams - old_streams, trackings = trackings - old_trackings
    where api_key_id = old.api_key_id;
  end if;
  if new_streams <> 0 or new_trackings <> 0 then
    insert into subscription_counts as c (api_key_id, streams, trackings)
    values (new.api_key_id, new_streams, new_trackings)
    on conflict (api_key_id) do update
      set streams = c.streams + excluded.streams, trackings = c.trackings + excluded.trackings;
  end if;
  return null;
end $$;

-- The table is locked while the trigger is added and the counts taken, so no change falls
-- between the two.
lock table tracked_addresses in share row exclusive mode;
create trigger tracked_addresses_count
  after insert or update of api_key_id, stream_webhook, aml_webhook or delete on tracked_addresses
  for each row execute function tracked_addresses_count();
insert into subscription_counts (api_key_id, streams, trackings)
select api_key_id, count(*) filter (where stream_webhook is not null),
  count(*) filter (where aml_webhook is not null)
from tracked_addresses group by api_key_id;
