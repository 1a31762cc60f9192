import { setMaxListeners } from 'node:events';
import type { Sql } from '../db/index.js';
import { describeError } from '../errors.js';
import { log } from '../log.js';
import { retryAfterAnswerS, retryDelayS } from '../net/retry-after.js';
import {
  freezesBody,
  prepareDeliveries,
  receiverOf,
  withSequence,
  type DeliveryDeps,
} from './deliver.js';
import type { DisabledEndpoint } from './endpoints.js';
import { parkHeld } from './holds.js';
import {
  claimDueDeliveries,
  deferDeliveries,
  freezeAndMarkSent,
  recordAttemptBatch,
  type AttemptResult,
  type ClaimedEvent,
  type RecordedAttempt,
} from './outbox.js';
import { createWebhookAgents, postWebhook, type WebhookAgents } from './post.js';
import { webhookHeaders } from './sign.js';

/** The channel the outbox's insert trigger notifies (sql/0013_delivery_outbox.sql). */
const OUTBOX_CHANNEL = 'tollgate_outbox';
/** Events claimed in one statement at most. */
const CLAIM_BATCH_MAX = 200;
/** Outcomes are recorded together within this delay, one statement for a batch. */
const RECORD_DELAY_MS = 20;
const RECORD_BATCH_MAX = 500;
/** Without a notification, due events (retries coming due) are looked for this often. */
const POLL_INTERVAL_MS = 500;
/** Backoff while the database is unreachable: from the first to the last value, doubling. */
const DB_RETRY_MIN_MS = 250;
const DB_RETRY_MAX_MS = 5_000;
/**
 * A stopping dispatcher keeps trying to record what it sent for this long (after up to
 * STOP_IN_FLIGHT_MS for the POSTs out): together inside the worker's stop (WORKER_STOP_MS).
 */
const STOP_RECORD_DEADLINE_MS = 8_000;
/** A stopping dispatcher waits this long for the POSTs out to be answered, then cuts them off. */
const STOP_IN_FLIGHT_MS = 5_000;
/**
 * A receiver whose recent answers took longer than this on average (or that has not answered
 * yet and has a POST out this long) is slow: it gets at most twice its POST limit in hand.
 */
const SLOW_RECEIVER_MS = 250;
/** A receiver with POSTs out and no answer for this long is stalled: what waits for it goes back. */
const STALLED_RECEIVER_MS = 1_000;
/** How often receivers are looked at for a stall. */
const STALL_CHECK_MS = 250;
/** A receiver's figures are forgotten after this long without a delivery. */
const RECEIVER_FORGET_MS = 10 * 60_000;

export interface DispatcherOptions {
  /** Events in hand at once (claimed and not yet recorded: being prepared, waiting, in flight). */
  concurrency: number;
  /** POSTs in flight to one receiver (scheme, host and port) at once. */
  endpointConcurrency: number;
  /** Attempts before an event is given up, where the event carries no allowance of its own. */
  maxAttempts: number;
  /** An endpoint without a 2xx for this many seconds is disabled (its events held); 0 or none: never. */
  disableAfterS?: number;
  /** Enqueue the operator's notice of each endpoint disabled (TOLLGATE_OPERATOR_WEBHOOK_URL set). */
  notifyOperator?: boolean;
}

interface Endpoint {
  /** Events of this process assigned to the receiver and not finished (preparing, waiting, in flight). */
  assigned: number;
  /** POSTs in flight. */
  active: number;
  /** Attempts waiting for a slot: called with true when one is theirs, false to hand the event back. */
  waiting: ((go: boolean) => void)[];
  /** Moving average of its answer times (ms); undefined before the first answer. */
  avgMs: number | undefined;
  /** When the receiver last answered, or its first POST out since it last had none. */
  lastProgress: number;
}

/** What logging an outcome needs beyond what the database returns. */
interface Pending {
  result: AttemptResult;
  host: string | null;
  ev: ClaimedEvent;
}

