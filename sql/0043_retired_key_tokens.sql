-- Tokens the appliance made with a data key and handed out (the callback URLs of transfers under
-- way, the Travel Addresses issued for customers): their SHA-256, recorded by `tollgate data-key
-- rotate` for every old key while that key is still configured, so that they keep working after
-- the key is removed. A token is the HMAC of a row id; its hash cannot make one.
create table retired_key_tokens (
  token_hash  text primary key,              -- SHA-256 of the whole token, hex
  kind        text not null check (kind in ('callback', 'travel_address')),
  target      uuid not null,                 -- the transaction, or the travel_addresses row
  key_id      text not null,                 -- the data key that made it
  recorded_at timestamptz not null default now()
);
create index retired_key_tokens_key on retired_key_tokens (key_id, kind);

-- When a rotate last recorded an old key's tokens (then it can be removed once it seals no row).
create table data_key_tokens_recorded (
  key_id      text primary key,
  recorded_at timestamptz not null
);
