-- What the other VASP's TRP inquiry said of itself (IVMS101 originatingVASP): its legal name and
-- its LEI, as stated (not checked against the VASP directory). Shown to the compliance team beside
-- the directory's name; null where it stated none and for transfers we began.
alter table travelrule_transactions
  add column counterparty_stated_name text,
  add column counterparty_stated_lei text;