/**
 * Sends the outbox (webhook_events) to the receivers: claims due events in batches, prepares
 * and signs each body, POSTs it over kept-alive connections, and records the outcomes in
 * batches. The order a receiver relies on is kept by the claim (outbox.ts): an event is claimed
 * only once every earlier event of its subscription and transaction is settled.
 * Every receiver gets at most `endpointConcurrency` POSTs in flight. A fast one may have the rest
 * of the worker's hands waiting for it; a slow one (answers averaging over SLOW_RECEIVER_MS) at
 * most as many waiting as in flight, and a stalled one (no answer for STALLED_RECEIVER_MS) none:
 * their further events are handed back for a few seconds, so they never fill the worker's hands.
 * The database may go away at any point: claims and records are retried with backoff, outcomes
 * are kept until recorded, and an event whose worker died is claimed again when its lease ends.
 */
export class DeliveryDispatcher {
  private readonly inHand = new Set<string>();
  private readonly endpoints = new Map<string, Endpoint>();
  private readonly outcomes: Pending[] = [];
  private readonly batches = new Set<Promise<void>>();
  private readonly agents: WebhookAgents;
  private readonly leaseS: number;
  private readonly deferS: number;
  private stopping = false;
  private woken = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private recording: Promise<void> | undefined;
  private recordTimer: NodeJS.Timeout | undefined;
  private dbDownSince: number | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private stallTimer: NodeJS.Timeout | undefined;
  private readonly handingBack: { id: string; handedOut: boolean }[] = [];
  private readonly stopped = new AbortController();
  private handBackBatch: Promise<void> | undefined;
  private readonly log = log.child({ role: 'dispatcher' });
  /** Receivers of kinds whose subscription names none: where their events' holds are looked for. */
  private readonly fallbackUrls: Record<string, string>;

  constructor(
    private readonly deps: DeliveryDeps,
    private readonly opts: DispatcherOptions,
  ) {
    this.agents = createWebhookAgents(opts.endpointConcurrency);
    // Every delivery in flight listens on it (removed when its request closes): as many
    // listeners as deliveries in hand, which is more than Node's default warning level of 10.
    setMaxListeners(0, this.stopped.signal);
    // Longer than any attempt can take (a POST retried twice on connection errors, each within
    // the timeout), and the record after it: a live worker's lease never runs out under it.
    this.leaseS = Math.ceil((3 * deps.timeoutMs) / 1000) + 30;
    this.deferS = Math.min(5, Math.max(1, deps.timeoutMs / 1000));
    this.fallbackUrls = Object.fromEntries(
      [...deps.kinds].flatMap(([name, k]) => (k.fallbackUrl ? [[name, k.fallbackUrl]] : [])),
    );
  }

  private get sql(): Sql {
    return this.deps.sql;
  }

  start(): void {
    this.listen();
    this.stallTimer = setInterval(() => this.checkStalls(), STALL_CHECK_MS).unref();
    this.loop = this.run();
  }

  /** Stops claiming, finishes the attempts in hand and records them (bounded), then returns. Never throws. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.poke();
    await this.loop;
    // What waits for a slot goes back unsent; only the POSTs already out are waited for, a while:
    // then they are cut off and recorded as failed attempts (sent again later).
    for (const ep of this.endpoints.values()) handBackWaiting(ep);
    let cutOff: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.batches]),
      new Promise<void>((r) => {
        cutOff = setTimeout(r, STOP_IN_FLIGHT_MS);
      }),
    ]);
    clearTimeout(cutOff);
    this.stopped.abort();
    await Promise.allSettled([...this.batches]);
    const deadline = Date.now() + STOP_RECORD_DEADLINE_MS;
    while (this.outcomes.length > 0 && Date.now() < deadline) {
      await this.flush();
      if (this.outcomes.length > 0) await new Promise((r) => setTimeout(r, DB_RETRY_MIN_MS));
    }
    if (this.outcomes.length > 0) {
      this.log.warn(
        { unrecorded: this.outcomes.length },
        'stopping with attempts unrecorded; their events are sent again when their lease ends',
      );
    }
    clearTimeout(this.recordTimer);
    clearInterval(this.stallTimer);
    await this.unlisten?.().catch(() => {});
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** LISTEN for new events (postgres.js re-listens after a lost connection); polling covers the gaps. */
  private listen(): void {
    this.sql
      .listen(OUTBOX_CHANNEL, () => this.poke())
      .then((l) => {
        if (this.stopping) void l.unlisten().catch(() => {});
        else this.unlisten = l.unlisten;
      })
      .catch((err) =>
        this.log.warn(
          { error: describeError(err) },
          'could not listen for new webhook events; polling',
        ),
      );
  }

