import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type Metric,
} from 'prom-client';
import type { Admission } from '../api/admission.js';
import type { Sql } from '../db/index.js';
import { within } from '../concurrency.js';
import { describeError } from '../errors.js';
import { log } from '../log.js';
import { jobQueueCounts, type QueueCounts } from './status.js';
import { networkFollowed } from '../indexer/network-lock.js';

/**
 * Prometheus metrics (GET /metrics). Two kinds:
 * - read from the database at each scrape: indexer positions and counters, job queues, webhook
 *   events and deliveries, travel rule transactions. They are right whichever process indexed
 *   or delivered, so any API process can be scraped. Counters kept in the database (reorgs,
 *   blocks, transactions, deliveries) are prom-client Counters whose collect() sets the stored
 *   total (`reset()` then `inc(total)`): the TYPE is counter, and rate() works across scrapes.
 * - measured in this process: HTTP request latency by route pattern, and Node's process metrics.
 * Access control is src/monitoring/metrics-access.ts.
 */

const PREFIX = 'tollgate_';

/** The kinds and statuses of webhook events, each reported (0 when none). */
const WEBHOOK_KINDS = ['stream', 'liveaml', 'travelrule'] as const;
const WEBHOOK_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;

/** Upper bounds (seconds) of the webhook delivery latency histogram. Whole milliseconds each. */
export const DELIVERY_BUCKETS_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;
const HTTP_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const HTTP_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** A scrape's queries give up after this long rather than pile up behind a slow database. */
const SCRAPE_TIMEOUT_MS = 10_000;
/**
 * How long a scrape waits for the database figures: then it is answered without them
 * (database_up 0), well within Prometheus's default scrape timeout (10 s). A frozen Postgres
 * (SIGSTOP, a paused VM) answers nothing and fails no statement: the scrape waited for the
 * request deadline and got a 503, which Prometheus sees as the process being down (found by an
 * outside probe).
 */
const SCRAPE_WAIT_MS = 5_000;

interface CursorRow {
  network: string;
  head_number: string | null;
  block_number: string;
  halted: boolean;
  node_behind: boolean;
  reorg_count: string;
  blocks_indexed: string;
  txs_indexed: string;
  list_events_skipped: string;
  history_from: string | null;
  /** Seconds since the indexer last read its node's head; null: never. */
  head_seen_age_s: string | null;
  /** An indexer holds the network now (indexer/network-lock.ts). */
  followed: boolean;
  backfill_remaining: string;
  backfill_blocks: string;
  backfill_txs: string;
  retrace_remaining: string;
  retrace_blocks: string;
  /**
   * EVM: whether the newest indexed block with transactions (among the last 1,000) had its call
   * traces read; null on other networks, or without such a block.
   */
  traced: boolean | null;
}
/** Deliveries per kind, outcome and latency bucket (index into DELIVERY_BUCKETS_SECONDS; its length = +Inf). */
interface DeliveryRow {
  kind: string;
  delivered: boolean;
  bucket: number;
  n: string;
  sum_ms: string;
}
interface Snapshot {
  cursors: CursorRow[];
  jobs: QueueCounts[];
  deliveries: DeliveryRow[];
  events: { kind: string; status: string; n: string }[];
  givenUp: { kind: string; n: string }[];
  travelRule: { status: string; direction: string; n: string }[];
  exposurePending: { network: string; n: string }[];
  endpoints: { disabled: string; disablements: string };
}

/**
 * The database figures of one scrape, in one read-only transaction. webhook_deliveries and
 * webhook_events are aggregated in full (one scan each per scrape: a few hundred ms at a few
 * million rows; past that, keep running totals instead). indexer_cursors has a row per network,
 * graphile-worker's table holds only unfinished jobs, travel rule counts use the status index.
 */
