-- How the other VASP's TRP inquiry says its names were transliterated (IVMS101
-- payloadMetadata.transliterationMethod: codes such as cyrs, hani), as stated. Shown to the
-- compliance team beside the names, whose Latin spelling then follows that method; null where the
-- inquiry stated none and for transfers we began.
alter table travelrule_transactions
  add column counterparty_transliteration text[];
