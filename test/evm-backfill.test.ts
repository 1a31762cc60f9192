import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { Receiver } from './helpers/receiver.js';
import { eventually } from './helpers/eventually.js';
import { startOwnChain, type OwnChain } from './helpers/own-chain.js';

const BLOCKS = 2000;
let chain: OwnChain;
let db: TestDatabase;
let receiver: Receiver;

beforeAll(async () => {
  chain = await startOwnChain();
  db = await freshDatabase();
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await receiver?.stop();
  await db?.drop();
  await chain?.stop();
});

it(`backfills ${BLOCKS} blocks, stopped and restarted midway, with nothing missing or doubled`, async () => {
  const { pub, wallet } = chain;
  const streamed = privateKeyToAccount(generatePrivateKey()).address;

  // The chain first: a transfer to the streamed address every 100 blocks, empty blocks between.
  const start = (await pub.getBlockNumber()) + 1n;
  const sent: Hex[] = [];
  while ((await pub.getBlockNumber()) < start + BigInt(BLOCKS) - 1n) {
    const n = await pub.getBlockNumber();
    if ((n - start) % 100n === 50n)
      sent.push(await wallet.sendTransaction({ to: streamed, value: 1n }));
    else await chain.mine(1);
  }
  const head = await pub.getBlockNumber();

  const key = await createApiKey(db.sql, 'backfill');
  await db.sql`insert into tracked_addresses (api_key_id, address, family, stream_webhook, stream_created_at)
    values (${key.id}, ${streamed.toLowerCase()}, 'evm', ${receiver.url}, now())`;
  const env = {
    TOLLGATE_RPC_ETH: chain.url,
    TOLLGATE_START_BLOCK_ETH: start.toString(),
    TOLLGATE_CONFIRMATIONS_ETH: '3',
  };
  const cursor = () => db.sql`select block_number from indexer_cursors where network = 'eth'`;

  let app = await startTestAppliance(db.url, env, {
    api: false,
    worker: true,
    indexer: 'all',
    devChain: false,
  });
  await eventually(
    cursor,
    (r) => r.length > 0 && BigInt(r[0]!.block_number) >= start + 1000n,
    60_000,
  );
  await app.stop();
  const stoppedAt = BigInt((await cursor())[0]!.block_number);
  expect(stoppedAt).toBeLessThan(head);

  app = await startTestAppliance(db.url, env, {
    api: false,
    worker: true,
    indexer: 'all',
    devChain: false,
  });
  await eventually(cursor, (r) => BigInt(r[0]!.block_number) === head, 60_000);
  await receiver.waitFor(
    (all) => sent.every((h) => all.filter((r) => r.json?.tx?.hash === h).length >= 2),
    60_000,
  );
  await app.stop();

  // Every block from the start to the head, linked, each the node's own.
  const blocks = await db.sql<{ number: string; hash: string; parent_hash: string }[]>`
    select number, hash, parent_hash from evm_blocks where network = 'eth' order by number`;
  expect(blocks).toHaveLength(Number(head - start + 1n));
  expect(BigInt(blocks[0]!.number)).toBe(start);
  const canonical = await Promise.all(
    blocks.map((b) => pub.getBlock({ blockNumber: BigInt(b.number) })),
  );
  blocks.forEach((b, i) => {
    expect(b.hash).toBe(canonical[i]!.hash);
    if (i > 0) expect(b.parent_hash).toBe(blocks[i - 1]!.hash);
  });

  // Every transaction once, its two events once each, each delivered once.
  const txs =
    await db.sql`select hash from evm_transactions where network = 'eth' and to_address = ${streamed.toLowerCase()}`;
  expect(txs.map((t) => t.hash).sort()).toEqual([...sent].sort());
  const events =
    await db.sql`select tx_hash, confirmed, status from webhook_events order by tx_hash, confirmed`;
  expect(events).toHaveLength(sent.length * 2);
  expect(events.every((e) => e.status === 'delivered')).toBe(true);
  for (const h of sent)
    expect(receiver.received.filter((r) => r.json?.tx?.hash === h)).toHaveLength(2);
}, 240_000);
