import { expect, it } from 'vitest';
import { ownPostgresScenario } from './own-postgres.js';

it(
  "the roles' database sessions ended 8-14 times mid-run, the server up (a DBA's kill, a pooler's failover): transactions in flight roll back and are retried, nothing lost, nothing wrong (streams and live AML)",
  ownPostgresScenario(
    'postgres-sessions-cut',
    { liveAml: true },
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
