-- Replayed events: a stream created with from_block gets the address's past transactions from
-- the indexed blocks, queued before any live one and marked "replay": true in the body.
alter table webhook_events add column replay boolean not null default false;
