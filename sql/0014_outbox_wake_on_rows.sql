-- The outbox's wake-up (0013) fired for every insert statement into webhook_events, also those
-- that inserted nothing (a batch of recorded attempts carries a retraction insert that is empty
-- nearly always): every dispatcher woke and claimed after every record. Now it fires only when
-- the statement inserted rows.
drop trigger webhook_events_wake on webhook_events;

create or replace function webhook_events_wake() returns trigger language plpgsql as $$
begin
  if exists (select 1 from inserted) then
    perform pg_notify('tollgate_outbox', '');
  end if;
  return null;
end $$;

create trigger webhook_events_wake after insert on webhook_events
  referencing new table as inserted
  for each statement execute function webhook_events_wake();
