import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

it('loses no pushed head that comes while the indexer is reading the head', async () => {
  // The node's answer to eth_blockNumber is held back (through a proxy of this test's own) while
  // a new block is mined and pushed: the indexer is then busy, not asleep, when the head comes,
  // and must not sleep through it for its poll interval (a minute here).
  const chain = await startOwnChain();
  const db3 = await freshDatabase();
  let hold: ((head: bigint) => Promise<void>) | undefined;
  const proxy = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', async () => {
      try {
        const answer = await (
          await fetch(chain.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          })
        ).text();
        // Single or batched (viem batches): the head asked for, if it was.
        const calls = [JSON.parse(body)].flat() as { id: unknown; method?: string }[];
        const answers = [JSON.parse(answer)].flat() as { id: unknown; result?: string }[];
        const asked = calls.find((c) => c.method === 'eth_blockNumber');
        const head = asked && answers.find((a) => a.id === asked.id)?.result;
        if (head && hold) await hold(BigInt(head));
        res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
      } catch {
        res.writeHead(502).end();
      }
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const app3 = await startTestAppliance(db3.url, {
    TOLLGATE_RPC_ETH: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    TOLLGATE_HEADS_ETH: chain.url.replace(/^http/, 'ws'),
    TOLLGATE_POLL_INTERVAL_MS_ETH: '60000',
    TOLLGATE_CONFIRMATIONS_ETH: '1000',
    TOLLGATE_FINALITY_ETH: 'depth',
  });
  try {
    const key = await createApiKey(db3.sql, 'busy');
    const to = randomAddress();
    await call(app3.baseUrl, 'POST', '/v2/stream/create', {
      headers: { apikey: key.apikey },
      body: { address: to, webhook: receiver.url },
    });
    const stored = async () =>
      BigInt(
        (
          await db3.sql<
            { n: string }[]
          >`select block_number as n from indexer_cursors where network = 'eth'`
        )[0]?.n ?? -1,
      );
    await eventually(stored, (n) => n >= 0n);
    await new Promise((r) => setTimeout(r, 500)); // the subscription is up, the indexer asleep
    let second: string | undefined;
    // The first block wakes the indexer; it stores it, reads the head again and finds nothing new:
    // while that answer is held, the second block is mined (and pushed).
    hold = async (head) => {
      if (second !== undefined || head < 1n || (await stored()) < head) return;
      second = await chain.send(to);
    };
    const first = await chain.send(to);
    const delivered = (hash: string) =>
      receiver.waitFor((all) => all.some((r) => r.json?.tx?.hash === hash), 20_000);
    await delivered(first);
    await eventually(
      async () => second,
      (s) => s !== undefined,
    );
    await delivered(second!);
  } finally {
    hold = undefined;
    await app3.stop();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
    proxy.closeAllConnections();
    await db3.drop();
    await chain.stop();
  }
});
