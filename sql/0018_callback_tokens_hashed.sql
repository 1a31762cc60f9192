-- A transfer's callback token is now made from its id with a key derived from the data key
-- (src/travelrule/callback-token.ts), so none is stored for new transfers. The random tokens of
-- transfers begun before are kept only as their SHA-256: a copy of the database can no longer
-- post to their callbacks.
update travelrule_transactions
set callback_token = encode(sha256(convert_to(callback_token, 'UTF8')), 'hex')
where callback_token is not null;
