import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { timeout } from 'hono/timeout';
import { ErrorNumber, errorBody } from '../errors.js';
import { log } from '../log.js';

/**
 * The longest an HTTP request waits for its answer (config `request_timeout_ms`).
 *
 * Why: a Postgres that stops answering without closing its connections (a frozen process or
 * VM, `docker pause`, a network path that drops packets) fails no statement: a request whose
 * statement was sent on an open connection would wait for it as long as the server is frozen,
 * and every request after it queues behind the pool's busy connections. Only new connections time
 * out (postgres.js's connect_timeout, 10 s). With a deadline, the client gets a clear 503 instead
 * of silence; the work already handed to the database goes on when it answers again.
 *
 * A read past its deadline can simply be sent again. A write may have been sent to the database
 * before it stopped answering, and then takes effect when it answers: the answer says so rather
 * than promising that nothing changed.
 */
export class RequestDeadlineExceeded extends HTTPException {
  constructor(
    readonly ms: number,
    /** Not a GET, HEAD or OPTIONS: what it asked for may still be applied. */
    readonly change: boolean,
    /**
     * Where it was when it never started (src/api/admission.ts): its body still arriving (the
     * client's delay: answered 408), or waiting for its turn (503).
     */
    readonly before?: NotStarted,
  ) {
    super(before === 'arriving' ? 408 : 503, { message: `request not answered within ${ms} ms` });
    this.name = 'RequestDeadlineExceeded';
  }

  /** It never started: nothing of it was applied. */
  get neverRan(): boolean {
    return this.before !== undefined;
  }

  /** The deadline in seconds, as the answers say it (tenths at most). */
  get seconds(): number {
    return Math.round(this.ms / 100) / 10;
  }
}

/** A request path as logged: a TRP path ends in a token that is a credential. */
export function loggedPath(path: string): string {
  return path.startsWith('/trp/') ? path.replace(/[^/]+$/, ':token') : path;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Requests answered by their deadline while their handler still runs (see afterDeadline). */
const answered = new WeakSet<Context>();
/** Where a request that never started was at its deadline. */
export type NotStarted = 'arriving' | 'waiting';
/**
 * What to do when a request's deadline passes (one per request: src/api/admission.ts's, which
 * says whether the request had not started yet, and why).
 */
const onPass = new WeakMap<Context, () => NotStarted | undefined>();

/** Calls `fn` if the deadline of request `c` passes before it is answered. */
export function whenDeadlinePasses(c: Context, fn: () => NotStarted | undefined): void {
  onPass.set(c, fn);
}

/**
 * A middleware that reads a request's body (a face's body limit: hono's reads a chunked one whole
 * before the request's turn), with the request counted as still arriving while it does: past the
 * deadline then, it is a 408 "nothing applied", not a 503 blaming the database.
 */
export function whileArriving(read: MiddlewareHandler): MiddlewareHandler {
  return (c, next) => {
    whenDeadlinePasses(c, () => 'arriving');
    return read(c, () => {
      whenDeadlinePasses(c, () => undefined);
      return next();
    });
  };
}

/**
 * hono's timeout middleware with our exception: past `ms`, the request is answered by its app's
 * error handler (each face words it: JSON for the API and TRP, a page for the dashboard), and the
 * operator's log says which request it was.
 */
export function requestDeadline(ms: number, face: string): MiddlewareHandler {
  return timeout(ms, (c) => {
    answered.add(c);
    const before = onPass.get(c)?.();
    const where = {
      face,
      request_id: c.get('requestId'),
      method: c.req.method,
      path: loggedPath(c.req.path),
      deadline_ms: ms,
    };
    if (before === 'arriving')
      log.info(where, 'request body not received within the deadline: answered 408');
    else
      log.warn(
        { ...where, ...(before ? { never_started: true } : {}) },
        'request not answered within its deadline (the database or a node did not answer in time): answered 503',
      );
    return new RequestDeadlineExceeded(ms, !READS.has(c.req.method), before);
  });
}

/**
 * For a failure that arrives after the deadline answered its request (its handler ran on): a log
 * line, since nobody else hears of it, and the answer already sent, left as it is. Undefined for a
 * request not answered so. Every face's error handler asks this first after the deadline itself.
 */
export function afterDeadline(
  c: Context,
  err: unknown,
  describe: (e: unknown) => string,
): Response | undefined {
  if (!answered.has(c)) return undefined;
  log.warn(
    { request_id: c.get('requestId'), path: loggedPath(c.req.path), error: describe(err) },
    'a request answered at its deadline failed afterwards',
  );
  return c.res;
}

/** The words of a 503 for a request past its deadline. */
export function deadlineMessage(err: RequestDeadlineExceeded, requestId?: string): string {
  const seconds = err.seconds;
  const id = requestId ? ` (request id ${requestId})` : '';
  if (err.before === 'arriving')
    return `Request timeout: the request's body was not received within ${seconds} s; nothing of it was applied${id}.`;
  if (err.before === 'waiting')
    return `Service unavailable: this request did not start within ${seconds} s (the requests before it are waiting on the database); nothing of it was applied: retry later${id}.`;
  return err.change
    ? `Service unavailable: no answer within ${seconds} s (the database did not answer in time). The change may still be applied when it answers: check before sending it again${id}.`
    : `Service unavailable: no answer within ${seconds} s (the database, or a node this request asked, did not answer in time); retry later${id}.`;
}

/**
 * The error handler's part for the deadline, in a JSON face (the API, TRP): the 503 of a request
 * past its deadline (408 when its body was still arriving), or afterDeadline's. Undefined for every other failure.
 */
export function deadlineAnswer(
  c: Context,
  err: unknown,
  describe: (e: unknown) => string,
  headers: Record<string, string> = {},
): Response | undefined {
  if (err instanceof RequestDeadlineExceeded)
    return err.before === 'arriving'
      ? // The rest of the body may still come: the connection is not kept for another request.
        c.json(errorBody(ErrorNumber.BAD_REQUEST, deadlineMessage(err, c.get('requestId'))), 408, {
          connection: 'close',
          ...headers,
        })
      : c.json(errorBody(ErrorNumber.UNAVAILABLE, deadlineMessage(err, c.get('requestId'))), 503, {
          'retry-after': '5',
          ...headers,
        });
  return afterDeadline(c, err, describe);
}
