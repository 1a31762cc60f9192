-- The numbering trigger looks for an event by its identity (the unique index webhook_events_identity)
-- twice: before it takes a number, and again once it has taken it.
--
-- Its look-ups are planned once per session and kept. Planned while webhook_events was empty (a
-- fresh install, a table analysed before the first burst), Postgres chose to scan the table, and
-- kept scanning it as it grew: measured on analysed-empty statistics, 0.29 ms per event for 2,000
-- events in one statement, 1.24 ms for 10,000, ~2.9 ms for each event written alone afterwards in
-- the same sessions (a cost that grows with the table, until the next ANALYZE replans). A look-up
-- of one identity is never better served by a scan, so the function plans without one
-- (enable_seqscan off while the function runs).
--
-- The second look: two transactions writing the same new chain event at once (two indexers of a
-- network during a rolling restart; a reorg's retraction beside an attempt's outcome) each found
-- it unwritten, each took a number, and the second's row then met the first's in the unique index
-- and was dropped: its number stayed a gap that no event fills. Taking the number locks the
-- subscription's counter until the writer commits, so the second writer waits for the first, and
-- its second look (each statement of the function reads what is committed by then) sees the
-- first's row: it gives the number back (nobody can take one in between, the counter being
-- locked) and drops its own row. The first look stays, so an event written earlier (a replayed
-- block) costs no write to the counter. (A database that ran the withdrawn 0051 had the same
-- second look without the planner setting.)
create or replace function webhook_events_number() returns trigger language plpgsql
-- Every look-up by the identity index: see above.
set enable_seqscan = off
as $$
declare
  h bytea;
  written boolean;
  chain boolean := new.tracked_id is not null and new.tx_hash is not null
    and new.block_hash is not null and new.network is not null;
begin
  for look in 1..2 loop
    if chain then
      if new.removed then
        select exists (
          select 1 from webhook_events e
          where e.tracked_id = new.tracked_id and e.kind = new.kind and e.network = new.network
            and e.tx_hash = new.tx_hash and e.block_hash = new.block_hash
            and e.confirmed = new.confirmed and e.removed and e.incarnation = new.incarnation)
        into written;
      else
        -- Orphaned ones count the block's returns; one not orphaned is this event, written already.
        select count(*) filter (where e.orphaned), coalesce(bool_or(not e.orphaned), false)
        into new.incarnation, written
        from webhook_events e
        where e.tracked_id = new.tracked_id and e.kind = new.kind and e.network = new.network
          and e.tx_hash = new.tx_hash and e.block_hash = new.block_hash
          and e.confirmed = new.confirmed and not e.removed;
      end if;
      if written then
        if look = 2 then
          update webhook_sequences set last = last - 1
          where tracked_id = new.tracked_id and kind = new.kind;
        end if;
        return null;
      end if;
    end if;
    exit when look = 2 or new.tracked_id is null;
    insert into webhook_sequences as s (tracked_id, kind, last) values (new.tracked_id, new.kind, 1)
    on conflict (tracked_id, kind) do update set last = s.last + 1
    returning last into new.sequence;
    exit when not chain;
  end loop;
  if chain then
    h := sha256(convert_to(concat_ws('|', 'tollgate webhook event', new.tracked_id, new.kind,
      new.network, new.tx_hash, new.block_hash, new.confirmed, new.removed,
      case when new.incarnation > 0 then new.incarnation end), 'UTF8'));
    -- The first 16 bytes, with version 8 (byte 6's high nibble) and variant 10xx (byte 8).
    h := set_byte(set_byte(h, 6, (get_byte(h, 6) & 15) | 128), 8, (get_byte(h, 8) & 63) | 128);
    new.id := encode(substring(h from 1 for 16), 'hex')::uuid;
  end if;
  return new;
end $$;
