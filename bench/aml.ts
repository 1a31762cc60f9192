/**
 * GET /v2/analyze/aml latency over a large counterparty graph: an address with 10,000
 * counterparties in an address_edges graph of about 1,000,000 rows (both directions), built with
 * generate_series in an embedded Postgres, with 1,000 labelled addresses (and the shipped OFAC
 * lists). Requests go through the real HTTPS API, one at a time.
 *   node --import tsx bench/aml.ts [requests]          writes bench/results/aml.json
 * Figures, not assertions.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { loadConfig } from '../src/config/index.js';
import { startAppliance } from '../src/appliance.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { ensureNetworkPartitions } from '../src/indexer/evm/store.js';
import { createApiKey } from '../src/keys/keys.js';
import { setLogLevel } from '../src/log.js';
import { freePort } from '../test/helpers/ports.js';

const REQUESTS = Number(process.argv[2] ?? 300);
const COUNTERPARTIES = 10_000;
const POOL = 200_000; // addresses of the graph besides the target
const RANDOM_PAIRS = 490_000; // each stored in both directions
const LABELS = 1_000;

setLogLevel('warn');
const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-aml-'));
chmodSync(dir, 0o711);
const pg = await startEmbeddedPostgres(join(dir, 'pg'), await freePort());
const config = loadConfig({
  DATABASE_URL: pg.url, TOLLGATE_DATA_DIR: dir, TOLLGATE_HOST: '127.0.0.1', TOLLGATE_PORT: '0',
  // eth counts as indexed (new_wallet is computed); no indexer runs, so the node is never asked.
  TOLLGATE_RPC_ETH: 'http://127.0.0.1:1', TOLLGATE_LOG_LEVEL: 'warn',
});
const app = await startAppliance(config, { api: true, worker: false, indexer: false, devChain: false });
const sql = app.db.sql;
await ensureNetworkPartitions(sql, 'eth');
await sql.unsafe(`create table if not exists address_edges_eth partition of address_edges for values in ('eth')`);

const addr = (n: string) => `'0x' || lpad(to_hex(${n}), 40, '0')`;
const target = `0x${'ff'.repeat(20)}`;
const built = performance.now();
// The target and its 10,000 counterparties (pool addresses 1..10,000), both directions.
await sql.unsafe(`insert into address_edges (network, address, counterparty, tx_count, first_seen, last_seen)
  select 'eth', '${target}', ${addr('g')}, 1 + g % 50, 1600000000, 1700000000 from generate_series(1, ${COUNTERPARTIES}) g
  union all select 'eth', ${addr('g')}, '${target}', 1 + g % 50, 1600000000, 1700000000 from generate_series(1, ${COUNTERPARTIES}) g`);
// Pseudo-random pairs over the pool (the counterparties included), both directions.
await sql.unsafe(`insert into address_edges (network, address, counterparty, tx_count, first_seen, last_seen)
  select 'eth', v.a, v.b, 1, 1600000000, 1700000000
  from generate_series(1, ${RANDOM_PAIRS}) g,
    lateral (select ${addr(`1 + abs(hashtext('x' || g)) % ${POOL}`)} as x, ${addr(`1 + abs(hashtext('y' || g)) % ${POOL}`)} as y) p,
    lateral (values (p.x, p.y), (p.y, p.x)) v(a, b)
  where p.x <> p.y
  on conflict do nothing`);
// Labelled addresses spread over the pool (none of them a counterparty of the target).
await sql.unsafe(`insert into labels (network, address, category, source)
  select 'eth', ${addr(`${COUNTERPARTIES} + g * ${Math.floor((POOL - COUNTERPARTIES) / LABELS)}`)}, 'mixer', 'bench' from generate_series(1, ${LABELS}) g
  on conflict do nothing`);
// As autovacuum leaves it in production: statistics and the visibility map (index-only scans).
await sql`vacuum analyze address_edges`;
await sql`vacuum analyze labels`;
const [counted] = await sql<{ edges: number }[]>`select count(*)::int as edges from address_edges`;
const edges = counted!.edges;
const buildS = (performance.now() - built) / 1000;
console.log(`graph: ${edges} edge rows, target with ${COUNTERPARTIES} counterparties, ${LABELS} labels; built in ${buildS.toFixed(1)} s`);

const { apikey } = await createApiKey(sql, 'bench');
const insecure = new Agent({ connect: { rejectUnauthorized: false } });
const url = `https://127.0.0.1:${app.apiPort}/v2/analyze/aml?network=eth&address=${target}`;
let answer: any;
const timings: number[] = [];
for (let i = 0; i < REQUESTS + 10; i++) {
  const started = performance.now();
  const res = await request(url, { headers: { apikey }, dispatcher: insecure });
  answer = await res.body.json();
  if (i >= 10) timings.push(performance.now() - started); // the first 10 warm caches and the pool
}
timings.sort((a, b) => a - b);
const pct = (p: number) => Math.round(timings[Math.min(timings.length - 1, Math.floor((p / 100) * timings.length))]! * 10) / 10;
const trueTags = Object.keys(answer.data.tags).filter((t) => answer.data.tags[t]);
console.log(`answer: score ${answer.data.score}, tags ${trueTags.join(', ')}`);
console.log(`GET /v2/analyze/aml, ${REQUESTS} requests: p50 ${pct(50)} ms, p95 ${pct(95)} ms, p99 ${pct(99)} ms, max ${pct(100)} ms`);

const result = {
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model ?? 'unknown', memory_gb: Math.round(totalmem() / 2 ** 30), node: process.version },
  graph: { edge_rows: edges, counterparties: COUNTERPARTIES, pool: POOL, labels: LABELS, build_s: Math.round(buildS * 10) / 10 },
  answer: { score: answer.data.score, true_tags: trueTags },
  latency_ms: { requests: REQUESTS, p50: pct(50), p95: pct(95), p99: pct(99), max: pct(100) },
};
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/aml.json', import.meta.url), JSON.stringify(result, null, 2) + '\n');
await app.stop();
await pg.stop();
rmSync(dir, { recursive: true, force: true });