  private poke(): void {
    this.woken = true;
    this.wake?.();
  }

  private async pause(ms: number): Promise<void> {
    if (this.woken || this.stopping) {
      this.woken = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
    this.wake = undefined;
    this.woken = false;
  }

  private dbFailed(err: unknown, what: string): number {
    if (this.dbDownSince === undefined) {
      this.dbDownSince = Date.now();
      this.log.warn(
        { error: describeError(err) },
        `${what} failed: database unavailable; deliveries wait for it`,
      );
    }
    const down = Date.now() - this.dbDownSince;
    return Math.min(DB_RETRY_MAX_MS, DB_RETRY_MIN_MS * 2 ** Math.floor(down / 2000));
  }

  private dbWorks(): void {
    if (this.dbDownSince === undefined) return;
    this.log.info(
      { down_ms: Date.now() - this.dbDownSince },
      'database reachable again; deliveries resume',
    );
    this.dbDownSince = undefined;
  }

  private async run(): Promise<void> {
    const minClaim = Math.max(1, Math.floor(this.opts.concurrency / 2));
    while (!this.stopping) {
      const room = this.opts.concurrency - this.inHand.size;
      let full = false;
      if (room >= minClaim || (room > 0 && this.inHand.size === 0)) {
        const limit = Math.min(room, CLAIM_BATCH_MAX);
        let claimed: ClaimedEvent[];
        try {
          // Events waiting for one in flight stay at the queue's head: look past them.
          claimed = await claimDueDeliveries(
            this.sql,
            limit,
            this.leaseS,
            2 * limit + this.opts.concurrency,
            this.fallbackUrls,
          );
          this.dbWorks();
        } catch (err) {
          await this.pause(this.dbFailed(err, 'claiming webhook events'));
          continue;
        }
        if (claimed.length > 0) this.track(this.dispatch(claimed));
        full = claimed.length === limit;
      }
      if (!full) await this.pause(POLL_INTERVAL_MS);
    }
  }

  private track(batch: Promise<void>): void {
    this.batches.add(batch);
    void batch.finally(() => this.batches.delete(batch));
  }

  private endpoint(key: string): Endpoint {
    let ep = this.endpoints.get(key);
    if (!ep) {
      ep = { assigned: 0, active: 0, waiting: [], avgMs: undefined, lastProgress: Date.now() };
      this.endpoints.set(key, ep);
    }
    return ep;
  }

  private stalled(ep: Endpoint, now = Date.now()): boolean {
    return ep.active > 0 && now - ep.lastProgress > STALLED_RECEIVER_MS;
  }

  /** Events one receiver may have in this worker's hands at once. */
  private endpointRoom(ep: Endpoint): number {
    if (this.stalled(ep)) return ep.active;
    const slow =
      (ep.avgMs ?? 0) > SLOW_RECEIVER_MS ||
      (ep.active > 0 && Date.now() - ep.lastProgress > SLOW_RECEIVER_MS);
    return slow ? 2 * this.opts.endpointConcurrency : this.opts.concurrency;
  }

  /** Hands back what waits for a stalled receiver; forgets receivers long unused. */
  private checkStalls(): void {
    const now = Date.now();
    for (const [key, ep] of this.endpoints) {
      if (ep.waiting.length > 0 && this.stalled(ep, now)) handBackWaiting(ep);
      if (ep.assigned === 0 && ep.active === 0 && now - ep.lastProgress > RECEIVER_FORGET_MS)
        this.endpoints.delete(key);
    }
  }

  /** Prepares, sends and hands to the recorder one claimed batch. */
  private async dispatch(claimed: ClaimedEvent[]): Promise<void> {
    for (const ev of claimed) this.inHand.add(ev.id);
    const handed = new Set<string>();
    const settle = (ev: ClaimedEvent, result: Omit<AttemptResult, 'id'>, host: string | null) => {
      handed.add(ev.id);
      this.outcomes.push({ result: { id: ev.id, ...result }, host, ev });
      this.scheduleFlush();
    };
    try {
      // Events of a paused subscription or a disabled endpoint are parked, not sent.
      const held = claimed.filter((ev) => ev.held);
      if (held.length > 0) {
        await this.park(held);
        for (const ev of held) handed.add(ev.id);
      }
      // A receiver with as much in hand as it may have: its further events go back for a while.
      const keep: { ev: ClaimedEvent; key: string | null }[] = [];
      const deferred: string[] = [];
      for (const ev of claimed) {
        if (ev.held) continue;
        const key = endpointKey(receiverOf(this.deps, ev));
        if (key !== null && this.endpoint(key).assigned >= this.endpointRoom(this.endpoint(key)))
          deferred.push(ev.id);
        else {
          if (key !== null) this.endpoint(key).assigned++;
          keep.push({ ev, key });
        }
      }
      await this.handBack(deferred, false);
      const release = (key: string | null) => {
        if (key !== null) this.endpoint(key).assigned--;
      };

      const bodies = await prepareDeliveries(
        this.deps,
        keep.map((k) => k.ev),
        this.stopped.signal,
      );
      const prepared = keep.map(({ ev, key }, i) => ({ ev, key, p: bodies[i]! }));
      const toSend: { ev: ClaimedEvent; key: string; url: string; body: string }[] = [];
      const unattempted: string[] = [];
      let unbuilt: string | undefined;
      for (const { ev, key, p } of prepared) {
        if ('send' in p && key !== null) {
          toSend.push({ ev, key, url: p.send.url, body: p.send.body });
          continue;
        }
        release(key);
        if ('unattempted' in p) {
          handed.add(ev.id);
          unattempted.push(ev.id);
          if (p.database) unbuilt = p.unattempted;
        } else if ('cancel' in p) settle(ev, cancelled(p.cancel), null);
        else
          settle(
            ev,
            {
              outcome: 'retry',
              url: ev.url ?? '',
              status_code: null,
              duration_ms: 0,
              error: 'retry' in p ? p.retry : 'no receiver',
              retry_in_s: retryDelayS(ev.attempts + 1),
            },
            null,
          );
      }
      // Bodies the database could not serve: the operator's log says the database failed (once
      // while it lasts); the events wait for it without using an attempt.
      if (unbuilt !== undefined) this.dbFailed(unbuilt, 'building webhook bodies');
      await this.handBack(unattempted, false);
      if (toSend.length === 0) return;

      // Bodies frozen and the events marked sent before anything leaves: a reorg from now on
      // retracts them. If this fails, nothing is sent; the events are claimed again later.
      let frozen: Map<string, string | null>;
      try {
        frozen = await freezeAndMarkSent(
          this.sql,
          toSend.map((s) => ({ id: s.ev.id, body: freezesBody(this.deps, s.ev) ? s.body : null })),
        );
      } catch (err) {
        this.dbFailed(err, 'marking webhook events sent');
        for (const s of toSend) {
          release(s.key);
          this.inHand.delete(s.ev.id);
          handed.add(s.ev.id);
        }
        return;
      }
      await Promise.all(
        toSend.map(async (s) => {
          if (!frozen.has(s.ev.id)) {
            // Orphaned by a reorg since the claim: never sent (freezeAndMarkSent).
            release(s.key);
            return settle(s.ev, cancelled(ORPHANED_SINCE_CLAIM), null);
          }
          const body = withSequence(
            freezesBody(this.deps, s.ev) ? (frozen.get(s.ev.id) ?? s.body) : s.body,
            s.ev.sequence,
          );
          try {
            const result = await this.post(s.key, s.url, s.ev, body);
            if (result === undefined) {
              // Never sent (its receiver stalled): due again in a while, as unsent as it was.
              handed.add(s.ev.id);
              await this.handBack([s.ev.id], true);
            } else settle(s.ev, result, new URL(s.url).host);
          } finally {
            release(s.key);
          }
        }),
      );
    } catch (err) {
      this.log.error(
        { error: describeError(err) },
        'webhook batch failed unexpectedly; its events are claimed again when their lease ends',
      );
    } finally {
      for (const ev of claimed) if (!handed.has(ev.id)) this.inHand.delete(ev.id);
      this.poke();
    }
  }

  /**
   * Parks held events (holds.ts): not sent until what holds them is lifted. On a database error
   * they stay leased and are claimed again when the lease ends.
   */
  private async park(held: readonly ClaimedEvent[]): Promise<void> {
    try {
      const parked = await parkHeld(
        this.sql,
        held.map((e) => e.id),
        this.fallbackUrls,
      );
      if (parked.length > 0)
        this.log.debug({ parked: parked.length }, 'held webhook events parked');
    } catch (err) {
      this.dbFailed(err, 'parking held webhook events');
    } finally {
      for (const ev of held) this.inHand.delete(ev.id);
    }
  }

  /**
   * Events back to the outbox unattempted, due again in a few seconds. Those handed back within
   * a few milliseconds of each other go in one statement.
   */
  private handBack(ids: readonly string[], handedOut: boolean): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    this.handingBack.push(...ids.map((id) => ({ id, handedOut })));
    this.handBackBatch ??= new Promise<void>((r) => setTimeout(r, RECORD_DELAY_MS)).then(
      async () => {
        const batch = this.handingBack.splice(0);
        this.handBackBatch = undefined;
        await deferDeliveries(this.sql, batch, this.deferS).catch((err) =>
          this.log.warn(
            { error: describeError(err) },
            'could not hand back deferred webhook events; their lease ends in time',
          ),
        );
        for (const { id } of batch) this.inHand.delete(id);
        this.poke();
      },
    );
    return this.handBackBatch;
  }

