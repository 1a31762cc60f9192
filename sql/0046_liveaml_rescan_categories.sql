-- The label categories changed since the last live AML rescan (src/aml/rescan-queue.ts). A rescan
-- announces as newly true only the risk tags of these categories: a tag of another category that
-- the address has newly (a transaction whose live AML check has not run yet, say) was not brought
-- by the label change, and its transaction's own check announces it.
-- A rescan removes the rows it read when it is done (a rescan that fails runs again with them);
-- a row queued again meanwhile has a later queued_at and stays for the next rescan.
create table liveaml_rescan_categories (
  category text primary key,
  queued_at timestamptz not null default clock_timestamp()
);
