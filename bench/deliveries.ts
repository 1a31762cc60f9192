/**
 * Webhook delivery throughput, with the ordering a receiver relies on, and one dead receiver.
 *   npm run bench:deliveries -- [N]      (default 5,000) writes bench/results/deliveries.json
 *
 * Phase "healthy": N stream events over SUBSCRIPTIONS streamed addresses (default 50): N/2
 * plain transfers, each with its unconfirmed and its confirmed event, written together and
 * interleaved as the indexer leaves them when a confirmation lands in the batch that saw the
 * transaction (the case where the confirmed one could overtake the unconfirmed one). The worker
 * role, as its own process (`tollgate worker`, its configured concurrency), delivers them to a
 * local receiver that verifies every signature (standardwebhooks) and answers 200 at once.
 * Each delivery is the worker's whole path: claim, load the transaction, build and freeze the
 * body, sign, POST, record the attempt.
 * The receiver counts, per (address, transaction): a confirmed delivery arriving before the
 * unconfirmed one (`out_of_order`), and, where bodies carry a `sequence`, a confirmed one not
 * numbered above its unconfirmed one (`sequence_violations`); and any webhook-id seen with two
 * different bodies.
 * Throughput is (received − 1) over the time from the first arrival to the last, so the worker's
 * start-up is not in it; the worker's peak RSS (VmHWM) is reported.
 *
 * Phase "dead receiver": min(N, 5,000) more events to the healthy receiver and a tenth as many
 * to addresses whose webhook accepts connections and never answers, interleaved, the dead ones
 * first in due order. Reported: the healthy receiver's rate meanwhile (same definition), within
 * a deadline of DEAD_PHASE_DEADLINE_S.
 *
 * The bench runs against this tree and against an older one (copy this file into its bench/):
 * where the schema has no outbox (webhook_sequences), each event gets its graphile-worker job
 * (`deliver_webhook`, job key evt:<id>), as that design's indexer wrote them.
 * Figures, not assertions. Target (issue 11): 3,000 deliveries/s, out_of_order 0.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../src/config/index.js';
import { openDatabase } from '../src/db/open.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { ensureNetworkPartitions } from '../src/indexer/evm/store.js';
import { createApiKey } from '../src/keys/keys.js';
import { setLogLevel } from '../src/log.js';

import { freePort } from '../support/ports.js';
import { machine, round, writeResult } from './lib/common.js';
import { startRole } from './lib/role.js';

const N = Math.floor(Number(process.argv[2] ?? 5000) / 2) * 2;
const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 50);
const DEAD_SUBSCRIPTIONS = 5;
const DEAD_PHASE_DEADLINE_S = Number(process.env.BENCH_DEAD_PHASE_DEADLINE_S ?? 90);
const HEALTHY_TIMEOUT_MS = 10 * 60_000;

setLogLevel('warn');
const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-deliveries-'));
chmodSync(dir, 0o711);
const pg = await startEmbeddedPostgres(join(dir, 'pg'), await freePort());

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

/** What the healthy receiver saw in one phase. */
class Arrivals {
  readonly bodies = new Map<string, string>();
  firstAt = 0;
  lastAt = 0;
  badSignatures = 0;
  repeats = 0;
  differentBodies = 0;
  outOfOrder = 0;
  sequenceViolations = 0;
  withSequence = 0;
  /** Per address|hash: the sequence of its unconfirmed delivery (null: none carried), and whether its confirmed one came. */
  private readonly txs = new Map<
    string,
    { unconfirmedSeq?: number | null; confirmed: boolean; confirmedSeq?: number | null }
  >();

  take(id: string, body: string): void {
    const now = performance.now();
    const before = this.bodies.get(id);
    if (before !== undefined) {
      this.repeats++;
      if (before !== body) this.differentBodies++;
      return;
    }
    this.bodies.set(id, body);
    if (this.bodies.size === 1) this.firstAt = now;
    this.lastAt = now;
    const p = JSON.parse(body) as {
      sequence?: number;
      confirmed: boolean;
      tx: { hash: string; address: string };
    };
    const seq = typeof p.sequence === 'number' ? p.sequence : null;
    if (seq !== null) this.withSequence++;
    const k = `${p.tx.address}|${p.tx.hash}`;
    const t = this.txs.get(k) ?? { confirmed: false };
    this.txs.set(k, t);
    if (p.confirmed) {
      t.confirmed = true;
      t.confirmedSeq = seq;
      if (
        t.unconfirmedSeq !== undefined &&
        seq !== null &&
        t.unconfirmedSeq !== null &&
        seq <= t.unconfirmedSeq
      )
        this.sequenceViolations++;
    } else {
      t.unconfirmedSeq = seq;
      if (t.confirmed) {
        this.outOfOrder++;
        if (seq !== null && t.confirmedSeq != null && t.confirmedSeq <= seq)
          this.sequenceViolations++;
      }
    }
  }