async function readSnapshot(sql: Sql): Promise<Snapshot> {
  // width_bucket counts the thresholds <= x; with thresholds at bound + 1 ms it counts the
  // buckets an integer duration is above, i.e. the index of the first bucket with x <= le.
  const thresholdsMs = DELIVERY_BUCKETS_SECONDS.map((s) => Math.round(s * 1000) + 1);
  return sql.begin('read only', async (tx) => {
    await tx`select set_config('statement_timeout', ${String(SCRAPE_TIMEOUT_MS)}, true)`;
    const cursors = await tx<CursorRow[]>`
      select network, head_number, block_number, halted_reason is not null as halted, node_behind is not null as node_behind, reorg_count, blocks_indexed, txs_indexed, list_events_skipped,
        history_from, extract(epoch from now() - head_seen_at) as head_seen_age_s,
        ${networkFollowed(tx, tx`c.network`)} as followed,
        (select coalesce(sum(greatest(b.next_block - b.from_block + 1, 0)), 0) from indexer_backfills b
          where b.network = c.network and b.status = 'running' and b.kind = 'blocks') as backfill_remaining,
        (select coalesce(sum(b.blocks_done), 0) from indexer_backfills b where b.network = c.network and b.kind = 'blocks') as backfill_blocks,
        (select coalesce(sum(b.txs_done), 0) from indexer_backfills b where b.network = c.network and b.kind = 'blocks') as backfill_txs,
        (select coalesce(sum(greatest(b.next_block - b.from_block + 1, 0)), 0) from indexer_backfills b
          where b.network = c.network and b.status = 'running' and b.kind = 'traces') as retrace_remaining,
        (select coalesce(sum(b.blocks_done), 0) from indexer_backfills b where b.network = c.network and b.kind = 'traces') as retrace_blocks,
        (select k.traced from evm_blocks k where k.network = c.network and k.number <= c.block_number
          and k.number > c.block_number - 1000 and k.tx_count > 0 order by k.number desc limit 1) as traced
      from indexer_cursors c`;
    const jobs = await jobQueueCounts(tx);
    const deliveries = await tx<DeliveryRow[]>`
      select e.kind, coalesce(d.status_code between 200 and 299, false) as delivered,
        width_bucket(d.duration_ms, ${thresholdsMs}::int[]) as bucket, count(*) as n, sum(d.duration_ms) as sum_ms
      from webhook_deliveries d join webhook_events e on e.id = d.event_id
      group by 1, 2, 3`;
    const events = await tx<
      Snapshot['events']
    >`select kind, status, count(*) as n from webhook_events group by kind, status`;
    const givenUp = await tx<Snapshot['givenUp']>`
      select kind, count(*) as n from webhook_events where gave_up_at is not null and status = 'failed' group by kind`;
    const travelRule = await tx<
      Snapshot['travelRule']
    >`select status, direction, count(*) as n from travelrule_transactions group by status, direction`;
    const exposurePending = await tx<
      Snapshot['exposurePending']
    >`select network, count(*) as n from exposure_pending group by network`;
    // One row per key and URL that ever failed (webhook_endpoints): small.
    const [endpoints] = await tx<Snapshot['endpoints'][]>`
      select count(*) filter (where disabled_at is not null) as disabled, coalesce(sum(disablements), 0) as disablements
      from webhook_endpoints`;
    return {
      cursors,
      jobs,
      deliveries,
      events,
      givenUp,
      travelRule,
      exposurePending,
      endpoints: endpoints!,
    };
  }) as Promise<Snapshot>;
}

/**
 * A histogram whose buckets are counted in SQL at each scrape (prom-client's Histogram only
 * observes values one by one). It renders as a Prometheus histogram: cumulative _bucket{le}
 * series ending with +Inf, then _sum and _count, per label set.
 */
class DbHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private values: { labels: Record<string, string>; counts: number[]; sum: number }[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    private readonly collect: (h: DbHistogram) => Promise<void>,
  ) {}

  /** One label set: `counts[i]` observations in bucket i alone (i = bounds.length: above the last), `sum` in the unit of the bounds. */
  set(labels: Record<string, string>, counts: number[], sum: number): void {
    this.values.push({ labels, counts, sum });
  }

  reset(): void {
    this.values = [];
  }

  async get() {
    await this.collect(this);
    const values = this.values.flatMap(({ labels, counts, sum }) => {
      let cumulative = 0;
      const buckets = [...this.bounds, Number.POSITIVE_INFINITY].map((le, i) => {
        cumulative += counts[i] ?? 0;
        return {
          metricName: `${this.name}_bucket`,
          labels: { ...labels, le: le === Number.POSITIVE_INFINITY ? '+Inf' : le },
          value: cumulative,
        };
      });
      return [
        ...buckets,
        { metricName: `${this.name}_sum`, labels, value: sum },
        { metricName: `${this.name}_count`, labels, value: cumulative },
      ];
    });
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values,
    };
  }
}

