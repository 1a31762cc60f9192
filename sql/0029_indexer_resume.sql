-- A halt that only an operator may lift (`tollgate indexer resume`): a reorg deeper than the
-- network's finality or below the node's finalized block, or a node contradicting itself. Such a
-- halt outlives restarts; a halt of the configuration (a node of another chain) is lifted by a
-- restart with the right configuration, as before.
alter table indexer_cursors add column halt_needs_resume boolean not null default false;
-- Set by `tollgate indexer resume --allow-deep-reorg`: the next reorg walk-back may go past the
-- depth limit and the node's finalized block, once.
alter table indexer_cursors add column deep_reorg_allowed boolean not null default false;
