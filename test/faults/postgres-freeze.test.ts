import { it } from 'vitest';
import { ownPostgresScenario } from './own-postgres.js';

it(
  'Postgres frozen mid-run, 2-3 times for up to 15 s (nothing refused, nothing answered): the roles wait it out, nothing lost, nothing wrong (streams and live AML)',
  ownPostgresScenario('postgres-freeze', { liveAml: true }, (pg, s) => pg.freezeAtRandom(s.rng)),
  480_000,
);
