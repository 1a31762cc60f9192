import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { openPool } from '../src/db/index.js';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { expectedEventId } from './helpers/event-id.js';
import { startOwnChain, type OwnChain } from './helpers/own-chain.js';
import { Receiver, type Received } from './helpers/receiver.js';
import { withDatabase } from './helpers/urls.js';

/**
 * A database that loses its last commits: a failover to an asynchronous replica that was behind
 * (Patroni's default replication is asynchronous), or a restore from a backup. The replica here
 * is a copy of the database taken (CREATE DATABASE … TEMPLATE) before a transaction's block was
 * indexed and its webhooks delivered; then Tollgate runs on the copy, as after a failover. It
 * indexes that block again and writes its events again. The receiver, which deduplicates on
 * webhook-id as the contract tells it to, must see each of them under the webhook-id it already
 * has: one id per (transaction, confirmed), the same bytes.
 */

let chain: OwnChain;
let db: TestDatabase;
const receiver = new Receiver();
const admin = openPool(inject('pgAdminUrl'), { max: 1 });
const replicaName = `${new URL(inject('pgAdminUrl')).pathname.slice(1) || 'postgres'}_replica_${process.pid}`;
const streamed = privateKeyToAccount(generatePrivateKey()).address;
const env = () => ({
  TOLLGATE_RPC_ETH: chain.url,
  TOLLGATE_FINALITY_ETH: 'depth',
  TOLLGATE_CONFIRMATIONS_ETH: '2',
  TOLLGATE_POLL_INTERVAL_MS_ETH: '50',
});

beforeAll(async () => {
  chain = await startOwnChain();
  db = await freshDatabase();
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
  await admin.unsafe(`drop database if exists ${replicaName} with (force)`).catch(() => {});
  await admin.end();
  await db?.drop();
  await chain?.stop();
});

const forTx = (hash: string) => receiver.received.filter((r) => r.json?.tx?.hash === hash);
const idsOf = (list: Received[], confirmed: boolean) =>
  new Set(list.filter((r) => r.json.confirmed === confirmed).map((r) => r.headers['webhook-id']));

/** Sends to the streamed address, mines its confirmations, waits for both of its deliveries. */
async function deliveredBoth(count = 1): Promise<string> {
  const hash = await chain.send(streamed);
  await chain.mine(2);
  await receiver.waitFor(
    () =>
      forTx(hash).filter((r) => r.json.confirmed).length >= count &&
      forTx(hash).filter((r) => !r.json.confirmed).length >= count,
  );
  return hash;
}

it('delivers the events of blocks a failover lost, indexed again, under the webhook-ids they had', async () => {
  let app = await startTestAppliance(db.url, env());
  const key = await createApiKey(db.sql, 'failover');
  await call(app.baseUrl, 'POST', '/v2/stream/create', {
    headers: { apikey: key.apikey },
    body: { address: streamed, webhook: receiver.url },
  });
  const kept = await deliveredBoth();
  await app.stop();

  // The replica as it stands now: it will not have what follows.
  await db.sql.end({ timeout: 5 });
  const primaryName = new URL(db.url).pathname.slice(1);
  // Every session of the primary closed first (a copy needs none open); a late one, again.
  for (let attempt = 0; ; attempt++) {
    await admin.unsafe(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${primaryName}'`,
    );
    try {
      await admin.unsafe(`create database ${replicaName} template ${primaryName}`);
      break;
    } catch (err) {
      if (attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  app = await startTestAppliance(db.url, env());
  const lost = await deliveredBoth();
  await app.stop();

  // Failover: the replica is promoted; the block of `lost` and its events are not in it.
  const replicaUrl = withDatabase(db.url, replicaName);
  const replica = openPool(replicaUrl, { max: 1 });
  try {
    expect(
      await replica`select count(*)::int as n from webhook_events where tx_hash = ${lost.toLowerCase()}`,
    ).toEqual([{ n: 0 }]);
  } finally {
    await replica.end({ timeout: 5 });
  }
  app = await startTestAppliance(replicaUrl, env());
  try {
    await receiver.waitFor(
      () =>
        forTx(lost).filter((r) => r.json.confirmed).length >= 2 &&
        forTx(lost).filter((r) => !r.json.confirmed).length >= 2,
    );
  } finally {
    await app.stop();
  }

  const deliveries = forTx(lost);
  expect(idsOf(deliveries, false).size).toBe(1);
  expect(idsOf(deliveries, true).size).toBe(1);
  // The same bytes under each id (the events were written again in the order they first were).
  for (const id of [...idsOf(deliveries, false), ...idsOf(deliveries, true)])
    expect(
      new Set(deliveries.filter((r) => r.headers['webhook-id'] === id).map((r) => r.body)).size,
    ).toBe(1);
  // What the replica had was delivered once.
  expect(forTx(kept)).toHaveLength(2);
});

it("derives a chain event's id from its identity alone, as the README states it", async () => {
  // The first test ended db.sql (to copy the database).
  const sql = openPool(db.url, { max: 1 });
  const rows = await sql<(Parameters<typeof expectedEventId>[0] & { id: string })[]>`
    select id, tracked_id::text, kind, network, tx_hash, block_hash, confirmed, removed, incarnation from webhook_events`;
  await sql.end({ timeout: 5 });
  expect(rows.length).toBeGreaterThanOrEqual(4);
  for (const r of rows) expect(r.id).toBe(expectedEventId(r));
});
