-- Each delivery writes its event's row three times (claimed, body frozen, recorded). The first
-- two change no indexed column, so Postgres can write them as HOT updates (no index entries)
-- when the row's page has room for the new version: leave room. Pages written from now on.
alter table webhook_events set (fillfactor = 50);
