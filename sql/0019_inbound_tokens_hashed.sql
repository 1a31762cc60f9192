-- A VASP's inbound token (the secret part of the URL it sends TRP inquiries to) is kept only as
-- its SHA-256, like an API key: it is shown once, when it is made (vasps add, rotate-token, the
-- dashboard), and a copy of the database cannot be used to pose as a VASP.
alter table vasps add column inbound_token_hash text;
update vasps set inbound_token_hash = encode(sha256(convert_to(inbound_token, 'UTF8')), 'hex');
alter table vasps alter column inbound_token_hash set not null;
alter table vasps add constraint vasps_inbound_token_hash_key unique (inbound_token_hash);
alter table vasps drop column inbound_token;
