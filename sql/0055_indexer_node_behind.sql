-- indexer_cursors: whether the network's node is behind the network (its newest block older than
-- the network's limit once the indexer has reached it: the node stopped following the chain, or
-- is still syncing), as the indexer last found it; /readyz, `tollgate indexer status`, /metrics
-- and the operations page read it. A column added without a default: no table rewrite.
alter table indexer_cursors
  add column node_behind text,
  add column node_behind_since timestamptz;
