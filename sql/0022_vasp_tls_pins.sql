-- Mutual TLS for TRP: the SHA-256 fingerprints of the TLS certificates a directory VASP uses
-- (upper-case hex pairs joined by ':', as Node's fingerprint256). Its server must present one
-- of them when this appliance sends it a message, and its messages to this appliance are taken
-- only from a connection that presented one (src/travelrule/peer.ts). More than one during a
-- certificate change. A fingerprint names one VASP only: it is how a message on a Travel
-- Address finds out which VASP sent it.
alter table vasps add column trp_tls_fingerprints text[] not null default '{}';
create index vasps_trp_tls_fingerprints on vasps using gin (trp_tls_fingerprints);
