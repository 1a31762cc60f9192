import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import {
  appCounts,
  deleteJob,
  failedJobs,
  givenUpDeliveries,
  jobQueueCounts,
  recentDeliveryFailures,
  redeliver,
  retryJob,
} from '../src/monitoring/status.js';
import type { Sql } from '../src/db/index.js';
import { startTestAppliance } from './helpers/appliance.js';
import { fundedWallet, randomAddress } from './helpers/chain.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { Receiver } from './helpers/receiver.js';

/** Adds a job (no worker runs on this database) and returns its id. */
async function addJob(
  sql: Sql,
  task: string,
  payload: object = {},
  opts: { key?: string; maxAttempts?: number } = {},
): Promise<string> {
  const [job] = await sql<{ id: string }[]>`
    select id::text from graphile_worker.add_job(${task}, ${sql.json(payload as never)}::json, max_attempts => ${opts.maxAttempts ?? 5}::int, job_key => ${opts.key ?? null}::text)`;
  return job!.id;
}

async function makeFailed(sql: Sql, id: string, error = 'boom'): Promise<void> {
  await sql`update graphile_worker._private_jobs set attempts = max_attempts, last_error = ${error} where id = ${id}`;
}

async function insertEvent(sql: Sql, apiKeyId: string, status: string): Promise<string> {
  const [ev] = await sql<{ id: string }[]>`
    insert into webhook_events (kind, api_key_id, network, address, tx_hash, block_number, block_hash, confirmed, status, attempts, body)
    values ('stream', ${apiKeyId}, 'eth', '0xabc', ${'0x' + Math.random().toString(16).slice(2)}, 1, '0xb1', false, ${status}, 2, '{"x":1}')
    returning id`;
  return ev!.id;
}

