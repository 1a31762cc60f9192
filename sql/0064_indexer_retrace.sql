-- A retrace (`tollgate indexer retrace`, the operations page): the network's active indexer reads
-- the call traces of stored blocks that were stored untraced (evm_blocks.traced false, or null:
-- stored before sql/0063) and adds their internal transfers, as history (no webhooks), from the
-- top of the range down. It is a job of indexer_backfills, so one job per network runs at a
-- time, it is listed, cancelled and resumed after a kill as a backfill is; `kind` tells them apart.
alter table indexer_backfills add column kind text not null default 'blocks'
  check (kind in ('blocks', 'traces'));
