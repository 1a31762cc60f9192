/**
 * Block-to-webhook latency of address streams, on a local node with an embedded Postgres: N
 * transfers to a streamed address, each mined on send (automine); the time from the send
 * returning (the block exists) to the unconfirmed webhook arriving at a local receiver. Three
 * ways of learning of a block and asking for it: Hardhat over http, polled every 50 ms; anvil
 * over ws alone (TOLLGATE_RPC_ETH=ws://…: requests and pushed heads on ws); anvil with requests
 * over http and heads pushed over ws (TOLLGATE_HEADS_ETH=ws://…). The 50 ms poll stays as the
 * fallback wherever heads are pushed.
 *   npm run bench:latency -- [N] [hardhat|anvil] [http|ws|http+ws]   (default 300, all three in turn)
 *     prints p50/p95/p99 and writes bench/results/stream-latency.json
 * Figures, not assertions: this machine is shared and noisy.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestClient, createWalletClient, http, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { hardhat } from 'viem/chains';
import { loadConfig } from '../src/config/index.js';
import { startAppliance } from '../src/appliance.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { type DevChainNode, startDevChain } from '../src/devchain/devchain.js';
import { createApiKey } from '../src/keys/keys.js';
import { setLogLevel } from '../src/log.js';
import { freePort } from '../support/ports.js';
import { latencySummary, machine, writeResult } from './lib/common.js';

const N = Number(process.argv[2] ?? 300);

setLogLevel('warn');

type Transport = 'http' | 'ws' | 'http+ws';

async function runOne(NODE: DevChainNode, TRANSPORT: Transport) {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-'));
  chmodSync(dir, 0o711);
  const pg = await startEmbeddedPostgres(join(dir, 'pg'), await freePort());
  const chain = await startDevChain(await freePort(), NODE);
  const transport = http(chain.url);
  const testClient = createTestClient({ chain: hardhat, mode: 'hardhat', transport });
  await testClient.request({ method: 'evm_setIntervalMining', params: [0] } as never);
  // anvil's interval mining replaced automine: every transaction in a block of its own, at once.
  await testClient.request({ method: 'evm_setAutomine', params: [true] } as never);

  const arrivals = new Map<string, number>();
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const p = JSON.parse(body) as { confirmed: boolean; tx: { hash: string } };
      if (!p.confirmed) arrivals.set(p.tx.hash, performance.now());
      res.writeHead(200).end();
    });
  }).listen(0, '127.0.0.1');
  await new Promise((r) => receiver.once('listening', r));
  const hook = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hook`;

  const config = loadConfig({
    DATABASE_URL: pg.url,
    TOLLGATE_DATA_DIR: dir,
    TOLLGATE_HOST: '127.0.0.1',
    TOLLGATE_PORT: '0',
    TOLLGATE_RPC_ETH: TRANSPORT === 'ws' ? chain.url.replace(/^http/, 'ws') : chain.url,
    ...(TRANSPORT === 'http+ws' ? { TOLLGATE_HEADS_ETH: chain.url.replace(/^http/, 'ws') } : {}),
    TOLLGATE_START_BLOCK_ETH: 'head',
    TOLLGATE_FINALITY_ETH: 'depth',
    TOLLGATE_POLL_INTERVAL_MS_ETH: '50',
    TOLLGATE_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
    TOLLGATE_LOG_LEVEL: 'warn',
  });
  const app = await startAppliance(config, {
    api: false,
    worker: true,
    indexer: 'all',
    devChain: false,
  });
  const key = await createApiKey(app.db.sql, 'bench');
  const to = privateKeyToAccount(generatePrivateKey()).address;
  await app.db
    .sql`insert into tracked_addresses (api_key_id, address, family, stream_webhook, stream_created_at) values (${key.id}, ${to.toLowerCase()}, 'evm', ${hook}, now())`;

  const account = privateKeyToAccount(generatePrivateKey());
  await createTestClient({ chain: hardhat, mode: 'hardhat', transport }).setBalance({
    address: account.address,
    value: parseEther('1000'),
  });
  const wallet = createWalletClient({ account, chain: hardhat, transport });

  const sent = new Map<string, number>();
  for (let i = 0; i < N; i++) {
    const hash = await wallet.sendTransaction({ to, value: 1n });
    sent.set(hash, performance.now());
    while (!arrivals.has(hash)) await new Promise((r) => setTimeout(r, 2));
  }
  const latencies = [...sent].map(([h, t]) => arrivals.get(h)! - t);
  const result = {
    date: new Date().toISOString(),
    machine: machine(),
    transactions: N,
    node: NODE,
    transport: TRANSPORT,
    new_heads: TRANSPORT === 'http' ? 'polled' : 'pushed (eth_subscribe newHeads)',
    poll_interval_ms: 50,
    block_to_webhook_ms: latencySummary(latencies),
  };
  console.log(
    `${NODE} over ${TRANSPORT}: block-to-webhook latency over ${N} transactions (unconfirmed delivery, heads ${result.new_heads}):`,
  );
  console.log(
    `  p50 ${result.block_to_webhook_ms.p50} ms   p95 ${result.block_to_webhook_ms.p95} ms   p99 ${result.block_to_webhook_ms.p99} ms   max ${result.block_to_webhook_ms.max} ms`,
  );

  await app.stop();
  receiver.close();
  await chain.stop();
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
  return result;
}

const runs: [DevChainNode, Transport][] =
  process.argv[3] !== undefined
    ? [[process.argv[3] as DevChainNode, (process.argv[4] ?? 'http') as Transport]]
    : [
        ['hardhat', 'http'],
        ['anvil', 'ws'],
        ['anvil', 'http+ws'],
      ];
const results = [];
for (const [node, transport] of runs) results.push(await runOne(node, transport));
writeResult(
  'stream-latency',
  results.length === 1 ? results[0] : { date: new Date().toISOString(), runs: results },
);
