-- evm_tx_addresses and utxo_tx_addresses: one index fewer on the table every indexed transaction
-- writes to most (two rows or more per transaction). Each had a primary key (network, address,
-- block_number, tx_hash) beside the history index (address, timestamp desc, network, block_number
-- desc, tx_hash) that wallet history, exposure, explanations and replays read, and the block index
-- (network, block_number) that stream and live AML events, reorgs and backfills read. No statement
-- looks rows up by the primary key: every read by address goes through the history index. The key
-- only kept rows unique, and the history index does that as well when it is unique: it holds the
-- same columns plus the block's time, which is the same for every row of a block.
--
-- Measured (bench/README, "One index fewer"): the insert of 240,000 rows in batches of 6,000 took
-- about a third less time with two indexes than with three.
--
-- Building the unique index reads the whole table once, with writes to it blocked meanwhile (the
-- roles migrate before they start, so the indexer is not writing). Measured on 5,000,000 rows
-- (2.8 GB with their indexes; embedded Postgres, default settings): 8.8 s, and 1.7 GB after; it
-- grows with the table (a billion rows: half an hour or more, extrapolated). Physical
-- replication is not affected. A logical publication that includes these tables would need
-- REPLICA IDENTITY USING INDEX on each partition (the unique history index qualifies: every
-- column is not null).
create unique index evm_tx_addresses_history_unique
  on evm_tx_addresses (address, timestamp desc, network, block_number desc, tx_hash);
drop index evm_tx_addresses_history;
alter index evm_tx_addresses_history_unique rename to evm_tx_addresses_history;
alter table evm_tx_addresses drop constraint evm_tx_addresses_pkey;

create unique index utxo_tx_addresses_history_unique
  on utxo_tx_addresses (address, timestamp desc, network, block_number desc, tx_hash);
drop index utxo_tx_addresses_history;
alter index utxo_tx_addresses_history_unique rename to utxo_tx_addresses_history;
alter table utxo_tx_addresses drop constraint utxo_tx_addresses_pkey;
