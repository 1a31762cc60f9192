-- Rotating an API key keeps its identity (streams, trackings, transfers, events, webhook secret):
-- the key gets a new secret, and the one it replaces is still accepted until previous_until.
alter table api_keys
  add column previous_key_hash text,
  add column previous_until    timestamptz;
create unique index api_keys_previous_key_hash on api_keys (previous_key_hash)
  where previous_key_hash is not null;
