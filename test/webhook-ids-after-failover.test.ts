import { afterAll, beforeAll, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { copyDatabase, freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { expectedEventId } from './helpers/event-id.js';
import { startOwnChain, type OwnChain } from './helpers/own-chain.js';
import { Receiver, type Received } from './helpers/receiver.js';

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
let replica: TestDatabase | undefined;
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
  await replica?.drop();
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
  replica = await copyDatabase(db);

  app = await startTestAppliance(db.url, env());
  const lost = await deliveredBoth();
  await app.stop();

  // Failover: the replica is promoted; the block of `lost` and its events are not in it.
  expect(
    await replica.sql`select count(*)::int as n from webhook_events where tx_hash = ${lost.toLowerCase()}`,
  ).toEqual([{ n: 0 }]);
  app = await startTestAppliance(replica.url, env());
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
  const rows = await db.sql<(Parameters<typeof expectedEventId>[0] & { id: string })[]>`
    select id, tracked_id::text, kind, network, tx_hash, block_hash, confirmed, removed, incarnation from webhook_events`;
  expect(rows.length).toBeGreaterThanOrEqual(4);
  for (const r of rows) expect(r.id).toBe(expectedEventId(r));
});
