import type { Sql } from '../db/index.js';
import { databaseCannotServe } from '../db/unavailable.js';
import { describeError } from '../errors.js';
import type { ClaimedEvent } from './outbox.js';
import type { AllowList } from '../net/ssrf.js';

/**
 * A body built for an event, or why there is none now: nothing to send any more (cancel), a
 * failed attempt (retry), or no attempt at all (unbuilt: Tollgate's own database could not serve
 * the body; the event waits for it without using one of its attempts).
 */
export type Built = { body: string } | { cancel: string } | { retry: string } | { unbuilt: string };

/**
 * What a body that could not be built comes to. Tollgate's own database out of reach or busy is
 * no attempt: the receiver was never asked, so the event keeps its attempts and goes back to the
 * outbox, due again in a few seconds (and the operator's log says the database failed, without
 * its address). Anything else is a failed attempt, recorded as describeError says it.
 */
export function buildFailure(err: unknown): Built {
  const db = databaseCannotServe(err);
  return db
    ? { unbuilt: `not sent: Tollgate's database could not serve the body (${db})` }
    : { retry: describeError(err) };
}

/**
 * What the outbox needs to know of one kind of event (a stream delivery, a live AML alert, a
 * travel rule notice), handed in by the domain that writes such events. The outbox itself knows
 * no kind: it signs, sends, retries and records whatever body the kind gives it.
 */
export interface EventKind {
  /**
   * Builds the bodies of claimed events of this kind that have none stored, one entry per event
   * in order. An event whose body was written with it (a live AML alert, a retraction) or frozen
   * at an earlier attempt never comes here. Never throws: what cannot be built now is a retry.
   * `signal`: aborted when the worker stops; a build waiting on a node gives up then.
   */
  build?(events: readonly ClaimedEvent[], signal?: AbortSignal): Promise<Built[]>;
  /**
   * Whether a built body is stored at the first attempt, so that every attempt sends the same
   * bytes (and a reorg can retract it). False for a body that may hold persons, which is never
   * stored in clear: the kind rebuilds it at each attempt, and it comes out the same each time.
   */
  freeze: boolean;
  /** Where an event goes whose subscription names no receiver (a configured default). */
  fallbackUrl?: string;
  /**
   * With no receiver at all and the key still live: the event waits (with backoff) for one to be
   * registered rather than being cancelled, and this says why it waits.
   */
  awaitReceiver?: string;
}

export interface DeliveryDeps {
  sql: Sql;
  timeoutMs: number;
  allow: AllowList;
  /** The kinds of events this worker delivers, by webhook_events.kind. */
  kinds: ReadonlyMap<string, EventKind>;
}

/**
 * What to do with a claimed event: send this body to this URL, cancel it, try again later (an
 * attempt that failed), or hand it back unattempted (the worker stopped while it was prepared:
 * `signal` of prepareDeliveries; or the database could not serve its body, `database` set).
 */
export type Prepared =
  | { send: { url: string; body: string } }
  | { cancel: string }
  | { retry: string }
  | { unattempted: string; database?: true };

/** The receiver of a claimed event: its subscription's, else its kind's default; null: none. */
export function receiverOf(deps: DeliveryDeps, ev: ClaimedEvent): string | null {
  return ev.url ?? deps.kinds.get(ev.kind)?.fallbackUrl ?? null;
}

/** Whether an event's body is stored at its first attempt (see EventKind.freeze). */
export function freezesBody(deps: DeliveryDeps, ev: ClaimedEvent): boolean {
  return deps.kinds.get(ev.kind)?.freeze ?? true;
}

/**
 * The body of each claimed event and where it goes. A stored body (written with the event, or
 * frozen at its first attempt) is sent as it is; the others are built by their kind, the events
 * of one kind together. Never throws: an event that cannot be prepared now is to be retried.
 * `signal` (the worker is stopping): once aborted, builds give up their node calls, and what is
 * prepared then goes back unattempted instead of being sent or counted as an attempt.
 */
export async function prepareDeliveries(
  deps: DeliveryDeps,
  events: readonly ClaimedEvent[],
  signal?: AbortSignal,
): Promise<Prepared[]> {
  const out: Prepared[] = new Array(events.length);
  const toBuild = new Map<string, { at: number; ev: ClaimedEvent; url: string }[]>();
  events.forEach((ev, at) => {
    const url = receiverOf(deps, ev);
    const kind = deps.kinds.get(ev.kind);
    if (!url && !ev.key_revoked && kind?.awaitReceiver) out[at] = { retry: kind.awaitReceiver };
    else if (ev.key_revoked || !url) out[at] = { cancel: 'subscription or key removed' };
    else if (ev.body !== null) out[at] = { send: { url, body: ev.body } };
    else if (!kind?.build) out[at] = { retry: `this worker builds no ${ev.kind} webhook bodies` };
    else {
      const items = toBuild.get(ev.kind) ?? [];
      items.push({ at, ev, url });
      toBuild.set(ev.kind, items);
    }
  });
  await Promise.all(
    [...toBuild].map(async ([name, items]) => {
      let built: Built[];
      try {
        built = await deps.kinds.get(name)!.build!(
          items.map((i) => i.ev),
          signal,
        );
      } catch (err) {
        built = items.map(() => buildFailure(err));
      }
      items.forEach(({ at, url }, i) => {
        const b = built[i] ?? { retry: `no ${name} body built` };
        // A build that failed while the worker stopped failed for the stop (its node call given
        // up): that is no attempt; the event goes back as it was.
        out[at] =
          'body' in b
            ? { send: { url, body: b.body } }
            : 'unbuilt' in b
              ? { unattempted: b.unbuilt, database: true }
              : 'retry' in b && signal?.aborted
                ? { unattempted: 'the worker is stopping' }
                : b;
      });
    }),
  );
  // Prepared after the stop cut off what was in flight: nothing more is sent, and that is no attempt.
  if (signal?.aborted)
    out.forEach((p, at) => {
      if ('send' in p) out[at] = { unattempted: 'the worker is stopping' };
    });
  return out;
}

/**
 * The bytes sent for an event: its body with the subscription's `sequence` as the first field
 * (stream and live AML events; a travel rule event has none). The sequence is the event's, so
 * every attempt sends the same bytes; a retraction has its own, higher one.
 */
export function withSequence(body: string, sequence: string | null): string {
  if (sequence === null) return body;
  return body.trimEnd() === '{}'
    ? `{"sequence":${sequence}}`
    : `{"sequence":${sequence},${body.slice(1)}`;
}
