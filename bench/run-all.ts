/**
 * Runs every benchmark, one after another, each in its own process (so one's memory and
 * Postgres do not weigh on the next), then gathers their results into
 * bench/results/latest.json:
 *   {date, machine, backfill: {blocks_per_s, tx_per_s, raw_fetch_tx_per_s, …},
 *    block_to_webhook_ms: {p50, p95, p99, max}, deliveries_per_s, api: {"<route>": {rps, p50_ms, p99_ms, …}},
 *    aml_single_ms, dashboard_ms, travelrule: {trp_inquiries_per_s, create_tx_per_s, …},
 *    rss_mb: {api, worker, indexer}, targets}
 *   npm run bench                     all of them, the issue's sizes
 *   npm run bench -- backfill aml     only these (the others' last results are reused, if any)
 * Figures, not assertions; never part of `npm test`.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { machine, readResult, writeResult } from './lib/common.js';

/** Each benchmark with the arguments of the suite run (issue 7 §1). */
const BENCHES: { name: string; file: string; args: string[] }[] = [
  { name: 'backfill', file: 'backfill.ts', args: ['200', '60', 'hardhat'] }, // ≥ 50 transactions per block
  { name: 'stream-latency', file: 'stream-latency.ts', args: ['1000', 'hardhat', 'http'] },
  { name: 'deliveries', file: 'deliveries.ts', args: ['5000'] },
  { name: 'api-load', file: 'api-load.ts', args: ['10'] },
  { name: 'aml', file: 'aml.ts', args: ['2000'] },
  { name: 'dashboard', file: 'dashboard.ts', args: ['200'] },
  { name: 'travelrule', file: 'travelrule.ts', args: ['1000', '8'] },
];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !BENCHES.some((b) => b.name === w));
if (unknown.length) {
  console.error(
    `unknown benchmark(s): ${unknown.join(', ')}; known: ${BENCHES.map((b) => b.name).join(', ')}`,
  );
  process.exit(2);
}
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const failed: string[] = [];
for (const bench of BENCHES) {
  if (wanted.length && !wanted.includes(bench.name)) continue;
  console.log(`\n== ${bench.name} (${[bench.file, ...bench.args].join(' ')})`);
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', `bench/${bench.file}`, ...bench.args],
    { cwd: ROOT, stdio: 'inherit' },
  );
  console.log(
    `== ${bench.name}: ${run.status === 0 ? 'done' : `FAILED (exit ${run.status ?? run.signal})`} in ${Math.round((performance.now() - started) / 1000)} s`,
  );
  if (run.status !== 0) failed.push(bench.name);
}

const backfill = readResult('backfill');
const latency = readResult('stream-latency');
const deliveries = readResult('deliveries');
const apiLoad = readResult('api-load');
const aml = readResult('aml');
const dashboard = readResult('dashboard');
const travelRule = readResult('travelrule');
const latest = {
  date: new Date().toISOString(),
  machine: machine(),
  backfill: backfill && {
    ...backfill.backfill,
    blocks: backfill.blocks,
    tx_per_block: backfill.tx_per_block,
    date: backfill.date,
  },
  block_to_webhook_ms: latency && {
    ...latency.block_to_webhook_ms,
    transactions: latency.transactions,
    date: latency.date,
  },
  deliveries_per_s: deliveries?.deliveries_per_s,
  deliveries: deliveries && {
    events: deliveries.events,
    subscriptions: deliveries.subscriptions,
    concurrency: deliveries.concurrency,
    received: deliveries.received,
    bad_signatures: deliveries.bad_signatures,
    out_of_order: deliveries.out_of_order,
    sequence_violations: deliveries.sequence_violations,
    dead_receiver_healthy_per_s: deliveries.dead_receiver?.healthy_deliveries_per_s,
    date: deliveries.date,
  },
  api: apiLoad?.api,
  api_runs: apiLoad?.runs,
  aml_single_ms: aml && { ...aml.latency_ms, date: aml.date },
  dashboard_ms: dashboard && {
    ...Object.fromEntries(
      dashboard.latency_ms.map(
        (p: { page: string; p50: number; p95: number; p99: number; max: number }) => [
          p.page,
          { p50: p.p50, p95: p.p95, p99: p.p99, max: p.max },
        ],
      ),
    ),
    date: dashboard.date,
  },
  travelrule: travelRule && {
    trp_inquiries_per_s: travelRule.trp_inquiries.per_s,
    trp_inquiry_p99_ms: travelRule.trp_inquiries.latency_ms.p99,
    create_tx_per_s: travelRule.create_tx.per_s,
    create_tx_p99_ms: travelRule.create_tx.latency_ms.p99,
    date: travelRule.date,
  },
  rss_mb: {
    api: apiLoad?.rss_mb?.api,
    worker: deliveries?.rss_mb?.worker,
    indexer: backfill?.rss_mb?.indexer,
  },
  rss_method:
    'VmHWM of each role run as its own process (node --import tsx src/cli.ts <role>), read from /proc/<pid>/status just before it is stopped: api during bench/api-load.ts, worker during bench/deliveries.ts, indexer during bench/backfill.ts',
  targets: {
    backfill_tx_per_s: 5000,
    backfill_vs_raw_fetch: 0.8,
    block_to_webhook_p50_ms: 100,
    block_to_webhook_p99_ms: 500,
    deliveries_per_s: 3000,
    analyze_aml_p99_ms_at_200: 20,
  },
  failed,
};
writeResult('latest', latest);