  /**
   * One attempt under the receiver's limit of POSTs in flight. Undefined: not attempted, the
   * receiver stalled while it waited for a slot.
   */
  private async post(
    key: string,
    url: string,
    ev: ClaimedEvent,
    body: string,
  ): Promise<Omit<AttemptResult, 'id'> | undefined> {
    const ep = this.endpoint(key);
    if (ep.active >= this.opts.endpointConcurrency) {
      if (!(await new Promise<boolean>((r) => ep.waiting.push(r)))) return undefined;
    } else if (ep.active++ === 0) ep.lastProgress = Date.now();
    try {
      const startedAt = Date.now();
      const headers = webhookHeaders(
        ev.webhook_secret,
        `msg_${ev.id}`,
        body,
        startedAt,
        ev.webhook_secret_previous,
      );
      const r = await postWebhook(url, headers, body, {
        timeoutMs: this.deps.timeoutMs,
        allow: this.deps.allow,
        agents: this.agents,
        signal: this.stopped.signal,
      });
      ep.lastProgress = Date.now();
      ep.avgMs = ep.avgMs === undefined ? r.duration_ms : 0.8 * ep.avgMs + 0.2 * r.duration_ms;
      const outcome = r.error === null ? 'delivered' : r.retryable ? 'retry' : 'refused';
      return {
        outcome,
        url,
        status_code: r.status_code,
        duration_ms: r.duration_ms,
        error: r.error,
        retry_in_s: retryAfterAnswerS(ev.attempts + 1, r.retry_after_s),
        in_doubt: r.in_doubt,
        // A body that may hold persons is never stored in clear: nor is an answer to it.
        response: freezesBody(this.deps, ev) ? r.response : null,
        posted: true,
        started_at: startedAt,
      };
    } finally {
      const next = ep.waiting.shift();
      if (next)
        next(true); // the slot passes to the next one waiting
      else ep.active--;
    }
  }