export interface Metrics {
  registry: Registry;
  /** Times every request; mount it first. */
  httpMiddleware: MiddlewareHandler;
  /** Serves the registry (mount behind metricsAccess). */
  handler(c: Context): Promise<Response>;
}

/** A fresh registry (not prom-client's global one) with every Tollgate metric. */
export function createMetrics(sql: Sql, admission?: Admission): Metrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry, prefix: PREFIX });

  if (admission) {
    new Gauge({
      name: `${PREFIX}api_requests_running`,
      help: `Requests of this process at work on the API's pool (at most api_max_concurrent_requests, ${admission.limit} here).`,
      registers,
      collect() {
        this.set(admission.inUse);
      },
    });
    new Gauge({
      name: `${PREFIX}api_requests_waiting`,
      help: 'Requests of this process waiting for their turn (all api_max_concurrent_requests places taken).',
      registers,
      collect() {
        this.set(admission.queued);
      },
    });
    new Counter({
      name: `${PREFIX}api_requests_expired_waiting_total`,
      help: 'Requests answered 503 at their deadline while waiting for their turn: nothing of them ran.',
      registers,
      collect() {
        this.reset();
        this.inc(admission.expiredWaiting);
      },
    });
  }

  // One snapshot per scrape: every collect() of a scrape shares the queries in flight.
  let inFlight: Promise<Snapshot | undefined> | undefined;
  const snapshot = (): Promise<Snapshot | undefined> => {
    inFlight ??= within(readSnapshot(sql), SCRAPE_WAIT_MS)
      .catch((err: unknown) => {
        log.warn({ error: describeError(err) }, 'metrics: database figures unavailable');
        return undefined;
      })
      .finally(() => setImmediate(() => (inFlight = undefined)));
    return inFlight;
  };
  /**
   * Collects a metric from the snapshot; without one (the database out of reach or too slow for
   * this scrape, said by database_up 0) it keeps the values of the last scrape that had one. Reset
   * to nothing, a counter read 0 during an outage and its value again after, which Prometheus
   * takes for a reset and a new increase (a false "endpoint disabled" alert), and a gauge without
   * labels read 0 (found by an outside probe).
   */
  const fromDb = <M extends { reset(): void }>(fill: (m: M, s: Snapshot) => void) =>
    async function (this: M) {
      const s = await snapshot();
      if (!s) return;
      this.reset();
      fill(this, s);
    };

  new Gauge({
    name: `${PREFIX}database_up`,
    help: '1 when this scrape could read the database figures, else 0.',
    registers,
    async collect() {
      this.set((await snapshot()) ? 1 : 0);
    },
  });

  const perNetwork = (
    name: string,
    help: string,
    value: (r: CursorRow) => string | number | null,
  ) =>
    new Gauge({
      name: `${PREFIX}${name}`,
      help,
      labelNames: ['network'],
      registers,
      collect: fromDb<Gauge<'network'>>((g, s) => {
        for (const r of s.cursors) {
          const v = value(r);
          if (v !== null) g.set({ network: r.network }, Number(v));
        }
      }),
    });
  perNetwork(
    'indexer_head_block',
    'Head block of the node as the indexer last saw it.',
    (r) => r.head_number,
  );
  // An indexer killed, or unable to reach its node, froze indexer_head_block and lag at their
  // last values: lag 0 while the node went on (found by an outside probe). This one grows.
  perNetwork(
    'indexer_head_seen_age_seconds',
    "Seconds since the network's indexer last read its node's head (it reads it at every poll); growing: the indexer is not running or cannot reach its node.",
    (r) => (r.head_seen_age_s === null ? null : Math.round(Number(r.head_seen_age_s))),
  );
  perNetwork(
    'indexer_followed',
    '1 while an indexer holds the network (its database session is open), else 0: a killed or stopped indexer reads 0 at the next scrape.',
    (r) => (r.followed ? 1 : 0),
  );
  perNetwork('indexer_indexed_block', 'Last block whose data is stored.', (r) => r.block_number);
  perNetwork(
    'indexer_lag_blocks',
    'Blocks between the node head and the last stored block.',
    (r) =>
      r.head_number === null ? null : Math.max(Number(r.head_number) - Number(r.block_number), 0),
  );
  perNetwork(
    'indexer_history_from_block',
    'First block of the indexed history: every block from it to the indexed block is stored.',
    (r) => r.history_from,
  );
  perNetwork(
    'backfill_remaining_blocks',
    'Blocks the running backfill of the network still has to store (0 when none runs).',
    (r) => r.backfill_remaining,
  );
  perNetwork(
    'retrace_remaining_blocks',
    'EVM: the range the running retrace (call traces of blocks stored without them) still has to walk, in blocks (0 when none runs).',
    (r) => r.retrace_remaining,
  );
  perNetwork(
    'indexer_halted',
    '1 when the indexer stopped on purpose (e.g. a reorg deeper than allowed), else 0.',
    (r) => (r.halted ? 1 : 0),
  );
  perNetwork(
    'indexer_call_traces',
    "EVM: 1 when the newest indexed block with transactions (among the last 1,000) had its call traces read (internal transfers seen: a mixer's payout), 0 when not (the node has no call traces, lacked the block's state, or TOLLGATE_INTERNAL_TRANSFERS_<NETWORK>=off); absent on other networks.",
    (r) => (r.traced === null ? null : r.traced ? 1 : 0),
  );
  perNetwork(
    'indexer_node_behind',
    "1 when the network's node is behind the network (its newest block older than TOLLGATE_NODE_BEHIND_S_<NETWORK> once reached), else 0.",
    (r) => (r.node_behind ? 1 : 0),
  );

  const storedTotal = (name: string, help: string, value: (r: CursorRow) => string) =>
    new Counter({
      name: `${PREFIX}${name}`,
      help,
      labelNames: ['network'],
      registers,
      collect: fromDb<Counter<'network'>>((c, s) => {
        for (const r of s.cursors) c.inc({ network: r.network }, Number(value(r)));
      }),
    });
  storedTotal(
    'indexer_reorgs_total',
    'Reorgs the indexer followed (kept in the database).',
    (r) => r.reorg_count,
  );
  storedTotal(
    'indexer_blocks_total',
    'Blocks indexed (kept in the database).',
    (r) => r.blocks_indexed,
  );
  storedTotal(
    'indexer_transactions_total',
    'Transactions indexed (kept in the database).',
    (r) => r.txs_indexed,
  );
  storedTotal(
    'backfill_blocks_total',
    'Blocks stored by backfills (history below where indexing began; kept in the database).',
    (r) => r.backfill_blocks,
  );
  storedTotal(
    'backfill_transactions_total',
    'Transactions stored by backfills (kept in the database).',
    (r) => r.backfill_txs,
  );
  storedTotal(
    'retrace_blocks_total',
    'EVM: stored blocks whose call traces retraces read (kept in the database).',
    (r) => r.retrace_blocks,
  );
  storedTotal(
    'onchain_list_events_skipped_total',
    'Events of on-chain sanctions lists and blacklists that did not decode and were skipped (kept in the database).',
    (r) => r.list_events_skipped,
  );

  new Gauge({
    name: `${PREFIX}jobs`,
    help: 'Jobs in the queue by task and state (queued: waiting or backing off; running; failed: out of attempts).',
    labelNames: ['task', 'state'],
    registers,
    collect: fromDb<Gauge<'task' | 'state'>>((g, s) => {
      for (const j of s.jobs) {
        for (const state of ['queued', 'running', 'failed'] as const)
          g.set({ task: j.task, state }, j[state]);
      }
    }),
  });

  new Counter({
    name: `${PREFIX}webhook_deliveries_total`,
    help: 'Webhook delivery attempts by event kind and outcome (delivered: a 2xx answer).',
    labelNames: ['kind', 'outcome'],
    registers,
    collect: fromDb<Counter<'kind' | 'outcome'>>((c, s) => {
      for (const d of s.deliveries)
        c.inc({ kind: d.kind, outcome: d.delivered ? 'delivered' : 'failed_attempt' }, Number(d.n));
    }),
  });

  const latency = new DbHistogram(
    `${PREFIX}webhook_delivery_duration_seconds`,
    'Duration of webhook delivery attempts (every attempt on record, by event kind and outcome).',
    DELIVERY_BUCKETS_SECONDS,
    async (h) => {
      const s = await snapshot();
      h.reset();
      if (!s) return;
      const sets = new Map<
        string,
        { labels: Record<string, string>; counts: number[]; sumMs: number }
      >();
      for (const d of s.deliveries) {
        const labels = { kind: d.kind, outcome: d.delivered ? 'delivered' : 'failed_attempt' };
        const key = `${labels.kind}\n${labels.outcome}`;
        const entry = sets.get(key) ?? {
          labels,
          counts: new Array<number>(DELIVERY_BUCKETS_SECONDS.length + 1).fill(0),
          sumMs: 0,
        };
        entry.counts[d.bucket] = (entry.counts[d.bucket] ?? 0) + Number(d.n);
        entry.sumMs += Number(d.sum_ms);
        sets.set(key, entry);
      }
      for (const e of sets.values()) h.set(e.labels, e.counts, e.sumMs / 1000);
    },
  );
  registry.registerMetric(latency as unknown as Metric);

  new Gauge({
    name: `${PREFIX}webhook_events`,
    help: 'Webhook events by kind and status (pending, delivered, failed, cancelled).',
    labelNames: ['kind', 'status'],
    registers,
    collect: fromDb<Gauge<'kind' | 'status'>>((g, s) => {
      // Every status of every kind, 0 when there is none: a series that vanished when the
      // backlog drained left an alert on `pending > N` with no data.
      for (const kind of WEBHOOK_KINDS)
        for (const status of WEBHOOK_STATUSES) g.set({ kind, status }, 0);
      for (const e of s.events) g.set({ kind: e.kind, status: e.status }, Number(e.n));
    }),
  });

  new Gauge({
    name: `${PREFIX}webhook_events_given_up`,
    help: 'Webhook events given up (retries exhausted, or refused by the receiver) and not redelivered since, by kind.',
    labelNames: ['kind'],
    registers,
    collect: fromDb<Gauge<'kind'>>((g, s) => {
      for (const kind of WEBHOOK_KINDS) g.set({ kind }, 0);
      for (const e of s.givenUp) g.set({ kind: e.kind }, Number(e.n));
    }),
  });

  new Gauge({
    name: `${PREFIX}webhook_endpoints_disabled`,
    help: "Webhook endpoints (an API key's URL) disabled after failing for longer than TOLLGATE_WEBHOOK_DISABLE_AFTER_HOURS: their events are kept, not sent, until enabled again.",
    registers,
    collect: fromDb<Gauge>((g, s) => g.set(Number(s.endpoints.disabled))),
  });

  new Counter({
    name: `${PREFIX}webhook_endpoint_disablements_total`,
    help: 'Times a webhook endpoint was disabled after failing for too long (kept in the database).',
    registers,
    collect: fromDb<Counter>((c, s) => c.inc(Number(s.endpoints.disablements))),
  });

  new Gauge({
    name: `${PREFIX}travelrule_transactions`,
    help: 'Travel rule transactions by status and direction.',
    labelNames: ['status', 'direction'],
    registers,
    collect: fromDb<Gauge<'status' | 'direction'>>((g, s) => {
      for (const t of s.travelRule)
        g.set({ status: t.status, direction: t.direction }, Number(t.n));
    }),
  });

  new Gauge({
    name: `${PREFIX}exposure_pending`,
    help: 'Label changes of hubs queued for the exposure_apply job: until it has applied them (chunk by chunk), AML exposure near them is partly as before the change.',
    labelNames: ['network'],
    registers,
    collect: fromDb<Gauge<'network'>>((g, s) => {
      for (const p of s.exposurePending) g.set({ network: p.network }, Number(p.n));
    }),
  });

  const http = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'Duration of HTTP requests served by this process, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: HTTP_BUCKETS_SECONDS,
    registers,
  });

  const httpMiddleware: MiddlewareHandler = async (c, next) => {
    const started = performance.now();
    await next();
    // The pattern of the handler that answered (or of the middleware that stopped the request):
    // never the raw path, which carries ids and tokens, and keeps the label set bounded.
    const route = routePath(c) || 'unmatched';
    const method = HTTP_METHODS.has(c.req.method) ? c.req.method : 'OTHER';
    http.observe(
      { method, route, status: String(c.res.status) },
      (performance.now() - started) / 1000,
    );
  };

  return {
    registry,
    httpMiddleware,
    handler: async (c) => {
      const body = await registry.metrics();
      return c.body(body, 200, {
        'content-type': registry.contentType,
        'cache-control': 'no-store',
      });
    },
  };
}
