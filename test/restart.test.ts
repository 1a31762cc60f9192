import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { fundedWallet, randomAddress } from './helpers/chain.js';
import { Receiver } from './helpers/receiver.js';
import { eventually } from './helpers/eventually.js';

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('misses no block and enqueues nothing twice across a stop and start while blocks keep coming', async () => {
  const w = await fundedWallet('10');
  const to = randomAddress();
  const key = await createApiKey(db.sql, 'restart');
  const sent: { hash: string; block: bigint }[] = [];
  let sending = true;
  const sender = (async () => {
    while (sending) {
      const r = await w.send(to as Hex, 1n);
      sent.push({ hash: r.transactionHash, block: r.blockNumber });
      await sleep(150);
    }
  })();

  let app = await startTestAppliance(db.url);
  await call(app.baseUrl, 'POST', '/v2/stream/create', {
    headers: { apikey: key.apikey },
    body: { address: to, webhook: receiver.url },
  });
  const firstTracked = sent.length;
  await sleep(2500);
  await app.stop();
  const stoppedAt = sent.length;
  await sleep(2500); // blocks and transactions go on while the appliance is down
  expect(sent.length).toBeGreaterThan(stoppedAt);
  app = await startTestAppliance(db.url);
  await sleep(1500);
  sending = false;
  await sender;
  const last = sent[sent.length - 1]!.block;

  // Wait until the indexer passed the last transaction's block and its confirmations.
  await eventually(
    () => db.sql`select block_number from indexer_cursors where network = 'eth'`,
    (r) => BigInt(r[0]!.block_number) >= last + 4n,
    30_000,
  );
  const tracked = sent.slice(firstTracked);
  await receiver.waitFor(
    (all) => tracked.every((t) => all.filter((r) => r.json?.tx?.hash === t.hash).length >= 2),
    60_000,
  );
  await app.stop();

  // No block missed: every height from the first indexed one to the cursor, each the chain's block.
  const blocks = await db.sql<{ number: string; hash: string; parent_hash: string }[]>`
    select number, hash, parent_hash from evm_blocks where network = 'eth' order by number`;
  for (let i = 1; i < blocks.length; i++) {
    expect(BigInt(blocks[i]!.number)).toBe(BigInt(blocks[i - 1]!.number) + 1n);
    expect(blocks[i]!.parent_hash).toBe(blocks[i - 1]!.hash);
  }
  const canonical = await w.pub.getBlock({
    blockNumber: BigInt(blocks[blocks.length - 1]!.number),
  });
  expect(canonical.hash).toBe(blocks[blocks.length - 1]!.hash);

  // Every transaction sent while streamed (including those mined during the stop) was indexed,
  // and has exactly one unconfirmed and one confirmed event, each delivered exactly once.
  for (const t of tracked) {
    const events =
      await db.sql`select confirmed, status from webhook_events where tx_hash = ${t.hash} order by confirmed`;
    expect(events.map((e) => [e.confirmed, e.status])).toEqual([
      [false, 'delivered'],
      [true, 'delivered'],
    ]);
    const deliveries = receiver.received.filter((r) => r.json?.tx?.hash === t.hash);
    expect(deliveries).toHaveLength(2);
  }
  const dup =
    await db.sql`select tx_hash, confirmed, count(*) from webhook_events group by 1, 2 having count(*) > 1`;
  expect(dup).toHaveLength(0);
  const ids = receiver.received.map((r) => r.headers['webhook-id']);
  expect(new Set(ids).size).toBe(ids.length);
}, 120_000);

it('runs two indexers and two workers on one database: one indexes, the other takes over when it stops', async () => {
  const db2 = await freshDatabase();
  const hooks = await new Receiver().start();
  try {
    const w = await fundedWallet('10');
    const to = randomAddress();
    const key = await createApiKey(db2.sql, 'pair');
    const first = await startTestAppliance(db2.url);
    const second = await startTestAppliance(
      db2.url,
      {},
      { api: false, worker: true, indexer: 'all', devChain: false },
    );
    await call(first.baseUrl, 'POST', '/v2/stream/create', {
      headers: { apikey: key.apikey },
      body: { address: to, webhook: hooks.url },
    });
    const sent: string[] = [];
    for (let i = 0; i < 4; i++) sent.push((await w.send(to as Hex, 1n)).transactionHash);
    await first.stop(); // the second indexer stands by on the advisory lock and takes over
    for (let i = 0; i < 4; i++) sent.push((await w.send(to as Hex, 1n)).transactionHash);
    await hooks.waitFor(
      (all) => sent.every((h) => all.filter((r) => r.json?.tx?.hash === h).length >= 2),
      40_000,
    );
    await second.stop();

    for (const h of sent)
      expect(hooks.received.filter((r) => r.json?.tx?.hash === h)).toHaveLength(2);
    const blocks = await db2.sql<
      { number: string; hash: string; parent_hash: string }[]
    >`select number, hash, parent_hash from evm_blocks order by number`;
    for (let i = 1; i < blocks.length; i++)
      expect(blocks[i]!.parent_hash).toBe(blocks[i - 1]!.hash);
  } finally {
    await hooks.stop();
    await db2.drop();
  }
}, 120_000);