  private scheduleFlush(): void {
    if (this.outcomes.length >= RECORD_BATCH_MAX) void this.flush();
    else if (!this.recordTimer)
      this.recordTimer = setTimeout(() => void this.flush(), RECORD_DELAY_MS);
  }

  /** Records what is waiting, one batch at a time; on a database error keeps it and tries again. */
  private flush(): Promise<void> {
    clearTimeout(this.recordTimer);
    this.recordTimer = undefined;
    if (this.recording) return this.recording;
    this.recording = (async () => {
      while (this.outcomes.length > 0) {
        const batch = this.outcomes.slice(0, RECORD_BATCH_MAX);
        let recorded: RecordedAttempt[];
        let disabled: DisabledEndpoint[];
        try {
          ({ recorded, disabled } = await recordAttemptBatch(
            this.sql,
            batch.map((p) => p.result),
            this.opts.maxAttempts,
            {
              disableAfterS: this.opts.disableAfterS ?? 0,
              notifyOperator: this.opts.notifyOperator ?? false,
            },
          ));
          this.dbWorks();
        } catch (err) {
          const wait = this.dbFailed(err, 'recording webhook attempts');
          if (this.stopping) return;
          await new Promise((r) => setTimeout(r, wait));
          continue;
        }
        this.outcomes.splice(0, batch.length);
        for (const d of disabled) this.logDisabled(d);
        const byId = new Map(recorded.map((r) => [r.id, r]));
        for (const p of batch) {
          this.inHand.delete(p.result.id);
          this.logOutcome(p, byId.get(p.result.id));
        }
        this.poke();
      }
    })().finally(() => {
      this.recording = undefined;
    });
    return this.recording;
  }