const yes = (ok: boolean | undefined) => (ok === undefined ? '?' : ok ? 'met' : 'NOT met');
console.log('\n== summary (bench/results/latest.json)');
if (latest.backfill)
  console.log(
    `backfill            ${latest.backfill.tx_per_s} tx/s, ${latest.backfill.blocks_per_s} blocks/s; raw fetch ${latest.backfill.raw_fetch_tx_per_s} tx/s (${Math.round((latest.backfill.tx_per_s / latest.backfill.raw_fetch_tx_per_s) * 100)}%)   targets 5,000 tx/s: ${yes(latest.backfill.tx_per_s >= 5000)}, 0.8x: ${yes(latest.backfill.tx_per_s >= 0.8 * latest.backfill.raw_fetch_tx_per_s)}`,
  );
if (latest.block_to_webhook_ms)
  console.log(
    `block to webhook    p50 ${latest.block_to_webhook_ms.p50} ms, p95 ${latest.block_to_webhook_ms.p95} ms, p99 ${latest.block_to_webhook_ms.p99} ms   targets p50 100: ${yes(latest.block_to_webhook_ms.p50 <= 100)}, p99 500: ${yes(latest.block_to_webhook_ms.p99 <= 500)}`,
  );
if (latest.deliveries_per_s !== undefined) {
  console.log(
    `deliveries          ${latest.deliveries_per_s}/s   target 3,000/s: ${yes(latest.deliveries_per_s >= 3000)}; out of order ${latest.deliveries?.out_of_order} (target 0)`,
  );
  console.log(
    `  beside a dead receiver: ${latest.deliveries?.dead_receiver_healthy_per_s}/s to the healthy one`,
  );
}
for (const [route, r] of Object.entries(latest.api ?? {}) as [
  string,
  { connections: number; rps: number; p50_ms: number; p99_ms: number },
][]) {
  console.log(
    `${route.padEnd(19)} ${r.rps} req/s, p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms at ${r.connections} connections${route === '/analyze/aml' ? `   target p99 20 ms at 200: ${yes(r.p99_ms <= 20)}` : ''}`,
  );
}
console.log(
  `peak RSS            api ${latest.rss_mb.api ?? '?'} MiB, worker ${latest.rss_mb.worker ?? '?'} MiB, indexer ${latest.rss_mb.indexer ?? '?'} MiB`,
);
if (latest.travelrule)
  console.log(
    `travel rule         TRP inquiries ${latest.travelrule.trp_inquiries_per_s}/s (p99 ${latest.travelrule.trp_inquiry_p99_ms} ms), create_tx ${latest.travelrule.create_tx_per_s}/s (p99 ${latest.travelrule.create_tx_p99_ms} ms)`,
  );
if (failed.length) {
  console.log(`failed: ${failed.join(', ')}`);
  process.exit(1);
}
