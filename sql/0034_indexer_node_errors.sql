-- The last failure of each network's node as its indexer saw it (a node that does not answer, or
-- answers with errors), so that /readyz in any process can say why a network is not indexed.
-- Written by the active indexer while its node fails (at most every few seconds), removed when
-- the node answers again. `node` is scheme://host:port only: never credentials or a path.
create table indexer_node_errors (
  network   text primary key,
  node      text not null,
  error     text not null,
  since     timestamptz not null default now(),
  seen_at   timestamptz not null default now()
);
