import { runOnce } from 'graphile-worker';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enqueueJob, JOBS } from '../src/db/jobs.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';

/** enqueueJob writes what the task's contract says: the payload as a JSON object, the options. */

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

it('writes the payload as an object with the contract options, and a job key replaces', async () => {
  await enqueueJob(db.sql, 'travelrule_send', { message_id: '42' }, { jobKey: 'trm:42' });
  await enqueueJob(db.sql, 'liveaml_rescan', {}, { jobKey: 'liveaml_rescan' });
  await enqueueJob(db.sql, 'liveaml_rescan', {}, { jobKey: 'liveaml_rescan' });
  const jobs = await db.sql<{ task: string; max_attempts: number; priority: number }[]>`
    select task_identifier as task, max_attempts, priority from graphile_worker.jobs order by id`;
  expect(jobs).toEqual([
    { task: 'travelrule_send', max_attempts: JOBS.travelrule_send.maxAttempts, priority: 0 },
    { task: 'liveaml_rescan', max_attempts: 25, priority: 0 },
  ]);
  // What the tasks receive, through graphile-worker itself.
  const received: Record<string, unknown[]> = { travelrule_send: [], liveaml_rescan: [] };
  await runOnce({
    connectionString: db.url,
    noPreparedStatements: true,
    taskList: {
      travelrule_send: async (payload) => void received.travelrule_send!.push(payload),
      liveaml_rescan: async (payload) => void received.liveaml_rescan!.push(payload),
    },
  });
  expect(received).toEqual({ travelrule_send: [{ message_id: '42' }], liveaml_rescan: [{}] });
  // runOnce returns before its completions are written: wait for them, so that dropping the
  // database afterwards does not cut one off.
  await eventually(
    async () =>
      (await db.sql<{ n: number }[]>`select count(*)::int as n from graphile_worker.jobs`)[0]!.n,
    (n) => n === 0,
    10_000,
  );
  // The parsed payload is what the task file reads.
  expect(JOBS.travelrule_send.payload.parse(received.travelrule_send![0])).toEqual({
    message_id: '42',
  });
});
