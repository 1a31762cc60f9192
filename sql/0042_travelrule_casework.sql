-- The compliance team's casework on a travel rule transaction: who is on it, and their notes.
--
-- assigned_to: the operator working the case (a reviewer or an admin), null when nobody is.
-- Notes are free text that may name persons: sealed with the data key like the IVMS101 payload
-- (AES-256-GCM bound to the note's id; re-sealed by `tollgate data-key rotate`), append-only,
-- never logged and never put in the audit log (its entry names the note's id).
alter table travelrule_transactions
  add column assigned_to bigint references operators (id),
  add column assigned_at timestamptz;
create index travelrule_transactions_assigned on travelrule_transactions (assigned_to, created_at, id)
  where assigned_to is not null;

create table travelrule_notes (
  id              uuid primary key,          -- chosen by the application: the ciphertext is bound to it
  transaction_id  uuid not null references travelrule_transactions (id),
  author          text not null,             -- the operator's login
  body_sealed     bytea not null,
  body_nonce      bytea not null,
  body_key_id     text not null,
  created_at      timestamptz not null default now()
);
create index travelrule_notes_transaction on travelrule_notes (transaction_id, created_at);

-- The queue's "has a failed message" filter and count.
create index travelrule_messages_failed on travelrule_messages (transaction_id) where status = 'failed';
