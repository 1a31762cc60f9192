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

-- POSTs of an event the receiver may have taken without us knowing: one more when a body is
-- handed out, one less when its attempt is recorded as answered (a 500) or never sent (connection
-- refused), or it was handed back unsent. A POST sent whole and never answered (a timeout, a
-- reset, a worker killed mid-attempt) stays counted. Above zero, a reorg retracts the event like
-- a delivered one. sent_at stays as the time of the last hand-out. Events sent before this
-- column: in doubt while pending.
alter table webhook_events add column in_doubt int not null default 0;
update webhook_events set in_doubt = 1 where status = 'pending' and sent_at is not null;
