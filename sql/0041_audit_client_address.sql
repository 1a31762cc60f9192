-- The audit log names where a request came from: the client address of a dashboard, operator
-- API or view-link request (behind configured proxies, the nearest untrusted hop); null for the
-- CLI and the appliance itself. The address is part of the hashed content of entries that carry
-- one; an entry without one (every entry written before this migration) hashes exactly as
-- before (jsonb `||` of an empty array leaves the array and its text as they were).
alter table audit_log add column client_address text;

create or replace function audit_log_content(e audit_log) returns text language sql immutable as $$
  select (jsonb_build_array(e.id, extract(epoch from e.at)::text, e.actor, e.action, e.target, e.details)
    || case when e.client_address is null then '[]'::jsonb else jsonb_build_array(e.client_address) end)::text
$$;

create index audit_log_target on audit_log (target, at desc);
