-- number_of_malicious_contracts_created ("deployed a contract that carries a label") kept as a
-- label of the deployer, source 'derived:deployer', on the deployment's network: the stored
-- exposure (sql/0025) then counts it at one and two hops like any other category, and
-- /analyze/aml no longer walks evm_transactions for it. Kept by triggers when a contract's label
-- changes and when a contract creation is indexed or reorged away; both take the network's
-- exposure lock first, as edges and labels do. A derived label never makes its own deployer a
-- deployer of a labelled contract (only labels of other sources count).
insert into label_categories (category) values ('number_of_malicious_contracts_created')
  on conflict do nothing;
create index evm_transactions_contract on evm_transactions (contract_address, network)
  where contract_address is not null;

-- Brings the derived labels of `p_deployers` on a network in line with their deployments.
create function deployer_labels_sync(p_network text, p_deployers text[]) returns void language plpgsql as $$
begin
  delete from labels l
  where l.network = p_network and l.source = 'derived:deployer' and l.address = any(p_deployers)
    and not exists (
      select 1 from evm_transactions t
        join labels c on c.address = t.contract_address and c.network = any(label_scopes(p_network))
          and c.source <> 'derived:deployer'
      where t.network = p_network and t.from_address = l.address and t.contract_address is not null);
  insert into labels (network, address, category, source, name)
  select distinct on (t.from_address) p_network, t.from_address, 'number_of_malicious_contracts_created',
    'derived:deployer', 'deployed ' || t.contract_address || ' (' || c.category || ', ' || c.source || ')'
  from evm_transactions t
    join labels c on c.address = t.contract_address and c.network = any(label_scopes(p_network))
      and c.source <> 'derived:deployer'
  where t.network = p_network and t.from_address = any(p_deployers) and t.contract_address is not null
  order by t.from_address, t.contract_address, c.source
  on conflict (network, address, category, source) do nothing;
end $$;

-- A label on a contract (or its removal): the contract's deployers.
create function deployer_labels_on_labels() returns trigger language plpgsql as $$
declare
  r record;
begin
  perform exposure_lock_for_labels((select jsonb_agg(to_jsonb(c)) from changed_rows c where c.source <> 'derived:deployer'));
  for r in
    select t.network, array_agg(distinct t.from_address) as deployers
    from changed_rows c
      join evm_transactions t on t.contract_address = c.address and t.network = any(
        select f.network from network_families f where f.network = c.network or (c.network = 'evm' and f.family = 'evm'))
    where c.source <> 'derived:deployer'
    group by t.network order by t.network
  loop
    perform deployer_labels_sync(r.network, r.deployers);
  end loop;
  return null;
end $$;

create trigger labels_deployers_insert after insert on labels
  referencing new table as changed_rows for each statement execute function deployer_labels_on_labels();
create trigger labels_deployers_delete after delete on labels
  referencing old table as changed_rows for each statement execute function deployer_labels_on_labels();

-- A contract creation indexed or reorged away: its deployer.
create function deployer_labels_on_transactions() returns trigger language plpgsql as $$
declare
  n text;
  r record;
begin
  -- The lock before the labels are read: a contract labelled in a concurrent transaction is
  -- then either seen here or sees this creation.
  for n in select distinct c.network from changed_txs c where c.contract_address is not null order by 1 loop
    perform exposure_lock(n);
  end loop;
  for r in
    select c.network, array_agg(distinct c.from_address) as deployers
    from changed_txs c
    where c.contract_address is not null
      and exists (select 1 from labels l where l.address = c.contract_address
                  and l.network = any(label_scopes(c.network)) and l.source <> 'derived:deployer')
    group by c.network order by c.network
  loop
    perform deployer_labels_sync(r.network, r.deployers);
  end loop;
  return null;
end $$;

create trigger evm_transactions_deployers_insert after insert on evm_transactions
  referencing new table as changed_txs for each statement execute function deployer_labels_on_transactions();
create trigger evm_transactions_deployers_delete after delete on evm_transactions
  referencing old table as changed_txs for each statement execute function deployer_labels_on_transactions();

-- The deployers already indexed.
select deployer_labels_sync(n.network, array(
  select distinct t.from_address from evm_transactions t
  where t.network = n.network and t.contract_address is not null))
from (select distinct network from evm_transactions) n;
