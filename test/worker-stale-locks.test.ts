import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { Receiver } from './helpers/receiver.js';
import { eventually } from './helpers/eventually.js';

// Found by the fault suite (test/faults/kill.test.ts): a worker killed with -9 left the jobs it
// had fetched locked by its pool, and graphile-worker frees such locks only after 4 hours.

let db: TestDatabase;
let receiver: Receiver;
beforeAll(async () => {
  db = await freshDatabase();
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await receiver?.stop();
  await db?.drop();
});

/** A stream event with its body frozen and its job locked by `pool` since a minute ago. */
async function lockedEvent(pool: string, n: number): Promise<string> {
  const key = await createApiKey(db.sql, `stale-${n}`);
  const address = '0x' + String(n).padStart(40, '0');
  const [t] = await db.sql`insert into tracked_addresses (api_key_id, address, family, stream_webhook, stream_created_at)
    values (${key.id}, ${address}, 'evm', ${receiver.url}, now()) returning id`;
  const [ev] = await db.sql`insert into webhook_events (kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, confirmed, body)
    values ('stream', ${key.id}, ${t!.id}, 'eth', ${address}, ${'0x' + String(n).padStart(64, '0')}, 5, '0xb5', false, ${`{"n":${n}}`}) returning id::text`;
  await db.sql`select graphile_worker.add_job('deliver_webhook', json_build_object('event_id', ${ev!.id}::uuid), job_key => ${'evt:' + ev!.id})`;
  await db.sql`update graphile_worker._private_jobs set locked_by = ${pool}, locked_at = now() - interval '1 minute' where key = ${'evt:' + ev!.id}`;
  return ev!.id as string;
}

it('runs again, within seconds, the jobs a dead worker process had locked, and leaves a live one\'s alone', async () => {
  const dead = await lockedEvent('pool-dead0000000000000000', 1);
  const live = await lockedEvent('pool-live0000000000000000', 2);
  // A live pool holds its liveness lock (as every worker process does on its own pool id).
  const holder = await db.sql.reserve();
  await holder`select pg_advisory_lock(${0x746c67}::int, hashtext('pool-live0000000000000000'))`;
  const app = await startTestAppliance(db.url, {}, { api: false, worker: true, indexer: false, devChain: false });
  try {
    const got = await receiver.waitFor((all) => all.length >= 1, 20_000);
    expect(got.map((r) => r.headers['webhook-id'])).toEqual([`msg_${dead}`]);
    const [row] = await eventually(() => db.sql`select status from webhook_events where id = ${dead}`, (r) => r[0]?.status === 'delivered');
    expect(row!.status).toBe('delivered');
    await new Promise((r) => setTimeout(r, 6000)); // past a sweep: the live pool's job stays its own
    expect(receiver.received).toHaveLength(1);
    const [job] = await db.sql`select locked_by from graphile_worker.jobs where key = ${'evt:' + live}`;
    expect(job!.locked_by).toBe('pool-live0000000000000000');
  } finally {
    await app.stop();
    holder.release();
  }
});
