import { afterAll, beforeAll, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { fundedWallet, randomAddress } from './helpers/chain.js';
import { Receiver } from './helpers/receiver.js';
import { eventually } from './helpers/eventually.js';
import { startOwnChain } from './helpers/own-chain.js';
import { startTcpRelay } from './helpers/tcp-relay.js';

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let receiver: Receiver;

beforeAll(async () => {
  db = await freshDatabase();
  receiver = await new Receiver().start();
  // Hardhat serves WebSocket JSON-RPC on the same port. Polling once a minute: within the wait
  // below only the newHeads subscription can wake the indexer.
  const ws = inject('rpcUrl').replace(/^http/, 'ws');
  app = await startTestAppliance(db.url, {
    TOLLGATE_RPC_ETH: ws,
    TOLLGATE_POLL_INTERVAL_MS_ETH: '60000',
    TOLLGATE_CONFIRMATIONS_ETH: '1000',
  });
});
afterAll(async () => {
  await app?.stop();
  await receiver?.stop();
  await db?.drop();
});

it('follows the head through newHeads over WebSocket', async () => {
  const key = await createApiKey(db.sql, 'ws');
  const to = randomAddress();
  await call(app.baseUrl, 'POST', '/v2/stream/create', {
    headers: { apikey: key.apikey },
    body: { address: to, webhook: receiver.url },
  });
  // The first poll has run (the cursor exists); from here on only a subscription wakes the loop.
  await eventually(
    () => db.sql`select 1 from indexer_cursors where network = 'eth'`,
    (r) => r.length === 1,
  );
  const w = await fundedWallet('1');
  for (let i = 0; i < 3; i++) {
    const receipt = await w.send(to, 1n);
    const [got] = await receiver.waitFor(
      (all) => all.some((r) => r.json?.tx?.hash === receipt.transactionHash),
      20_000,
    );
    expect(got).toBeDefined();
  }
});

it('takes pushed heads from TOLLGATE_HEADS_ETH beside an http RPC URL, and catches up on a reconnect', async () => {
  // A chain of this test's own: no other file's blocks wake the indexer.
  const chain = await startOwnChain();
  const db2 = await freshDatabase();
  const relay = await startTcpRelay(new URL(chain.url));
  const app2 = await startTestAppliance(db2.url, {
    TOLLGATE_RPC_ETH: chain.url,
    TOLLGATE_HEADS_ETH: `ws://127.0.0.1:${relay.port}`,
    TOLLGATE_POLL_INTERVAL_MS_ETH: '60000',
    TOLLGATE_CONFIRMATIONS_ETH: '1000',
    TOLLGATE_FINALITY_ETH: 'depth',
  });
  try {
    const key = await createApiKey(db2.sql, 'heads');
    const to = randomAddress();
    await call(app2.baseUrl, 'POST', '/v2/stream/create', {
      headers: { apikey: key.apikey },
      body: { address: to, webhook: receiver.url },
    });
    const delivered = (hash: string) =>
      receiver.waitFor((all) => all.some((r) => r.json?.tx?.hash === hash), 20_000);
    await eventually(
      async () => relay.connections(),
      (n) => n > 0,
    );
    await delivered(await chain.send(to));
    // The subscription's connection goes down and the one block comes while it is: the
    // subscription is opened again (after a second), and the block missed meanwhile is indexed
    // then, not at the next poll a minute later.
    relay.cut();
    await eventually(
      async () => relay.connections(),
      (n) => n === 0,
    );
    await delivered(await chain.send(to));
  } finally {
    await app2.stop();
    await relay.close();
    await db2.drop();
    await chain.stop();
  }
});
