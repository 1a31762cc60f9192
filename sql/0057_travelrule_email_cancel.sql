-- travelrule_messages: 'email_cancel', the e-mail that tells a VASP reached by e-mail that a
-- transfer it was told of is cancelled (its view link opens nothing more). The table is small
-- (messages to other VASPs); the check is rebuilt with the one kind added.
alter table travelrule_messages drop constraint travelrule_messages_kind_check;
alter table travelrule_messages add constraint travelrule_messages_kind_check
  check (kind in ('trp_inquiry', 'trp_resolution', 'trp_confirmation', 'email_inquiry', 'email_tx_hash', 'email_cancel'));
