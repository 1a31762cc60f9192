import { it } from 'vitest';
import { ownPostgresScenario } from './own-postgres.js';

it(
  'Postgres restarted mid-run, 2-3 times: the roles ride it out in-process, nothing lost, nothing wrong (streams and live AML)',
  ownPostgresScenario('postgres-restart', { liveAml: true }, (pg, s) => pg.restartAtRandom(s.rng)),
  480_000,
);
