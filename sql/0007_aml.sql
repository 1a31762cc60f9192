-- AML analysis (src/aml/): indexes for the exposure queries.
--
-- number_of_malicious_contracts_created: the contracts an address deployed, found from the
-- deployer (the address itself, or its counterparties one and two hops away). Partial: only
-- contract creations are indexed.
create index evm_transactions_deployer on evm_transactions (network, from_address, contract_address)
  where contract_address is not null;

-- The labels of a network (and the family-wide 'evm' ones), read whole when the two-hop search
-- hashes them rather than probing labels by address for every second-hop counterparty.
create index labels_network_address on labels (network, address, category);
