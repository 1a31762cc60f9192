-- The risk tags last announced (or found) for each address tracked for live AML, so that a label
-- import raises an event only for what it newly makes true. Updated by the transaction check and
-- by the rescan after an import.
create table liveaml_state (
  tracked_id bigint primary key references tracked_addresses (id) on delete cascade,
  risk_tags  text[] not null,
  updated_at timestamptz not null default now()
);
