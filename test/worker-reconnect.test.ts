import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';

/**
 * The job worker's database connections are cut under it (as a Postgres restart or a failover
 * does): it goes on running jobs added afterwards, in the same process.
 */

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

/** A job that completes when it runs (a live AML rescan of nothing), and is gone then. */
async function probe(n: number): Promise<string> {
  const [job] = await db.sql<{ id: string }[]>`
    select id::text from graphile_worker.add_job('liveaml_rescan', json_build_object('probe', ${n}::int), max_attempts => 1)`;
  return job!.id;
}
const job = (id: string) => db.sql`select id from graphile_worker.jobs where id = ${id}`;

it('runs jobs again after every connection of the worker was cut, several times', async () => {
  const app = await startTestAppliance(
    db.url,
    {},
    { api: false, worker: true, indexer: false, devChain: false },
  );
  try {
    expect(
      await eventually(
        () => job(probeId0),
        (r) => r.length === 0,
        20_000,
      ),
    ).toEqual([]);
    for (let round = 1; round <= 3; round++) {
      const cut = await db.sql`select pg_terminate_backend(pid) from pg_stat_activity
        where application_name like 'tollgate-worker%' and datname = current_database() and pid <> pg_backend_pid()`;
      expect(cut.length).toBeGreaterThan(0);
      const id = await probe(round);
      expect(
        await eventually(
          () => job(id),
          (r) => r.length === 0,
          30_000,
        ),
        `job of round ${round} ran`,
      ).toEqual([]);
    }
  } finally {
    await app.stop();
  }
}, 120_000);

let probeId0: string;
beforeAll(async () => {
  probeId0 = await probe(0);
});
