-- Travel Addresses this appliance issues for its own customers' deposit addresses: an inquiry
-- that arrives on one belongs to that key and that address. The address's token is the row's id
-- with an HMAC under a key derived from the data key (src/travelrule/travel-addresses.ts):
-- nothing secret is stored.
create table travel_addresses (
  id         uuid primary key default gen_random_uuid(),
  api_key_id bigint not null references api_keys (id),
  network    text not null,
  address    text not null,               -- the customer's deposit address, normalised
  created_at timestamptz not null default now(),
  unique (api_key_id, network, address)
);
