import { afterAll, beforeAll, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { fundedWallet, randomAddress } from './helpers/chain.js';
import { Receiver } from './helpers/receiver.js';
import { eventually } from './helpers/eventually.js';

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
