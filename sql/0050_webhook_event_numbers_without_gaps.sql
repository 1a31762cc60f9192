-- A subscription's `sequence` has no gap but for an event still to come (or given up): that is
-- what a receiver is told. The numbering trigger took the next number before Postgres found that
-- the row already existed (INSERT … ON CONFLICT DO NOTHING fires BEFORE triggers first), so a
-- row written twice left a number no event ever carried. It happens: a reorg retracts an event
-- whose attempt is in flight, and the attempt's outcome tries to retract it again. Now the
-- trigger drops a chain event that already exists (same identity and incarnation) itself,
-- before it takes a number: returning NULL skips the row, as the conflict would have.
create or replace function webhook_events_number() returns trigger language plpgsql as $$
declare
  h bytea;
  written boolean;
begin
  if new.tracked_id is not null and new.tx_hash is not null and new.block_hash is not null
     and new.network is not null then
    if new.removed then
      select exists (
        select 1 from webhook_events e
        where e.tracked_id = new.tracked_id and e.kind = new.kind and e.network = new.network
          and e.tx_hash = new.tx_hash and e.block_hash = new.block_hash and e.confirmed = new.confirmed
          and e.removed and e.incarnation = new.incarnation) into written;
    else
      -- Orphaned ones count the block's returns; one not orphaned is this event, written already.
      select count(*) filter (where e.orphaned), coalesce(bool_or(not e.orphaned), false)
      into new.incarnation, written
      from webhook_events e
      where e.tracked_id = new.tracked_id and e.kind = new.kind and e.network = new.network
        and e.tx_hash = new.tx_hash and e.block_hash = new.block_hash and e.confirmed = new.confirmed
        and not e.removed;
    end if;
    if written then
      return null;
    end if;
    h := sha256(convert_to(concat_ws('|', 'tollgate webhook event', new.tracked_id, new.kind,
      new.network, new.tx_hash, new.block_hash, new.confirmed, new.removed,
      case when new.incarnation > 0 then new.incarnation end), 'UTF8'));
    -- The first 16 bytes, with version 8 (byte 6's high nibble) and variant 10xx (byte 8).
    h := set_byte(set_byte(h, 6, (get_byte(h, 6) & 15) | 128), 8, (get_byte(h, 8) & 63) | 128);
    new.id := encode(substring(h from 1 for 16), 'hex')::uuid;
  end if;
  if new.tracked_id is not null then
    insert into webhook_sequences as s (tracked_id, kind, last) values (new.tracked_id, new.kind, 1)
    on conflict (tracked_id, kind) do update set last = s.last + 1
    returning last into new.sequence;
  end if;
  return new;
end $$;
