-- Bitcoin-family chain data (bitcoin, litecoin, doge), partitioned by network (LIST) like the
-- EVM tables; the indexer creates each network's partitions on first start. Amounts are
-- integers in the smallest unit (satoshi, litoshi, koinu). Every table carries the block height,
-- so that a reorg deletes "everything above the ancestor" with one statement per table.
-- Keys include the height: Bitcoin has two transaction ids that occur twice (BIP 30). Prevout
-- lookups use the outputs' key (network, txid, vout, …); spent-by and balance indexes come with
-- the queries that need them.

create table utxo_blocks (
  network   text not null,
  height    bigint not null,
  hash      text not null,
  prev_hash text not null,               -- '' for the genesis block
  time      bigint not null,             -- block header time, Unix seconds
  tx_count  int not null,
  primary key (network, height)
) partition by list (network);

create table utxo_transactions (
  network      text not null,
  txid         text not null,
  block_height bigint not null,
  block_hash   text not null,
  tx_index     int not null,             -- 0 is the coinbase
  version      bigint not null,
  size         int not null,
  vsize        int not null,
  weight       int not null,
  locktime     bigint not null,
  fee          numeric(30, 0) not null,  -- inputs minus outputs; 0 for the coinbase
  hex          text not null,
  primary key (network, txid, block_height)
) partition by list (network);
create index utxo_transactions_block on utxo_transactions (network, block_height);

-- Inputs with the output each one spends (its "coin") resolved at indexing time, so that
-- webhooks, wallet history and AML never ask the node again. prev_* are null for a coinbase.
create table utxo_inputs (
  network        text not null,
  txid           text not null,
  vin            int not null,
  block_height   bigint not null,
  prev_txid      text,
  prev_vout      int,
  sequence       bigint not null,
  script         text not null,          -- scriptSig hex; the coinbase data for a coinbase input
  coinbase       boolean not null,
  prev_value     numeric(30, 0),
  prev_address   text,
  prev_script    text,
  prev_type      text,
  prev_req_sigs  int,
  prev_height    bigint,                 -- block height of the spent output
  prev_version   bigint,                 -- version of the transaction that created it
  prev_coinbase  boolean,                -- whether that transaction was a coinbase
  primary key (network, txid, vin, block_height)
) partition by list (network);
create index utxo_inputs_block on utxo_inputs (network, block_height);

create table utxo_outputs (
  network      text not null,
  txid         text not null,
  vout         int not null,
  block_height bigint not null,
  value        numeric(30, 0) not null,
  script       text not null,
  address      text,                     -- null when the script pays no single address
  type         text not null,
  req_sigs     int,
  primary key (network, txid, vout, block_height)
) partition by list (network);
create index utxo_outputs_block on utxo_outputs (network, block_height);

-- Every address a transaction touches (outputs it pays, coins its inputs spend): the join that
-- finds streamed addresses, and the wallet history index, newest first.
create table utxo_tx_addresses (
  network      text not null,
  address      text not null,
  block_number bigint not null,
  tx_hash      text not null,
  timestamp    bigint not null,
  primary key (network, address, block_number, tx_hash)
) partition by list (network);
create index utxo_tx_addresses_block on utxo_tx_addresses (network, block_number);
create index utxo_tx_addresses_history on utxo_tx_addresses (address, timestamp desc, network, block_number desc, tx_hash);
