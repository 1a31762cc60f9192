-- Which counterparty of the transaction made a live AML event risky (src/liveaml/check.ts): per
-- true tag, the counterparty, the labelled address (itself for direct_, one hop further for
-- indirect_) and the label sources, at most ten per tag. Empty for events of a label change.
alter table liveaml_events add column triggered_by jsonb not null default '[]'
  check (jsonb_typeof(triggered_by) = 'array');
