/**
 * Webhook delivery throughput: N stream events (plain transfers to one streamed address, N
 * blocks of one transaction, written with generate_series as the indexer leaves them: the
 * block, the transaction, the event and its graphile-worker job in one statement), then the
 * worker role as its own process (`tollgate worker`, its configured concurrency) delivers them
 * to a local receiver that checks every signature (standardwebhooks) and answers 200 at once.
 * Each delivery is the worker's whole path: claim the job, load the event, build and freeze the
 * body, sign it, POST it, record the attempt.
 *   npm run bench:deliveries -- [N]      (default 5,000) writes bench/results/deliveries.json
 * Throughput is (N - 1) over the time from the first delivery arriving to the last, so the
 * worker's start-up is not in it; the worker's peak RSS (VmHWM) is reported.
 * Figures, not assertions. Target (issue 7): 1,000 deliveries/s.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../src/config/index.js';
import { openDatabase } from '../src/appliance.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { ensureNetworkPartitions } from '../src/indexer/evm/store.js';
import { createApiKey } from '../src/keys/keys.js';
import { setLogLevel } from '../src/log.js';

import { freePort } from '../test/helpers/ports.js';
import { machine, round, writeResult } from './lib/common.js';
import { startRole } from './lib/role.js';

const N = Number(process.argv[2] ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_WORKER_CONCURRENCY ?? 20); // config/default.json worker_concurrency

setLogLevel('warn');
const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-deliveries-'));
chmodSync(dir, 0o711);
const pg = await startEmbeddedPostgres(join(dir, 'pg'), await freePort());

// The receiver: verifies each signature, counts distinct webhook-ids, answers 200.
let verifier: Webhook;
const arrived = new Set<string>();
let firstAt = 0;
let lastAt = 0;
let badSignatures = 0;
let repeats = 0;
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (d: Buffer) => chunks.push(d));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    try {
      verifier.verify(body, req.headers as Record<string, string>);
    } catch {
      badSignatures++;
    }
    const id = String(req.headers['webhook-id']);
    if (arrived.has(id)) repeats++;
    arrived.add(id);
    const now = performance.now();
    if (arrived.size === 1) firstAt = now;
    lastAt = now;
    res.writeHead(200).end();
  });
}).listen(0, '127.0.0.1');
await new Promise((r) => receiver.once('listening', r));
const hook = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hook`;

const env = {
  DATABASE_URL: pg.url, TOLLGATE_DATA_DIR: dir, TOLLGATE_HOST: '127.0.0.1', TOLLGATE_PORT: '0',
  // Payloads of plain transfers read no token metadata: the node is never asked.
  TOLLGATE_RPC_ETH: 'http://127.0.0.1:1', TOLLGATE_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
  TOLLGATE_WORKER_CONCURRENCY: String(CONCURRENCY), TOLLGATE_LOG_LEVEL: 'warn',
};
const db = await openDatabase(loadConfig(env));
const sql = db.sql;
await ensureNetworkPartitions(sql, 'eth');
const key = await createApiKey(sql, 'bench');
verifier = new Webhook(key.webhook_secret);
const to = `0x${'ab'.repeat(20)}`;
const [tracked] = await sql<{ id: string }[]>`insert into tracked_addresses (api_key_id, address, family, stream_webhook, stream_created_at)
  values (${key.id}, ${to}, 'evm', ${hook}, now()) returning id`;
await sql`insert into indexer_cursors (network, chain_id, block_number, block_hash) values ('eth', 31337, ${N}, ${'0x' + 'cd'.repeat(32)})`;
const h = (prefix: string) => `'0x' || lpad(to_hex(g), 62, '0') || '${prefix}'`;
const built = performance.now();
await sql.unsafe(`insert into evm_blocks (network, number, hash, parent_hash, timestamp, tx_count)
  select 'eth', g, ${h('b0')}, ${h('a0')}, 1700000000 + g * 12, 1 from generate_series(1, ${N}) g`);
await sql.unsafe(`insert into evm_transactions (network, hash, block_number, block_hash, tx_index, from_address, to_address, value, gas, gas_price, gas_used, nonce, input, status)
  select 'eth', ${h('70')}, g, ${h('b0')}, 0, '0x${'12'.repeat(20)}', '${to}', g * 1000, 21000, 1000000000, 21000, g, '0x', 1 from generate_series(1, ${N}) g`);
await sql.unsafe(`with ins as (
    insert into webhook_events (kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, confirmed)
    select 'stream', ${key.id}, ${tracked!.id}, 'eth', '${to}', ${h('70')}, g, ${h('b0')}, false from generate_series(1, ${N}) g
    returning id
  )
  select graphile_worker.add_job('${DELIVER_TASK}', json_build_object('event_id', ins.id), max_attempts => 25, job_key => 'evt:' || ins.id::text) from ins`);
console.log(`enqueued ${N} events in ${Math.round(performance.now() - built)} ms; starting the worker (concurrency ${CONCURRENCY})`);

const worker = startRole('worker', env);
const deadline = Date.now() + 10 * 60_000;
while (arrived.size < N && Date.now() < deadline && worker.running()) await new Promise((r) => setTimeout(r, 20));
const workerRssMb = await worker.stop();
const [counts] = await sql<{ delivered: number; attempts: number }[]>`
  select count(*) filter (where status = 'delivered')::int as delivered, coalesce(sum(attempts), 0)::int as attempts from webhook_events`;

const seconds = (lastAt - firstAt) / 1000;
const result = {
  date: new Date().toISOString(),
  machine: machine(),
  events: N,
  worker_concurrency: CONCURRENCY,
  received: arrived.size,
  delivered_in_db: counts!.delivered,
  attempts: counts!.attempts,
  repeats,
  bad_signatures: badSignatures,
  seconds: round(seconds),
  deliveries_per_s: round((arrived.size - 1) / seconds),
  rss_mb: { worker: workerRssMb },
};
console.log(`webhook deliveries: ${result.received} of ${N} received in ${result.seconds} s: ${result.deliveries_per_s} deliveries/s (concurrency ${CONCURRENCY}); ${badSignatures} bad signatures, ${repeats} repeats`);
console.log(`worker peak RSS: ${workerRssMb} MiB`);
writeResult('deliveries', result);

await db.close();
receiver.close();
await pg.stop();
rmSync(dir, { recursive: true, force: true });
