-- A block a reorg removed can come back: the chain goes back to the branch it left (two branches
-- racing, as Bitcoin-family miners' do; a late Ethereum block the fork choice takes after all).
-- Its transactions' events were written again with the identity the orphaned ones already held
-- (subscription, kind, network, transaction, block, confirmed, removed), so nothing was written:
-- the receiver, which had the event and then its retraction, never heard that the transaction
-- is on the chain again, and no confirmed event followed. Now each time the block comes back
-- its events are a new incarnation: the count of the orphaned ones with the same identity. A
-- retraction carries the incarnation of the event it retracts (written by its producer). A chain
-- event's id (sql/0048) includes the incarnation after the first: `|<n>` at the end of the name.
alter table webhook_events add column incarnation int not null default 0;

create unique index webhook_events_identity_incarnation
  on webhook_events (tracked_id, kind, network, tx_hash, block_hash, confirmed, removed, incarnation);
drop index webhook_events_identity;
alter index webhook_events_identity_incarnation rename to webhook_events_identity;

create or replace function webhook_events_number() returns trigger language plpgsql as $$
declare
  h bytea;
begin
  if new.tracked_id is not null then
    insert into webhook_sequences as s (tracked_id, kind, last) values (new.tracked_id, new.kind, 1)
    on conflict (tracked_id, kind) do update set last = s.last + 1
    returning last into new.sequence;
    if new.tx_hash is not null and new.block_hash is not null and new.network is not null then
      if not new.removed then
        select count(*) into new.incarnation from webhook_events e
        where e.tracked_id = new.tracked_id and e.kind = new.kind and e.network = new.network
          and e.tx_hash = new.tx_hash and e.block_hash = new.block_hash and e.confirmed = new.confirmed
          and not e.removed and e.orphaned;
      end if;
      h := sha256(convert_to(concat_ws('|', 'tollgate webhook event', new.tracked_id, new.kind,
        new.network, new.tx_hash, new.block_hash, new.confirmed, new.removed,
        case when new.incarnation > 0 then new.incarnation end), 'UTF8'));
      -- The first 16 bytes, with version 8 (byte 6's high nibble) and variant 10xx (byte 8).
      h := set_byte(set_byte(h, 6, (get_byte(h, 6) & 15) | 128), 8, (get_byte(h, 8) & 63) | 128);
      new.id := encode(substring(h from 1 for 16), 'hex')::uuid;
    end if;
  end if;
  return new;
end $$;
