-- AML label data: what the VASP knows about addresses (OFAC SDN lists shipped in config/labels/,
-- its own CSV files), and a record of every import for the operators.

-- The spec's base AML tags that a label can carry (new_wallet and
-- number_of_malicious_contracts_created are computed from chain data, never labelled).
create table label_categories (
  category text primary key
);
insert into label_categories (category) values
  ('mixer'), ('fake_kyc'), ('cybercrime'), ('sanctioned'), ('financial_crime'), ('stealing_attack'),
  ('money_laundering'), ('gambling_accounts'), ('blacklisted_tokens'), ('phishing_activities'),
  ('blacklisted_accounts'), ('blackmail_activities'), ('darkweb_transactions'), ('invalid_tokens');

-- One label: "this source says this address is <category>".
-- network is a network symbol (bitcoin, trx, eth, …), or 'evm' for a family-wide EVM label:
-- the same key controls an EVM address on every EVM network, so a sanctioned EVM address
-- (every OFAC EVM list) is one 'evm' row that covers eth, bsc, polygon, avalanche, arb, op and
-- any EVM network added later. A row under an EVM symbol ('bsc') covers that network only.
-- Lookups for an EVM network read both its own rows and the 'evm' rows.
-- address is the stored form of src/chains/address (EVM lower-case, others as validated).
-- lists names the source's lists that carry the label (OFAC: the asset files, e.g. {ETH,USDT});
-- a list import that no longer contains the address removes its list, and the row goes with
-- the last one. Labels from CSV files have no lists.
create table labels (
  id         bigserial primary key,
  network    text not null check (network ~ '^[a-z0-9_]+$'),
  address    text not null check (length(address) between 1 and 256),
  category   text not null references label_categories (category),
  source     text not null check (length(source) between 1 and 100),
  name       text not null default '',
  lists      text[] not null default '{}',
  added_at   timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (network, address, category, source)
);
create index labels_address_network on labels (address, network);
create index labels_category on labels (category);
create index labels_source on labels (source);

-- Every import, for the operators (`tollgate labels stats`), and the content hash that lets the
-- start-up import of config/labels/ skip a file that has not changed since it last succeeded.
create table label_imports (
  id             bigserial primary key,
  source         text not null,
  file           text not null,                 -- as given (CLI) or relative to the project (shipped)
  format         text not null check (format in ('ofac', 'csv')),
  list           text,                          -- OFAC: the asset of the file (ETH, XBT, …)
  content_sha256 text not null,
  status         text not null default 'running' check (status in ('running', 'succeeded', 'failed')),
  started_at     timestamptz not null default now(),
  finished_at    timestamptz,
  rows_read      int not null default 0,        -- address lines (CSV: data rows)
  inserted       int not null default 0,        -- label rows added
  updated        int not null default 0,        -- label rows whose name or lists changed
  unchanged      int not null default 0,        -- label rows already stored as they are
  removed        int not null default 0,        -- label rows of the list no longer in it (de-listed)
  duplicates     int not null default 0,        -- lines repeating an earlier line of the file
  refused        int not null default 0,        -- lines refused (invalid address, category, network)
  skipped        int not null default 0,        -- lines for no network of Tollgate (e.g. OFAC BCH)
  problems       jsonb not null default '{}',   -- {refused: [{line, reason}] (first 1000), skipped: [{reason, lines}]}
  error          text
);
create index label_imports_file on label_imports (file, finished_at desc) where status = 'succeeded';
