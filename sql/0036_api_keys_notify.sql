-- API processes keep the keys they have seen in memory (src/keys/cache.ts); any change to
-- api_keys (a revocation, a new webhook secret) tells them to drop what they hold, when the
-- changing transaction commits.
create function api_keys_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('tollgate_api_keys', '');
  return null;
end $$;
create trigger api_keys_changed after update or delete on api_keys
  for each statement execute function api_keys_changed();
