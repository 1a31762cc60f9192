-- The audit log becomes tamper-evident: every entry carries the hash of the one before it and its
-- own, sha256(prev_hash || its content), so an entry edited or deleted afterwards breaks the
-- chain at that point (`tollgate audit verify`). The content is a jsonb array of the columns
-- (jsonb's text form does not depend on the session: no time zone, no key order).
alter table audit_log add column prev_hash text, add column hash text;

create function audit_log_content(e audit_log) returns text language sql immutable as $$
  select jsonb_build_array(e.id, extract(epoch from e.at)::text, e.actor, e.action, e.target, e.details)::text
$$;

create function audit_log_hash(prev text, e audit_log) returns text language sql immutable as $$
  select encode(sha256(convert_to(prev || audit_log_content(e), 'UTF8')), 'hex')
$$;

-- One writer at a time extends the chain: under the lock (held to commit) the entry takes the
-- next id, so ids follow the chain, and reads the last hash committed before it.
create function audit_log_chain() returns trigger language plpgsql as $$
declare
  last_hash text;
begin
  perform pg_advisory_xact_lock(hashtext('tollgate_audit_chain'));
  new.id := nextval(pg_get_serial_sequence('audit_log', 'id'));
  select hash into last_hash from audit_log order by id desc limit 1;
  new.prev_hash := coalesce(last_hash, '');
  new.hash := audit_log_hash(new.prev_hash, new);
  return new;
end $$;

-- The entries written so far, chained in their order.
lock table audit_log in share row exclusive mode;
do $$
declare
  e audit_log;
  last_hash text := '';
begin
  for e in select * from audit_log order by id loop
    update audit_log set prev_hash = last_hash, hash = audit_log_hash(last_hash, e) where id = e.id;
    last_hash := audit_log_hash(last_hash, e);
  end loop;
end $$;
create trigger audit_log_chain before insert on audit_log
  for each row execute function audit_log_chain();
