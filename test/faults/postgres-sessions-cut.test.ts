import { expect, it } from 'vitest';
import { ownPostgresScenario } from './own-postgres.js';

it(
  "the roles' database sessions ended 8-14 times mid-run, the server up (a DBA's kill, a pooler's failover), on a database with a DBA's own defaults: transactions in flight roll back and are retried, nothing lost, nothing wrong (streams and live AML)",
  ownPostgresScenario(
    'postgres-sessions-cut',
    {
      liveAml: true,
      // And a database a DBA configured with defaults of their own (Tollgate's sessions ask for
      // what they need; its limits stay in force).
      databaseSettings: {
        default_transaction_isolation: 'serializable',
        DateStyle: 'SQL, DMY',
        bytea_output: 'escape',
        IntervalStyle: 'sql_standard',
        statement_timeout: '30s',
        lock_timeout: '10s',
        idle_session_timeout: '5s',
        idle_in_transaction_session_timeout: '10s',
      },
    },
    (pg, s) => pg.cutAtRandom(s.rng),
    (s) => {
      // The server was up throughout and took every new connection at once: a connection that
      // timed out was one left unusable by a cut (postgres.js before patches/postgres+3.4.9.patch).
      for (const role of [s.roles.indexer, s.roles.worker]) {
        const timedOut = role
          .stderr()
          .split('\n')
          .filter((l) => /CONNECT_TIMEOUT|TypeError/.test(l));
        expect(timedOut, `${role.role}: connections that timed out after a cut`).toEqual([]);
      }
    },
  ),
  480_000,
);
