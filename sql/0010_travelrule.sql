-- Travel Rule transactions and their history (src/travelrule/).
--
-- The IVMS101 payload (names, dates of birth, identity documents, addresses, account numbers) is
-- personal data and is stored only encrypted: AES-256-GCM, a fresh 12-byte nonce per row, the
-- row id as associated data (a ciphertext copied to another row does not decrypt), and the id of
-- the data key that sealed it so keys can rotate (src/travelrule/crypto.ts). Every other column
-- is what the lifecycle, listings and screening need, and holds no personal data.
--
-- The 13 statuses are the spec's; which moves between them are allowed is written once, in
-- src/travelrule/lifecycle.ts. Every move (and the creation) is a row of travelrule_history.
create table travelrule_transactions (
  id                  uuid primary key,        -- chosen by the application: the ciphertext is bound to it
  api_key_id          bigint not null references api_keys (id),
  direction           text not null check (direction in ('outgoing', 'incoming')),
  transaction_ref     text not null,           -- the caller's reference (send_tx_hash and send_address name it)
  asset               text not null,
  network             text,
  amount              numeric not null check (amount >= 0),  -- exact, as sent; read back as a decimal string
  decimals            int not null check (decimals between 0 and 255),
  beneficiary_vasp_id uuid,                    -- a uid of list_vasps
  -- The other VASP, once known: how it is reached and its own id of the transfer.
  counterparty_protocol text check (counterparty_protocol in ('trp', 'email')),
  counterparty_ref    text,
  status              text not null check (status in (
    'CREATED', 'REJECTED', 'APPROVED', 'COMPLETED', 'SCORE', 'PENDING', 'WAITING_TX_HASH',
    'OTHER_VASP_PENDING', 'OTHER_VASP_APPROVED', 'OTHER_VASP_REJECTED', 'WAITING_ADDRESS_DATA',
    'WAITING_FOR_CONFIRMATION', 'TRANSACTION_CONFIRMED')),
  tx_hash             text,
  ivms101_ciphertext  bytea not null,          -- ciphertext followed by the 16-byte GCM tag
  ivms101_nonce       bytea not null check (octet_length(ivms101_nonce) = 12),
  ivms101_key_id      text not null,
  -- AML screening of the parties' wallet addresses: scores (0-100, 100 = highest risk) and the
  -- tags found true. Not personal data.
  originator_score    smallint check (originator_score between 0 and 100),
  beneficiary_score   smallint check (beneficiary_score between 0 and 100),
  screening           jsonb check (jsonb_typeof(screening) = 'object'),
  screened_at         timestamptz,
  threshold_note      text,                    -- above / below the Travel Rule threshold (later)
  created_at          timestamptz not null default now(),
  updated_at          timestamptz not null default now(),
  unique (api_key_id, transaction_ref)
);
-- A key's transactions, newest first.
create index travelrule_transactions_key on travelrule_transactions (api_key_id, created_at desc, id desc);
-- The operator's queues: transactions in a status, oldest first.
create index travelrule_transactions_status on travelrule_transactions (status, created_at, id);

-- Every status a transaction took, who moved it and why. from_status is null for the creation.
create table travelrule_history (
  id             bigserial primary key,
  transaction_id uuid not null references travelrule_transactions (id),
  from_status    text,
  to_status      text not null,
  trigger        text not null,                -- the lifecycle edge taken (create_tx, operator_accept, …)
  actor_type     text not null check (actor_type in ('api_key', 'operator', 'counterparty', 'system')),
  actor_id       text not null,
  reason         text,
  at             timestamptz not null default clock_timestamp()
);
create index travelrule_history_transaction on travelrule_history (transaction_id, id);
