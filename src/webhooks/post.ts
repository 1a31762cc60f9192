import http from 'node:http';
import https from 'node:https';
import pRetry, { AbortError } from 'p-retry';
import {
  type AllowList,
  ForbiddenAddressError,
  guardedLookup,
  literalHostAllowed,
} from '../net/ssrf.js';
import { retryAfterSeconds } from '../net/retry-after.js';

export interface PostResult {
  status_code: number | null;
  duration_ms: number;
  /** Short, log-safe reason when there was no 2xx. */
  error: string | null;
  /**
   * The first RESPONSE_EXCERPT_BYTES of the receiver's answer body (UTF-8, NULs dropped); null
   * when no answer came. The receiver's own words: stored for the delivery log, never logged.
   */
  response: string | null;
  /** True when retrying later can help (5xx, 408, 429, connection failures, timeouts). */
  retryable: boolean;
  /**
   * A 429 or 503 with Retry-After: the seconds the receiver asked to be left alone (its seconds,
   * or its date from now; 0 for a date past); null otherwise.
   */
  retry_after_s: number | null;
  /**
   * No 2xx, yet the receiver may have the body: a request of this attempt went out whole and no
   * answer came (a timeout, a connection reset, the worker stopping). False when every request
   * was answered or never left (connection refused).
   */
  in_doubt: boolean;
}

/**
 * Errors of a connection that failed: worth a quick retry within one attempt when the request
 * had not gone out whole on it; never when it went out whole, on a new or a kept-alive
 * connection (the receiver may have it; a quick retry would only send it again at once). A
 * kept-alive connection the receiver closes while it is idle is dropped by Node's agent when its
 * FIN comes (and before the receiver's `Keep-Alive: timeout` hint runs out), so a POST rarely
 * meets one; one cut after the whole POST went out on a kept-alive connection looks the same as a
 * receiver that read it and fell over, which got it three times in a second when such a cut was
 * retried at once (found by an outside fault harness).
 */
const CONNECT_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
]);

/** How much of a receiver's answer body is kept for the delivery log. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/**
 * How much of a receiver's answer body is read at most: past it the connection is closed (not
 * kept for the next delivery). An answer that never ends would otherwise be read until the
 * attempt's timeout, again at each attempt (seen: 3 GB in 10 s).
 */
export const RESPONSE_READ_LIMIT_BYTES = 64 * 1024;

/** Keep-alive connection pools for one allow-list's receivers (a dispatcher's). */
export interface WebhookAgents {
  http: http.Agent;
  https: https.Agent;
}

/**
 * Connections kept open between deliveries, at most `socketsPerHost` to one receiver. A pooled
 * socket was checked by the guard when it connected (the address it reached, not its name);
 * reusing it cannot reach another address.
 */
export function createWebhookAgents(socketsPerHost: number): WebhookAgents {
  const options = {
    keepAlive: true,
    maxSockets: socketsPerHost,
    maxFreeSockets: socketsPerHost,
    scheduling: 'lifo' as const,
  };
  return { http: new http.Agent(options), https: new https.Agent(options) };
}

interface PostOptions {
  timeoutMs: number;
  allow: AllowList;
  /** Keep-alive pools; without them each POST opens a connection of its own. */
  agents?: WebhookAgents;
  /** Aborts the POST in flight (its worker is stopping); the attempt ends as a failure to retry. */
  signal?: AbortSignal;
}

/** Whether a request of the attempt went out whole with no answer to it. */
interface Unanswered {
  sent: boolean;
}

/** How one request of an attempt failed: whether it went out whole. */
interface RequestSent {
  whole: boolean;
}

/** The status of an answer, the excerpt of its body, and its Retry-After. */
interface Answer {
  status: number;
  excerpt: string;
  retryAfter: string | undefined;
}

