-- Webhook deliveries become an outbox of their own (src/webhooks/dispatcher.ts) instead of one
-- graphile-worker job per event: the worker claims due events in batches, sends them in the
-- order of their subscription, and records the outcomes in batches.

-- Per subscription (a tracked address's stream, or its live AML tracking), a sequence number
-- that only grows: every event of it gets the next one as it is written, in the writer's
-- transaction (the counter row stays locked until it commits, so numbers follow commit order).
create table webhook_sequences (
  tracked_id bigint not null references tracked_addresses (id) on delete cascade,
  kind       text not null,
  last       bigint not null,
  primary key (tracked_id, kind)
);

alter table webhook_events
  add column sequence        bigint,
  -- When the next attempt is due (backoff after a failed one).
  add column next_attempt_at timestamptz not null default now(),
  -- A worker holds the event until then (claimed, being sent); another one takes it after.
  add column lease_until     timestamptz,
  -- When the body was last handed to a receiver: an event with one may have reached it, so a
  -- reorg retracts it even when its outcome was never recorded (a worker killed mid-attempt).
  add column sent_at         timestamptz,
  -- Attempts allowed before giving up; null: the worker's webhook_max_attempts. A redelivery
  -- by an operator grants a new allowance on top of the attempts made.
  add column max_attempts    int,
  -- Set when the event was given up: retries exhausted, or refused by the receiver (4xx).
  add column gave_up_at      timestamptz;

-- Sequence numbers for what is already there, in the order it was written.
with numbered as (
  select id, row_number() over (partition by tracked_id, kind order by created_at, id) as n
  from webhook_events where tracked_id is not null
)
update webhook_events e set sequence = numbered.n from numbered where numbered.id = e.id;
insert into webhook_sequences (tracked_id, kind, last)
select tracked_id, kind, max(sequence) from webhook_events
where tracked_id is not null and exists (select 1 from tracked_addresses t where t.id = tracked_id)
group by tracked_id, kind;

create function webhook_events_next_sequence() returns trigger language plpgsql as $$
begin
  if new.tracked_id is not null then
    insert into webhook_sequences as s (tracked_id, kind, last) values (new.tracked_id, new.kind, 1)
    on conflict (tracked_id, kind) do update set last = s.last + 1
    returning last into new.sequence;
  end if;
  return new;
end $$;
create trigger webhook_events_sequence before insert on webhook_events
  for each row execute function webhook_events_next_sequence();

-- Wakes the dispatchers (LISTEN tollgate_outbox) when the writing transaction commits.
create function webhook_events_wake() returns trigger language plpgsql as $$
begin
  perform pg_notify('tollgate_outbox', '');
  return null;
end $$;
create trigger webhook_events_wake after insert on webhook_events
  for each statement execute function webhook_events_wake();

-- What the dispatchers scan: due pending events, and the earlier pending events of the same
-- subscription and transaction that an event waits for.
create index webhook_events_due on webhook_events (next_attempt_at) where status = 'pending';
create index webhook_events_pending_order on webhook_events (tracked_id, kind, tx_hash, sequence) where status = 'pending';
create index webhook_events_gave_up on webhook_events (gave_up_at desc) where gave_up_at is not null;

-- The delivery jobs of the old design go: the dispatcher takes their pending events as they are.
do $$
begin
  if to_regprocedure('graphile_worker.remove_job(text)') is not null then
    perform graphile_worker.remove_job('evt:' || id::text) from webhook_events where status = 'pending';
  end if;
end $$;