describe('operations status (database)', () => {
  let db: TestDatabase;
  let keyId: string;

  beforeAll(async () => {
    db = await freshDatabase();
    keyId = (await createApiKey(db.sql, 'ops')).id;
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('counts queued, running and failed jobs per task, listing every known task', async () => {
    const sql = db.sql;
    await addJob(sql, 'liveaml_check');
    await addJob(sql, 'liveaml_check');
    const running = await addJob(sql, 'liveaml_check');
    await sql`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'w1', attempts = 1 where id = ${running}`;
    await makeFailed(sql, await addJob(sql, 'fetch_nft_metadata'));
    // On its last attempt and locked: running, not failed.
    const last = await addJob(sql, 'fetch_nft_metadata', {}, { maxAttempts: 1 });
    await sql`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'w1', attempts = 1 where id = ${last}`;

    const counts = await jobQueueCounts(sql);
    expect(counts.map((c) => c.task)).toEqual(
      expect.arrayContaining([
        'fetch_nft_metadata',
        'liveaml_check',
        'liveaml_rescan',
        'travelrule_send',
      ]),
    );
    const of = (task: string) => counts.find((c) => c.task === task);
    expect(of('liveaml_check')).toEqual({
      task: 'liveaml_check',
      queued: 2,
      running: 1,
      failed: 0,
    });
    expect(of('fetch_nft_metadata')).toEqual({
      task: 'fetch_nft_metadata',
      queued: 0,
      running: 1,
      failed: 1,
    });
    expect(of('travelrule_send')).toEqual({
      task: 'travelrule_send',
      queued: 0,
      running: 0,
      failed: 0,
    });
  });

  it('lists failed jobs newest first with the error cut to 300 characters', async () => {
    const sql = db.sql;
    const older = await addJob(sql, 'liveaml_rescan');
    await makeFailed(sql, older, 'x'.repeat(1000));
    await sql`update graphile_worker._private_jobs set created_at = now() - interval '1 hour' where id = ${older}`;
    const newer = await addJob(sql, 'liveaml_rescan');
    await makeFailed(sql, newer, 'short');
    const failed = await failedJobs(sql);
    const ids = failed.map((f) => f.id);
    expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
    const o = failed.find((f) => f.id === older)!;
    expect(o).toMatchObject({ task: 'liveaml_rescan', attempts: 5, max_attempts: 5 });
    expect(o.last_error).toHaveLength(300);
    expect(o.created_at).toBeInstanceOf(Date);
    expect(o.run_at).toBeInstanceOf(Date);
    expect(failed.find((f) => f.id === newer)!.last_error).toBe('short');
    expect((await failedJobs(sql, 1)).length).toBe(1);
  });

  it('retries a failed job now with its attempts reset', async () => {
    const sql = db.sql;
    const id = await addJob(sql, 'liveaml_rescan', { tracked_id: 1 });
    await makeFailed(sql, id);
    await sql`update graphile_worker._private_jobs set run_at = now() + interval '1 day' where id = ${id}`;

    expect(await retryJob(sql, id)).toBe(true);
    const [job] =
      await sql`select attempts, run_at <= now() as due, locked_at from graphile_worker._private_jobs where id = ${id}`;
    expect(job).toMatchObject({ attempts: 0, due: true, locked_at: null });
    expect((await failedJobs(sql)).some((f) => f.id === id)).toBe(false);

    expect(await retryJob(sql, id)).toBe(false); // not failed any more
    expect(await retryJob(sql, '999999999')).toBe(false);
    expect(await retryJob(sql, 'not-an-id')).toBe(false);
  });

  it('deletes only a failed job', async () => {
    const sql = db.sql;
    const queued = await addJob(sql, 'liveaml_check');
    expect(await deleteJob(sql, queued)).toBe(false);
    const failed = await addJob(sql, 'liveaml_check');
    await makeFailed(sql, failed);
    expect(await deleteJob(sql, failed)).toBe(true);
    expect(
      await sql`select 1 from graphile_worker._private_jobs where id = ${failed}`,
    ).toHaveLength(0);
    expect(await deleteJob(sql, failed)).toBe(false);
    expect(await deleteJob(sql, 'x')).toBe(false);
  });

  it('lists recent failed delivery attempts, newest first, with URLs stripped of credentials and query', async () => {
    const sql = db.sql;
    const eventId = await insertEvent(sql, keyId, 'failed');
    await sql`insert into webhook_deliveries (event_id, attempt, url, status_code, duration_ms, error, created_at) values
      (${eventId}, 1, 'https://user:secret@hooks.example.com:8443/in?token=abc#frag', 500, 120, 'HTTP 500', now() - interval '2 minutes'),
      (${eventId}, 2, 'https://hooks.example.com/in', null, 10000, 'timeout', now() - interval '1 minute')`;
    const okEvent = await insertEvent(sql, keyId, 'delivered');
    await sql`insert into webhook_deliveries (event_id, attempt, url, status_code, duration_ms) values (${okEvent}, 1, 'https://ok.example.com/', 204, 30)`;

    const failures = await recentDeliveryFailures(sql);
    expect(failures.some((f) => f.event_id === okEvent)).toBe(false);
    const mine = failures.filter((f) => f.event_id === eventId);
    expect(mine).toHaveLength(2);
    expect(mine[0]).toMatchObject({
      kind: 'stream',
      url: 'https://hooks.example.com/in',
      status_code: null,
      error: 'timeout',
      attempts: 2,
      event_status: 'failed',
    });
    expect(mine[1]).toMatchObject({
      url: 'https://hooks.example.com:8443/in',
      status_code: 500,
      error: 'HTTP 500',
    });
    expect(mine[0]!.at).toBeInstanceOf(Date);
    expect(JSON.stringify(failures)).not.toMatch(/secret|token=abc/);
  });

  it('redelivers only a failed event, due now, with a new allowance of attempts', async () => {
    const sql = db.sql;
    const delivered = await insertEvent(sql, keyId, 'delivered');
    expect(await redeliver(sql, delivered, 3)).toBe(false);
    expect(await redeliver(sql, 'not-a-uuid', 3)).toBe(false);
    expect(await redeliver(sql, '00000000-0000-4000-8000-000000000000', 3)).toBe(false);

    const failed = await insertEvent(sql, keyId, 'failed');
    await sql`update webhook_events set gave_up_at = now() where id = ${failed}`;
    expect((await givenUpDeliveries(sql)).map((g) => g.event_id)).toContain(failed);
    expect(await redeliver(sql, failed, 3)).toBe(true);
    const [ev] =
      await sql`select status, attempts, max_attempts, next_attempt_at <= now() as due, gave_up_at from webhook_events where id = ${failed}`;
    expect(ev).toMatchObject({
      status: 'pending',
      attempts: 2,
      max_attempts: 5,
      due: true,
      gave_up_at: null,
    });
    expect((await givenUpDeliveries(sql)).map((g) => g.event_id)).not.toContain(failed);
    expect(await redeliver(sql, failed, 3)).toBe(false); // pending now
  });

  it('counts streams, live AML trackings and labels per source with the last import', async () => {
    const sql = db.sql;
    const before = await appCounts(sql);
    await sql`insert into tracked_addresses (api_key_id, address, family, stream_webhook, aml_webhook) values
      (${keyId}, '0x01', 'evm', 'https://a.example/', null),
      (${keyId}, '0x02', 'evm', 'https://a.example/', 'https://b.example/'),
      (${keyId}, '0x03', 'evm', null, 'https://b.example/'),
      (${keyId}, '0x04', 'evm', null, 'https://b.example/')`;
    await sql`insert into labels (network, address, category, source) values
      ('eth', '0xaa', 'mixer', 'ops-test-a'), ('eth', '0xbb', 'mixer', 'ops-test-a'), ('eth', '0xcc', 'phishing_activities', 'ops-test-b')`;
    await sql`insert into label_imports (source, file, format, content_sha256, status, finished_at) values
      ('ops-test-a', 'a.csv', 'csv', 'h1', 'succeeded', '2024-01-01T00:00:00Z'),
      ('ops-test-a', 'a.csv', 'csv', 'h2', 'succeeded', '2024-02-01T00:00:00Z'),
      ('ops-test-a', 'a.csv', 'csv', 'h3', 'failed', '2024-03-01T00:00:00Z')`;
    const after = await appCounts(sql);
    expect(after.streams - before.streams).toBe(2);
    expect(after.liveaml - before.liveaml).toBe(3);
    expect(after.labels.find((l) => l.source === 'ops-test-a')).toEqual({
      source: 'ops-test-a',
      count: 2,
      last_import_at: new Date('2024-02-01T00:00:00Z'),
    });
    expect(after.labels.find((l) => l.source === 'ops-test-b')).toEqual({
      source: 'ops-test-b',
      count: 1,
      last_import_at: null,
    });
  });
});

describe('redeliver with a real worker', () => {
  let db: TestDatabase;
  let app: Awaited<ReturnType<typeof startTestAppliance>>;
  let receiver: Receiver;

  beforeAll(async () => {
    db = await freshDatabase();
    app = await startTestAppliance(db.url, { TOLLGATE_WEBHOOK_MAX_ATTEMPTS: '1' });
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await app?.stop();
    await receiver?.stop();
    await db?.drop();
  });

  it('sends a failed event again with the same webhook-id and body', async () => {
    const key = await createApiKey(db.sql, 'redeliver');
    const to = randomAddress();
    const res = await call(app.baseUrl, 'POST', '/v2/stream/create', {
      headers: { apikey: key.apikey },
      body: { address: to, webhook: receiver.url },
    });
    expect(res.json).toMatchObject({ code: 0 });
    // The first (unconfirmed) delivery is answered 500: with one attempt allowed, the event fails.
    let refused = false;
    receiver.respond = (r) => {
      if (refused || r.json?.confirmed !== false) return 200;
      refused = true;
      return 500;
    };

    const w = await fundedWallet();
    const receipt = await w.send(to, 10n ** 15n);
    const mine = () =>
      receiver.received.filter(
        (r) => r.json?.tx?.hash === receipt.transactionHash && r.json?.confirmed === false,
      );
    await receiver.waitFor(() => mine().length >= 1);
    const first = mine()[0]!;
    const eventId = first.headers['webhook-id']!.replace(/^msg_/, '');
    await vi.waitFor(
      async () => {
        const [ev] = await db.sql`select status from webhook_events where id = ${eventId}`;
        expect(ev!.status).toBe('failed');
        expect((await givenUpDeliveries(db.sql)).find((g) => g.event_id === eventId)).toMatchObject(
          { kind: 'stream', attempts: 1, url: receiver.url },
        );
      },
      { timeout: 15_000, interval: 100 },
    );
    const failure = (await recentDeliveryFailures(db.sql)).find((f) => f.event_id === eventId);
    expect(failure).toMatchObject({ status_code: 500, event_status: 'failed', url: receiver.url });

    expect(await redeliver(db.sql, eventId, 1)).toBe(true);
    await receiver.waitFor(() => mine().length >= 2);
    const second = mine()[1]!;
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    await vi.waitFor(
      async () => {
        const [ev] = await db.sql`select status from webhook_events where id = ${eventId}`;
        expect(ev!.status).toBe('delivered');
      },
      { timeout: 15_000, interval: 100 },
    );
    expect((await givenUpDeliveries(db.sql)).find((g) => g.event_id === eventId)).toBeUndefined();
  });
});