function once(
  url: URL,
  headers: Record<string, string>,
  body: string,
  opts: PostOptions,
  unanswered: Unanswered,
  request: RequestSent,
): Promise<Answer> {
  const { timeoutMs, allow } = opts;
  const isHttps = url.protocol === 'https:';
  const mod = isHttps ? https : http;
  if (!literalHostAllowed(url, allow))
    return Promise.reject(new ForbiddenAddressError(url.hostname));
  if (opts.signal?.aborted) return Promise.reject(new Error('the worker is stopping'));
  return new Promise((resolve, reject) => {
    const req = mod.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: guardedLookup(allow) as never,
      timeout: timeoutMs,
      agent: opts.agents ? (isHttps ? opts.agents.https : opts.agents.http) : false,
    });
    const timer = setTimeout(
      () =>
        req.destroy(
          Object.assign(new Error(`no response within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }),
        ),
      timeoutMs,
    );
    const abort = () => req.destroy(new Error('the worker is stopping'));
    opts.signal?.addEventListener('abort', abort, { once: true });
    const done = () => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', abort);
    };
    // However the request ends, its timer and its stop listener go with it.
    req.on('close', done);
    // Once the status line came, it is the answer, whatever ends the rest (below).
    let answerGiven: (() => void) | undefined;
    req.on('response', (res) => {
      // The answer is read to its end (the connection is then reused) or to the read limit (the
      // connection is then closed); its first bytes are kept. The status line is the answer: a
      // body cut short after it (the receiver closed, reset, or took longer than the timeout)
      // changes nothing of it.
      const kept: Buffer[] = [];
      let keptBytes = 0;
      let readBytes = 0;
      let answered = false;
      const answer = () => {
        if (answered) return;
        answered = true;
        done();
        const excerpt = Buffer.concat(kept).toString('utf8').replaceAll('\u0000', '');
        const retryAfter = res.headers['retry-after'];
        resolve({
          status: res.statusCode ?? 0,
          excerpt,
          retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
        });
      };
      res.on('data', (chunk: Buffer) => {
        readBytes += chunk.length;
        if (keptBytes < RESPONSE_EXCERPT_BYTES) {
          const part = chunk.subarray(0, RESPONSE_EXCERPT_BYTES - keptBytes);
          kept.push(part);
          keptBytes += part.length;
        }
        if (readBytes > RESPONSE_READ_LIMIT_BYTES) {
          answer();
          res.destroy();
        }
      });
      res.on('end', answer);
      res.on('close', answer);
      res.on('error', answer);
      answerGiven = answer;
    });
    req.on('timeout', () =>
      req.destroy(
        Object.assign(new Error(`no response within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }),
      ),
    );
    let whole = false;
    req.on('finish', () => {
      whole = true;
    });
    req.on('error', (err) => {
      // The timeout, the stop or a malformed chunk after the status line: the request's error,
      // raised before the response's own end, would otherwise make a taken event a failure.
      if (answerGiven) return answerGiven();
      done();
      request.whole = whole;
      if (whole) unanswered.sent = true;
      reject(err);
    });
    req.end(body);
  });
}

/**
 * POSTs one webhook body. Never follows redirects. A connection failure before the request went
 * out whole is retried briefly inside this attempt (p-retry); everything else is reported for
 * graphile-worker to back off on.
 */
export async function postWebhook(
  urlString: string,
  headers: Record<string, string>,
  body: string,
  opts: PostOptions,
): Promise<PostResult> {
  const started = performance.now();
  const url = new URL(urlString);
  const unanswered: Unanswered = { sent: false };
  try {
    const { status, excerpt, retryAfter } = await pRetry(
      async () => {
        const request: RequestSent = { whole: false };
        try {
          return await once(url, headers, body, opts, unanswered, request);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code ?? '';
          if (CONNECT_ERRORS.has(code) && !request.whole) throw err;
          throw new AbortError(err as Error);
        }
      },
      { retries: 2, minTimeout: 200, maxTimeout: 1000, factor: 2, randomize: true },
    );
    const duration_ms = Math.round(performance.now() - started);
    if (status >= 200 && status < 300)
      return {
        status_code: status,
        duration_ms,
        error: null,
        response: excerpt,
        retryable: false,
        retry_after_s: null,
        in_doubt: false,
      };
    const retryable = status >= 500 || status === 408 || status === 429;
    const error =
      status >= 300 && status < 400
        ? `redirect ${status} not followed`
        : `receiver answered ${status}`;
    return {
      status_code: status,
      duration_ms,
      error,
      response: excerpt,
      retryable,
      retry_after_s: status === 429 || status === 503 ? retryAfterSeconds(retryAfter) : null,
      in_doubt: unanswered.sent,
    };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const duration_ms = Math.round(performance.now() - started);
    const reason =
      e.code === 'EFORBIDDENADDR' ? e.message : `${e.code ?? e.name}: ${e.message}`.slice(0, 300);
    return {
      status_code: null,
      duration_ms,
      error: reason,
      response: null,
      retryable: true,
      retry_after_s: null,
      in_doubt: unanswered.sent,
    };
  }
}
