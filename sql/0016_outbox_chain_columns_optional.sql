-- webhook_events is the outbox of every kind of webhook. Its chain columns say which transaction
-- an event is about; a travel rule notice is about none (or, once confirmed, only a txid), and
-- used to fill them with '' and 0. They are null for such events now.
alter table webhook_events
  alter column network drop not null,
  alter column address drop not null,
  alter column tx_hash drop not null,
  alter column block_number drop not null,
  alter column block_hash drop not null;

update webhook_events
set network = null, address = null, block_number = null, block_hash = null, tx_hash = nullif(tx_hash, '')
where travelrule_id is not null and kind = 'travelrule';
