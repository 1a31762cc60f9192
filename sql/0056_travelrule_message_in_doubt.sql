-- travelrule_messages: when an attempt at the message first went out whole without an answer (a
-- TRP request whose answer never came, a mail whose relay's reply was lost): the other VASP may
-- have it. A message the transfer then moves past is recorded as such, not as "not sent".
alter table travelrule_messages add column in_doubt_at timestamptz;
