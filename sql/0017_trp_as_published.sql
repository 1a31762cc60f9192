-- How an inquiry to this VASP writes a native coin's slip0044: the coin type as a number (the TRP
-- specification's form) or the coin symbol as a string ("ETH"), which TRISA-based peers read.
alter table vasps add column trp_slip0044 text not null default 'number'
  check (trp_slip0044 in ('number', 'symbol'));

-- TRP's request-identifier names the transfer and may take any form the other side gives it
-- (a UUID is common, not required): every message of a transfer carries the same one.
alter table travelrule_messages alter column request_id type text using request_id::text;
