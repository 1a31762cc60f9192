-- An event about a chain transaction gets its id (the webhook-id, `msg_<id>`) from what it is,
-- not at random: its identity (webhook_events_identity: the subscription, kind, network,
-- transaction, block, confirmed, removed) hashed into a name-based UUID (version 8, SHA-256, as
-- RFC 9562 §5.8 describes). The same event written again gets the same webhook-id, so a
-- receiver that deduplicates on it (the contract says to) takes it once. That happens when the
-- database loses its last commits and the indexer writes those blocks' events again: a failover
-- to an asynchronous replica that was behind, a restore from a backup. With random ids each
-- such event reached the receiver a second time under a new webhook-id: a deposit counted twice.
-- Other events (travel rule, test, operator notices) keep random ids. Ids already written stay.
create function webhook_events_number() returns trigger language plpgsql as $$
declare
  h bytea;
begin
  if new.tracked_id is not null then
    insert into webhook_sequences as s (tracked_id, kind, last) values (new.tracked_id, new.kind, 1)
    on conflict (tracked_id, kind) do update set last = s.last + 1
    returning last into new.sequence;
    if new.tx_hash is not null and new.block_hash is not null and new.network is not null then
      h := sha256(convert_to(concat_ws('|', 'tollgate webhook event', new.tracked_id, new.kind,
        new.network, new.tx_hash, new.block_hash, new.confirmed, new.removed), 'UTF8'));
      -- The first 16 bytes, with version 8 (byte 6's high nibble) and variant 10xx (byte 8).
      h := set_byte(set_byte(h, 6, (get_byte(h, 6) & 15) | 128), 8, (get_byte(h, 8) & 63) | 128);
      new.id := encode(substring(h from 1 for 16), 'hex')::uuid;
    end if;
  end if;
  return new;
end $$;

drop trigger webhook_events_sequence on webhook_events;
drop function webhook_events_next_sequence();
create trigger webhook_events_number before insert on webhook_events
  for each row execute function webhook_events_number();
