-- create_tx may name the beneficiary's Travel Address (ta…, lnurl1…, or an https URL): the
-- inquiry goes there, whatever the directory says.
alter table travelrule_transactions add column beneficiary_travel_address text;
