-- A live AML tracking created with from_block: its past transactions from that block on are
-- checked first, in chain order, by the liveaml_replay job. While it is set, the live checks of
-- the address leave their transactions to the replay (which reads up to the cursors until it has
-- caught up), so every alert of the past comes before any live one.
alter table tracked_addresses add column aml_replay_from bigint;