  /** The operational notice of an endpoint disabled: its host only (a URL may carry a credential). */
  private logDisabled(d: DisabledEndpoint): void {
    let host: string | undefined;
    try {
      host = new URL(d.url).host;
    } catch {}
    this.log.warn(
      {
        endpoint_id: d.id,
        api_key_id: d.api_key_id,
        host,
        failing_since: d.failing_since.toISOString(),
        failing_s: Math.round((d.disabled_at.getTime() - d.failing_since.getTime()) / 1000),
        operator_notice: this.opts.notifyOperator ?? false,
      },
      'webhook endpoint disabled: no 2xx for longer than allowed; its events are kept and held until it is enabled again',
    );
  }

  private logOutcome({ result, host, ev }: Pending, rec: RecordedAttempt | undefined): void {
    const fields = {
      event_id: ev.id,
      kind: ev.kind,
      network: ev.network || undefined,
      tx_hash: ev.tx_hash || undefined,
      confirmed: ev.confirmed,
      sequence: ev.sequence === null ? undefined : Number(ev.sequence),
      host: host ?? undefined,
      status_code: result.status_code ?? undefined,
      duration_ms: result.duration_ms,
      attempts: rec?.attempts,
      max_attempts: rec?.max_attempts,
    };
    if (!rec)
      return void this.log.debug(
        fields,
        'webhook attempt not recorded: the event was settled meanwhile',
      );
    if (rec.retractions > 0)
      this.log.warn(
        { ...fields, retractions: rec.retractions },
        'webhook delivered after a reorg orphaned it; retraction enqueued',
      );
    if (result.outcome === 'delivered') return void this.log.debug(fields, 'webhook delivered');
    if (result.outcome === 'cancelled')
      return void this.log.info({ ...fields, reason: result.error }, 'webhook cancelled');
    if (rec.gave_up) {
      const why =
        result.outcome === 'refused' ? 'refused by the receiver; not retried' : 'retries exhausted';
      return void this.log.error({ ...fields, error: result.error }, `webhook given up: ${why}`);
    }
    if (rec.status === 'pending') {
      return void this.log.warn(
        { ...fields, error: result.error, retry_in_s: Math.round(result.retry_in_s) },
        'webhook attempt failed; will retry',
      );
    }
    this.log.info(
      { ...fields, status: rec.status, error: result.error },
      'webhook attempt failed; event settled',
    );
  }
}

/** An event settled without an attempt (nothing to send any more), and why. */
function cancelled(error: string): Omit<AttemptResult, 'id'> {
  return {
    outcome: 'cancelled',
    url: null,
    status_code: null,
    duration_ms: 0,
    error,
    retry_in_s: 0,
  };
}

/** Why an event a reorg orphaned between its claim and its POST is cancelled. */
const ORPHANED_SINCE_CLAIM = 'its block was removed by a reorg before it was sent';

/** scheme://host:port of a receiver URL: the unit of the per-receiver limit. Null for none or a bad one. */
function endpointKey(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Sends back, unsent, every attempt waiting for one of the receiver's slots. */
function handBackWaiting(ep: Endpoint): void {
  for (const go of ep.waiting.splice(0)) go(false);
}
