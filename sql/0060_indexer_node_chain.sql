-- The chain a Bitcoin-family network's node says it runs (getblockchaininfo: main, test, testnet4,
-- signet, regtest), recorded by its indexer at each start: a stream or live AML tracking of an
-- address of another chain (a testnet address on a mainnet node) is refused, since its webhook
-- would never be called. Null until recorded, and for EVM networks (one address form for all).
alter table indexer_cursors add column node_chain text;