  get received(): number {
    return this.bodies.size;
  }

  rate(): number {
    const s = (this.lastAt - this.firstAt) / 1000;
    return this.received > 1 && s > 0 ? round((this.received - 1) / s) : 0;
  }
}

let verifier: Webhook;
let arrivals = new Arrivals();
const receiver = createServer(async (req, res) => {
  const body = await readBody(req);
  try {
    verifier.verify(body, req.headers as Record<string, string>);
  } catch {
    arrivals.badSignatures++;
  }
  arrivals.take(String(req.headers['webhook-id']), body);
  res.writeHead(200).end();
});
// Takes the request and never answers: the worker's webhook timeout is what ends each attempt.
let deadRequests = 0;
const dead = createServer((req) => {
  deadRequests++;
  req.resume();
});
dead.requestTimeout = 0;
dead.headersTimeout = 0;
const listen = async (s: Server) => {
  s.listen(0, '127.0.0.1');
  await new Promise((r) => s.once('listening', r));
  return `http://127.0.0.1:${(s.address() as net.AddressInfo).port}/hook`;
};
const hook = await listen(receiver);
const deadHook = await listen(dead);

const env = {
  DATABASE_URL: pg.url,
  TOLLGATE_DATA_DIR: dir,
  TOLLGATE_HOST: '127.0.0.1',
  TOLLGATE_PORT: '0',
  // Payloads of plain transfers read no token metadata: the node is never asked.
  TOLLGATE_RPC_ETH: 'http://127.0.0.1:1',
  TOLLGATE_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
  TOLLGATE_LOG_LEVEL: process.env.TOLLGATE_LOG_LEVEL ?? 'warn',
  // The worker's concurrency settings, where given, pass through (TOLLGATE_DELIVERY_CONCURRENCY …).
  ...Object.fromEntries(
    Object.entries(process.env).filter(([k]) => /^TOLLGATE_(DELIVERY|WORKER)_/.test(k)) as [
      string,
      string,
    ][],
  ),
};
const config = loadConfig(env) as unknown as Record<string, unknown>;
const concurrency = {
  worker: config.worker_concurrency,
  delivery: config.delivery_concurrency,
  delivery_endpoint: config.delivery_endpoint_concurrency,
};
const db = await openDatabase(loadConfig(env));
const sql = db.sql;
const outbox = (
  await sql<{ outbox: boolean }[]>`select to_regclass('webhook_sequences') is not null as outbox`
)[0]!.outbox;
await ensureNetworkPartitions(sql, 'eth');
const key = await createApiKey(sql, 'bench');
verifier = new Webhook(key.webhook_secret);

// Subscriptions 0..S-1 stream to the receiver, S..S+DEAD-1 to the dead one.
await sql`create table bench_subs (i int primary key, tracked_id bigint not null, address text not null)`;
for (let i = 0; i < SUBSCRIPTIONS + DEAD_SUBSCRIPTIONS; i++) {
  const address = `0x${i.toString(16).padStart(40, 'a')}`;
  const url = i < SUBSCRIPTIONS ? hook : deadHook;
  const [t] = await sql<
    { id: string }[]
  >`insert into tracked_addresses (api_key_id, address, family, stream_webhook, stream_created_at)
    values (${key.id}, ${address}, 'evm', ${url}, now()) returning id`;
  await sql`insert into bench_subs values (${i}, ${t!.id}, ${address})`;
}
const TOTAL_BLOCKS = N / 2 + Math.min(N, 5000) / 2 + Math.min(N, 5000) / 10 + 10;
await sql`insert into indexer_cursors (network, chain_id, block_number, block_hash) values ('eth', 31337, ${TOTAL_BLOCKS}, ${'0x' + 'cd'.repeat(32)})`;

/**
 * Writes `txs` transfers in blocks from + 1 .. from + txs, transfer g to subscription sub(g),
 * each with its unconfirmed and confirmed event (interleaved, in that order), and, in the old
 * design, their jobs. Returns when committed.
 */
async function writeEvents(from: number, txs: number, sub: string) {
  const g = `(${from} + s)`;
  const h = (suffix: string) => `'0x' || lpad(to_hex(${g}), 62, '0') || '${suffix}'`;
  await sql.begin(async (tx) => {
    await tx.unsafe(`insert into evm_blocks (network, number, hash, parent_hash, timestamp, tx_count)
      select 'eth', ${g}, ${h('b0')}, ${h('a0')}, 1700000000 + ${g} * 12, 1 from generate_series(1, ${txs}) s`);
    await tx.unsafe(`insert into evm_transactions (network, hash, block_number, block_hash, tx_index, from_address, to_address, value, gas, gas_price, gas_used, nonce, input, status)
      select 'eth', ${h('70')}, ${g}, ${h('b0')}, 0, '0x${'12'.repeat(20)}', b.address, ${g} * 1000, 21000, 1000000000, 21000, ${g}, '0x', 1
      from generate_series(1, ${txs}) s join bench_subs b on b.i = ${sub}`);
    const events = `insert into webhook_events (kind, api_key_id, tracked_id, network, address, tx_hash, block_number, block_hash, confirmed)
      select 'stream', ${key.id}, b.tracked_id, 'eth', b.address, ${h('70')}, ${g}, ${h('b0')}, c.confirmed
      from generate_series(1, ${txs}) s join bench_subs b on b.i = ${sub} cross join (values (false), (true)) c(confirmed)
      order by s, c.confirmed
      returning id`;
    if (outbox) await tx.unsafe(events);
    else
      await tx.unsafe(
        `with ins as (${events}) select graphile_worker.add_job('deliver_webhook', json_build_object('event_id', ins.id), max_attempts => 25, job_key => 'evt:' || ins.id::text) from ins`,
      );
  });
}

