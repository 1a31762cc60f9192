-- Deposits whose originator VASP gave a transaction hash after the transfer had ended here
-- (REJECTED or OTHER_VASP_REJECTED): the history keeps its word as a row from the status to
-- itself, trigger counterparty_tx_hash_late (src/travelrule/deposit.ts). The operations page lists
-- them, newest first, on every load: this index keeps that a read of those few rows instead of a
-- scan of the whole history.
create index travelrule_history_late_tx_hash on travelrule_history (id)
  where trigger = 'counterparty_tx_hash_late';
