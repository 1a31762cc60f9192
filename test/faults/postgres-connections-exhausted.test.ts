import { expect, it } from 'vitest';
import { sleep } from './harness.js';
import { ownPostgresScenario } from './own-postgres.js';

/** Whether the roles write warnings (TEST_LOG_LEVEL, warn by default in this suite: roles.ts). */
const rolesLogWarnings = ['trace', 'debug', 'info', 'warn'].includes(
  process.env.TEST_LOG_LEVEL ?? 'warn',
);

/**
 * A log line of a connection the server refused for want of a slot: the error's code, Postgres's
 * words (in a start's reason), or databaseBusy's (src/db/unavailable.ts).
 */
const REFUSED =
  /\(53300\)|too many clients already|remaining connection slots are reserved|no free database connection/;

/**
 * Waits (up to 30 s) for the role's newest process to log a refused connection; false at once when
 * the roles log no warnings (nothing to see), or when none came in that time.
 */
async function refusedOnce(stderr: () => string): Promise<boolean> {
  if (!rolesLogWarnings) return false;
  for (const until = Date.now() + 30_000; Date.now() < until; await sleep(100))
    if (REFUSED.test(stderr())) return true;
  return false;
}

it(
  "another application takes every connection slot of the server, 2-3 times for up to 12 s, while the roles' sessions are cut or a role restarts: new connections are refused (53300), open ones work; the roles wait it out, nothing lost, nothing wrong (streams and live AML)",
  ownPostgresScenario(
    'postgres-connections-exhausted',
    {
      liveAml: true,
      // A DBA's idle_session_timeout: the roles' pools have idle connections closed after 4 s and open
      // new ones (src/db/idle-sessions.ts), so they meet the full server on their own too.
      databaseSettings: { idle_session_timeout: '4s' },
    },
    (pg, { rng, roles: { indexer, worker } }) =>
      pg.exhaustAtRandom(rng, async (hog) => {
        if (rng.chance(0.5)) {
          // The roles stopped while their sessions end and the slots go to the other
          // application: every connection of theirs (pools, LISTEN, the lock sessions,
          // graphile-worker's) is opened again against the full server.
          const cut = await indexer.frozenWhile(() => worker.frozenWhile(() => hog.cutOthers()));
          return `${cut} sessions of the roles cut`;
        }
        // A role restarting meanwhile (kill -9): its start finds no connection to have. The
        // slots stay taken until it has met the full server (a process takes a second or more
        // to load before it connects, which may outlast a short exhaustion: seen on CI,
        // FAULT_SEED=1013042505, two restarts whose starts all came after the slots were free).
        const role = rng.pick([indexer, worker]);
        await role.kill();
        await sleep(rng.int(0, 1000));
        role.start();
        const met = await refusedOnce(() => role.stderr());
        return `${role.role} restarted${met ? ', refused at its start' : ''}`;
      }),
    ({ roles }) => {
      if (!rolesLogWarnings) return;
      // The fault reached Tollgate: the server refused its connections (and it carried on).
      const refused = [roles.indexer, roles.worker].flatMap((r) =>
        r
          .output()
          .split('\n')
          .filter((l) => REFUSED.test(l)),
      );
      console.log(`[faults] roles' log lines of refused connections: ${refused.length}`);
      expect(refused.length, 'log lines of connections the full server refused').toBeGreaterThan(0);
      // Waited out, so not an error: graphile-worker's lines of what it tries again by itself
      // (its notify listener refused, say) are warnings like Tollgate's own.
      const errors = [roles.indexer, roles.worker].flatMap((r) =>
        r
          .output()
          .split('\n')
          .filter((l) => l.includes('"level":50')),
      );
      console.log(`[faults] roles' error-level lines: ${errors.length}\n${errors.join('\n')}`);
      expect(errors.filter((l) => l.includes('"graphile_worker":true'))).toEqual([]);
    },
  ),
  480_000,
);
