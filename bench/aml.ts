/**
 * GET /v2/analyze/aml latency over a large counterparty graph: an address with 10,000
 * counterparties in an address_edges graph of about 1,000,000 rows (both directions), built with
 * generate_series in an embedded Postgres, with 1,000 labelled addresses (and the shipped OFAC
 * lists). Requests go through the real HTTPS API, one at a time. Before timing, the answer is
 * checked to be the same whichever way the two-hop search runs (inward from the labels, or
 * outward from the counterparties; src/aml/exposure.ts).
 * Then, alternating in one run, the exposure walked and read from address_exposure; and the time a
 * label on a hub with 100,000 counterparties takes to update every count it changes.
 *   node --import tsx bench/aml.ts [requests] [compare-runs] [scale]
 *     writes bench/results/aml.json (scale 10: aml-10x.json, about 10,000,000 edge rows)
 * Figures, not assertions.
 */
import { Agent, request } from 'undici';
import { addressFacts } from '../src/aml/exposure.js';
import { applyPendingExposure, rebuildExposure } from '../src/aml/exposure-store.js';
import { addEdges } from '../src/indexer/edges.js';
import { createApiKey } from '../src/keys/keys.js';
import { AML_GRAPH, AML_TARGET, buildAmlGraph } from './lib/aml-graph.js';
import { startBenchApi } from './lib/api-appliance.js';
import { machine, writeResult } from './lib/common.js';

const REQUESTS = Number(process.argv[2] ?? 2000);
/** The random part of the graph times this: 10 gives about 10,000,000 edge rows. */
const SCALE = Number(process.argv[4] ?? 1);
/** Runs of each way (walk, stored) in the alternating comparison. */
const COMPARE = Number(process.argv[3] ?? 100);
const { counterparties: COUNTERPARTIES, labels: LABELS } = AML_GRAPH;
const POOL = AML_GRAPH.pool * SCALE;

const bench = await startBenchApi('aml');
const { app, config } = bench;
const sql = app.db.sql;
const target = AML_TARGET;
const built = performance.now();
const edges = await buildAmlGraph(sql, SCALE);
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

// A label on a hub: an address with HUB_DEGREE counterparties (pool addresses) becomes
// sanctioned. Timed: the label's statement, whose triggers update the counts of every address
// one and two hops from it before it returns (nothing is left for later).
const HUB = `0x${'ee'.repeat(20)}`;
const HUB_DEGREE = Math.min(100_000, POOL);
await sql.unsafe(`insert into address_edges (network, address, counterparty, tx_count, first_seen, last_seen)
  select 'eth', '${HUB}', '0x' || lpad(to_hex(g), 40, '0'), 1, 1600000000, 1700000000 from generate_series(1, ${HUB_DEGREE}) g
  union all select 'eth', '0x' || lpad(to_hex(g), 40, '0'), '${HUB}', 1, 1600000000, 1700000000 from generate_series(1, ${HUB_DEGREE}) g`);
await rebuildExposure(sql, 'eth'); // the hub's edges were written in SQL, not by the indexer
await sql`vacuum analyze address_exposure`;
const hubStarted = performance.now();
await sql`insert into labels (network, address, category, source) values ('eth', ${HUB}, 'sanctioned', 'bench-hub')`;
const queuedMs = performance.now() - hubStarted;
// Above aml.exposure_defer_above the label is queued; the exposure_apply job's work, run here one
// transaction per call (a version that applies it whole does it all in the first call). Beside
// it, an indexer's edge batch every 20 ms (one transaction, two pool addresses): how long each
// waits for the network's exposure lock is how long the job stalls the indexer.
const jobTxMs: number[] = [];
const batchMs: number[] = [];
let jobDone = false;
const indexer = (async () => {
  for (let i = 0; !jobDone; i++) {
    const a = '0x' + (1 + ((i * 7919) % POOL)).toString(16).padStart(40, '0');
    const b = '0x' + (1 + ((i * 104_729 + 13) % POOL)).toString(16).padStart(40, '0');
    const started = performance.now();
    await sql.begin((tx) =>
      addEdges(tx, 'eth', [{ timestamp: 1_700_000_100n + BigInt(i), pairs: [[a, b]] }]),
    );
    batchMs.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 20));
  }
})();
for (;;) {
  const [pending] = await sql<{ n: number }[]>`select count(*)::int as n from exposure_pending`;
  if (pending!.n === 0) break;
  const started = performance.now();
  await applyPendingExposure(sql, { transactions: 1 });
  jobTxMs.push(performance.now() - started);
}
const hubMs = performance.now() - hubStarted;
jobDone = true;
await indexer;
const [reached] = await sql<{ direct: number; indirect: number }[]>`
  select count(*) filter (where direct_n > 0)::int as direct, count(*) filter (where indirect_n > 0)::int as indirect
  from address_exposure where network = 'eth' and category = 'sanctioned'`;
const probe = '0x' + (HUB_DEGREE + 7).toString(16).padStart(40, '0');
const probeStored = await addressFacts(sql, 'eth', probe, factOpts);
const probeWalked = await addressFacts(sql, 'eth', probe, { ...factOpts, walk: true });
if (JSON.stringify(probeStored) !== JSON.stringify(probeWalked))
  throw new Error('after the hub label, the stored exposure and the walk disagree');
console.log(
  `label on a hub with ${HUB_DEGREE} counterparties: its transaction ${Math.round(queuedMs)} ms; ${Math.round(hubMs)} ms until every count was updated (${reached!.direct} addresses now direct_sanctioned, ${reached!.indirect} indirect_sanctioned)`,
);
const jobLongest = Math.round(Math.max(...jobTxMs));
const batchLongest = Math.round(Math.max(...batchMs));
console.log(
  `  the job: ${jobTxMs.length} transactions, the longest ${jobLongest} ms; an indexer batch beside it: ${batchMs.length} batches, p50 ${pctOf(batchMs, 50)} ms, longest ${batchLongest} ms`,
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
  scale: SCALE,
  hub_label: {
    counterparties: HUB_DEGREE,
    ms: Math.round(hubMs),
    label_transaction_ms: Math.round(queuedMs),
    job_transactions: jobTxMs.length,
    job_longest_transaction_ms: jobLongest,
    indexer_batches_beside: batchMs.length,
    indexer_batch_p50_ms: pctOf(batchMs, 50),
    indexer_batch_longest_ms: batchLongest,
    direct: reached!.direct,
    indirect: reached!.indirect,
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
writeResult(SCALE === 1 ? 'aml' : `aml-${SCALE}x`, result);
await bench.stop();