async function waitFor(done: () => boolean, ms: number, worker: { running(): boolean }) {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline && worker.running())
    await new Promise((r) => setTimeout(r, 20));
}

// Phase 1: N events to the healthy receiver.
let built = performance.now();
await writeEvents(0, N / 2, `s % ${SUBSCRIPTIONS}`);
console.log(
  `${outbox ? 'outbox' : 'graphile-worker jobs'}: wrote ${N} events (${N / 2} transactions × unconfirmed + confirmed, ${SUBSCRIPTIONS} subscriptions) in ${Math.round(performance.now() - built)} ms; starting the worker`,
);
let worker = startRole('worker', env);
await waitFor(() => arrivals.received >= N, HEALTHY_TIMEOUT_MS, worker);
const workerRssMb = await worker.stop();
const [counts] = await sql<{ delivered: number; attempts: number }[]>`
  select count(*) filter (where status = 'delivered')::int as delivered, coalesce(sum(attempts), 0)::int as attempts from webhook_events`;
const healthy = arrivals;

// Phase 2: the healthy receiver next to a dead one.
arrivals = new Arrivals();
const M = Math.min(N, 5000);
const D = Math.floor(M / 20) * 2;
built = performance.now();
await writeEvents(N / 2, D / 2, `${SUBSCRIPTIONS} + s % ${DEAD_SUBSCRIPTIONS}`);
await writeEvents(N / 2 + D / 2, M / 2, `s % ${SUBSCRIPTIONS}`);
console.log(
  `dead receiver phase: wrote ${D} events to a receiver that never answers, then ${M} to the healthy one; starting the worker`,
);
worker = startRole('worker', env);
const phaseStart = performance.now();
await waitFor(() => arrivals.received >= M, DEAD_PHASE_DEADLINE_S * 1000, worker);
const phaseS = (performance.now() - phaseStart) / 1000;
await worker.stop();

const result = {
  date: new Date().toISOString(),
  machine: machine(),
  design: outbox ? 'outbox' : 'graphile-worker job per event',
  events: N,
  subscriptions: SUBSCRIPTIONS,
  concurrency,
  received: healthy.received,
  delivered_in_db: counts!.delivered,
  attempts: counts!.attempts,
  repeats: healthy.repeats,
  different_bodies: healthy.differentBodies,
  bad_signatures: healthy.badSignatures,
  out_of_order: healthy.outOfOrder,
  with_sequence: healthy.withSequence,
  sequence_violations: healthy.sequenceViolations,
  seconds: round((healthy.lastAt - healthy.firstAt) / 1000),
  deliveries_per_s: healthy.rate(),
  rss_mb: { worker: workerRssMb },
  dead_receiver: {
    healthy_events: M,
    dead_events: D,
    healthy_received: arrivals.received,
    healthy_deliveries_per_s: arrivals.rate(),
    out_of_order: arrivals.outOfOrder,
    dead_requests: deadRequests,
    phase_seconds: round(phaseS),
    deadline_s: DEAD_PHASE_DEADLINE_S,
  },
};
console.log(
  `webhook deliveries: ${result.received} of ${N} received in ${result.seconds} s: ${result.deliveries_per_s} deliveries/s; out of order ${result.out_of_order}, sequence violations ${result.sequence_violations} (${result.with_sequence} carried one), ${result.bad_signatures} bad signatures, ${result.repeats} repeats, ${result.different_bodies} with two bodies`,
);
console.log(
  `with a dead receiver beside it: ${arrivals.received} of ${M} received by the healthy one at ${result.dead_receiver.healthy_deliveries_per_s}/s (${round(phaseS)} s, deadline ${DEAD_PHASE_DEADLINE_S} s); ${deadRequests} requests hung on the dead one`,
);
console.log(`worker peak RSS: ${workerRssMb} MiB; concurrency ${JSON.stringify(concurrency)}`);
writeResult('deliveries', result);

await db.close();
receiver.closeAllConnections();
dead.closeAllConnections();
receiver.close();
dead.close();
await pg.stop();
rmSync(dir, { recursive: true, force: true });
