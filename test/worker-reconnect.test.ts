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
async function probe(n: number, maxAttempts = 1): Promise<string> {
  const [job] = await db.sql<{ id: string }[]>`
    select id::text from graphile_worker.add_job('liveaml_rescan', json_build_object('probe', ${n}::int), max_attempts => ${maxAttempts}::int)`;
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

it('replaces a pool that shut itself down after failed job outcomes, and runs its jobs again', async () => {
  // Job failures cannot be recorded while refuse_outcomes has a row (graphile-worker records a
  // failure by unlocking the job), as when Postgres restarts just then; everything else works.
  await db.sql.unsafe(`
    create table refuse_outcomes (since timestamptz);
    create function refuse_job_outcome() returns trigger language plpgsql as $$
      begin
        if old.locked_by is not null and new.locked_by is null and exists (select 1 from refuse_outcomes) then
          raise exception 'job outcome refused';
        end if;
        return new;
      end $$;
    create trigger refuse_job_outcome before update on graphile_worker._private_jobs
      for each row execute function refuse_job_outcome();`);
  const app = await startTestAppliance(
    db.url,
    {},
    { api: false, worker: true, indexer: false, devChain: false },
  );
  const held = await db.sql.reserve();
  try {
    // What the start queued has run (the shipped labels' live AML rescan, say): only the four
    // below will wait on the lock.
    await eventually(
      () => db.sql`select id from graphile_worker.jobs`,
      (r) => r.length === 0,
      30_000,
    );
    // Four live AML rescans are held in their first read (a lock on the table they read).
    await held`begin`;
    await held`lock table liveaml_rescan_categories in access exclusive mode`;
    await db.sql`insert into refuse_outcomes values (now())`;
    const jobs = [await probe(1, 3), await probe(2, 3), await probe(3, 3), await probe(4, 3)];
    const waiting = () =>
      db.sql<{ pid: number }[]>`select pid from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query like '%liveaml_rescan_categories%'
        order by pid`;
    expect(
      await eventually(waiting, (r) => r.length === 4, 20_000),
      'the four jobs held',
    ).toHaveLength(4);
    // Each one fails in turn (its read cancelled), and its failure cannot be recorded. The first
    // makes the pool shut itself down, waiting for the others; with the second and third failed
    // batch before the fourth, graphile-worker 0.17's batcher miscounts and its runner never
    // settles (as seen when Postgres restarted while jobs ended).
    for (const { pid } of await waiting()) {
      await db.sql`select pg_cancel_backend(${pid})`;
      await new Promise((r) => setTimeout(r, 500));
    }
    await db.sql`delete from refuse_outcomes`;
    await held`rollback`;
    // A new pool runs a job added now, and the four again (the sweeper frees the old pool's).
    jobs.push(await probe(5, 3));
    const left = await eventually(
      () =>
        db.sql`select id::text, attempts, locked_by, last_error from graphile_worker.jobs where id in ${db.sql(jobs)}`,
      (r) => r.length === 0,
      60_000,
    );
    expect(left, 'jobs left').toEqual([]);
  } finally {
    held.release();
    await app.stop();
  }
}, 120_000);

let probeId0: string;
beforeAll(async () => {
  probeId0 = await probe(0);
});
