import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';

// Found by the fault suite (test/faults/kill.test.ts): a worker killed with -9 left the jobs it
// had fetched locked by its pool, and graphile-worker frees such locks only after 4 hours.

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

/** A job locked by `pool` since a minute ago (a live AML rescan: when it runs, it completes and is gone). */
async function lockedJob(pool: string, n: number): Promise<string> {
  const [job] = await db.sql<{ id: string }[]>`
    select id::text from graphile_worker.add_job('liveaml_rescan', json_build_object('probe', ${n}::int), max_attempts => 1)`;
  await db.sql`update graphile_worker._private_jobs set locked_by = ${pool}, locked_at = now() - interval '1 minute' where id = ${job!.id}`;
  return job!.id;
}

it("runs again, within seconds, the jobs a dead worker process had locked, and leaves a live one's alone", async () => {
  const dead = await lockedJob('pool-dead0000000000000000', 1);
  const live = await lockedJob('pool-live0000000000000000', 2);
  // A live pool holds its liveness lock (as every worker process does on its own pool id).
  const holder = await db.sql.reserve();
  await holder`select pg_advisory_lock(${0x746c67}::int, hashtext('pool-live0000000000000000'))`;
  const app = await startTestAppliance(
    db.url,
    {},
    { api: false, worker: true, indexer: false, devChain: false },
  );
  try {
    const job = (id: string) =>
      db.sql<
        { attempts: number; locked_by: string | null }[]
      >`select attempts, locked_by from graphile_worker.jobs where id = ${id}`;
    expect(
      await eventually(
        () => job(dead),
        (r) => r.length === 0,
        20_000,
      ),
    ).toEqual([]);
    await new Promise((r) => setTimeout(r, 6000)); // past a sweep: the live pool's job stays its own
    expect((await job(live))[0]).toEqual({ attempts: 0, locked_by: 'pool-live0000000000000000' });
  } finally {
    await app.stop();
    holder.release();
  }
});
