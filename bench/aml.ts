/**
 * GET /v2/analyze/aml latency over a large counterparty graph: an address with 10,000
 * counterparties in an address_edges graph of about 1,000,000 rows (both directions), built with
 * generate_series in an embedded Postgres, with 1,000 labelled addresses (and the shipped OFAC
 * lists). Requests go through the real HTTPS API, one at a time. Before timing, the answer is
 * checked to be the same whichever way the two-hop search runs (inward from the labels, or
 * outward from the counterparties; src/aml/exposure.ts).
 *   node --import tsx bench/aml.ts [requests]          writes bench/results/aml.json
 * Figures, not assertions.
 */
import { Agent, request } from 'undici';
import { addressFacts } from '../src/aml/exposure.js';
import { createApiKey } from '../src/keys/keys.js';
import { AML_GRAPH, AML_TARGET, buildAmlGraph } from './lib/aml-graph.js';
import { startBenchApi } from './lib/api-appliance.js';
import { machine, writeResult } from './lib/common.js';

const REQUESTS = Number(process.argv[2] ?? 300);
/** Runs of each way (walk, stored) in the alternating comparison. */
const COMPARE = Number(process.argv[3] ?? 100);
const { counterparties: COUNTERPARTIES, pool: POOL, labels: LABELS } = AML_GRAPH;

const bench = await startBenchApi('aml');
const { app, config } = bench;
const sql = app.db.sql;
const target = AML_TARGET;
const built = performance.now();
const edges = await buildAmlGraph(sql);
const buildS = (performance.now() - built) / 1000;
console.log(
  `graph: ${edges} edge rows, target with ${COUNTERPARTIES} counterparties, ${LABELS} labels; built in ${buildS.toFixed(1)} s`,
);

// The same findings whichever way the two-hop search runs.
const factOpts = {
  maxCounterparties: config.aml.max_counterparties,
  countUpTo: config.aml.new_wallet_min_tx,
};
const inward = await addressFacts(sql, 'eth', target, { ...factOpts, walk: true });
const outward = await addressFacts(sql, 'eth', target, {
  ...factOpts,
  walk: true,
  inwardBudgetEdges: 0,
});
const stored = await addressFacts(sql, 'eth', target, factOpts);
if (JSON.stringify(inward) !== JSON.stringify(outward))
  throw new Error(
    `the two-hop walks disagree: ${JSON.stringify(inward)} vs ${JSON.stringify(outward)}`,
  );
if (JSON.stringify(stored) !== JSON.stringify(inward))
  throw new Error(
    `the stored exposure and the walk disagree: ${JSON.stringify(stored)} vs ${JSON.stringify(inward)}`,
  );

// Before (the walk) and after (the stored exposure), alternating in this run, in-process.
const compared: Record<'walk' | 'stored', number[]> = { walk: [], stored: [] };
for (let i = 0; i < 2 * COMPARE + 10; i++) {
  const mode = i % 2 === 0 ? 'walk' : 'stored';
  const started = performance.now();
  await addressFacts(sql, 'eth', target, { ...factOpts, walk: mode === 'walk' });
  if (i >= 10) compared[mode].push(performance.now() - started);
}
const pctOf = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 100) / 100;
};
for (const mode of ['walk', 'stored'] as const)
  console.log(
    `exposure of the target, ${mode}: p50 ${pctOf(compared[mode], 50)} ms, p99 ${pctOf(compared[mode], 99)} ms (${compared[mode].length} runs, alternating)`,
  );

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
const pct = (p: number) =>
  Math.round(timings[Math.min(timings.length - 1, Math.floor((p / 100) * timings.length))]! * 10) /
  10;
const trueTags = Object.keys(answer.data.tags).filter((t) => answer.data.tags[t]);
console.log(`answer: score ${answer.data.score}, tags ${trueTags.join(', ')}`);
console.log(
  `GET /v2/analyze/aml, ${REQUESTS} requests: p50 ${pct(50)} ms, p95 ${pct(95)} ms, p99 ${pct(99)} ms, max ${pct(100)} ms`,
);

const result = {
  date: new Date().toISOString(),
  machine: machine(),
  graph: {
    edge_rows: edges,
    counterparties: COUNTERPARTIES,
    pool: POOL,
    labels: LABELS,
    build_s: Math.round(buildS * 10) / 10,
  },
  answer: { score: answer.data.score, true_tags: trueTags },
  latency_ms: { requests: REQUESTS, p50: pct(50), p95: pct(95), p99: pct(99), max: pct(100) },
  exposure_ms: Object.fromEntries(
    (['walk', 'stored'] as const).map((m) => [
      m,
      { runs: compared[m].length, p50: pctOf(compared[m], 50), p99: pctOf(compared[m], 99) },
    ]),
  ),
};
writeResult('aml', result);
await bench.stop();
