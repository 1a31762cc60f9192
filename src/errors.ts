import { BaseError, HttpRequestError } from 'viem';

/**
 * Error types. Every error a domain throws extends one of two bases, and that alone says whether
 * a retry can help (isRetryable):
 * - RetryableError: the outside world failed for now (RPC timeout, receiver 5xx, connection reset,
 *   a concurrent change). A job throws it to be tried again.
 * - PermanentError: retrying cannot help (a refused URL, an invalid payload, a request the state
 *   does not allow); recorded, not retried. Its kinds:
 *   - ApiError: a client's request is wrong; the JSON error body, made in one place (api/app.ts).
 *   - DomainError: what a domain operation refuses, whoever asked; each face (the /v2 API, the
 *     operator API, the dashboard, TRP) answers it through one mapping (apiErrorOf).
 * An error of neither (a database error, a bug) is retried by the jobs that meet it.
 */

/** Error numbers of the API (the spec's, plus ours where the spec shows none; see README). */
export const ErrorNumber = {
  /** Generic bad request: validation failure, malformed JSON. */
  BAD_REQUEST: 5000,
  INVALID_ADDRESS: 5002,
  NOT_FOUND_FOR_KEY: 5003,
  INVALID_WEBHOOK: 5004,
  /** Not in the spec: the key has as many streams (or live AML trackings) as it may. */
  SUBSCRIPTION_LIMIT: 5005,
  UNAUTHORIZED: 4010,
  FORBIDDEN: 4030,
  ROUTE_NOT_FOUND: 4040,
  /** A path of the API asked with a method it does not take; Allow names those it does. */
  METHOD_NOT_ALLOWED: 4050,
  /** The resource is in a state the request does not fit (operator API). */
  CONFLICT: 4090,
  PAYLOAD_TOO_LARGE: 4130,
  /** Too many requests for this API key (src/api/ratelimit.ts); Retry-After says when to come back. */
  RATE_LIMITED: 4290,
  INTERNAL: 5999,
  UNAVAILABLE: 5030,
} as const;

export class RetryableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RetryableError';
  }
}

/**
 * A node's answer that cannot be used as it stands (a malformed number, another block than the
 * one asked for, receipts of another block, history it does not serve): a failure of the node,
 * not of Tollgate, asked again.
 */
export class NodeAnswerError extends RetryableError {
  constructor(message: string) {
    super(message);
    this.name = 'NodeAnswerError';
  }
}

/**
 * History a node does not serve: a block it pruned or expired, or a block it has without the
 * receipt of one of its transactions. Asked again (near the head it may pass: a block still being
 * imported); `advice` says what an operator can change when it lasts (a backfill far back).
 */
export class HistoryUnavailableError extends NodeAnswerError {
  constructor(
    message: string,
    readonly advice: string,
  ) {
    super(message);
    this.name = 'HistoryUnavailableError';
  }
}

export class PermanentError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentError';
  }
}

/** Whether trying again may help: anything but a PermanentError. */
export function isRetryable(err: unknown): boolean {
  return !(err instanceof PermanentError);
}

export type ApiStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 503;

/**
 * The error body of every face (API, operator API, TRP): the number twice, as the spec shows it;
 * `detail` (not in the spec) where the message is the spec's fixed text and the reason is more.
 */
export function errorBody(number: number, message: string, detail?: string) {
  return { code: number, status: number, message, ...(detail ? { detail } : {}) };
}

export class ApiError extends PermanentError {
  constructor(
    readonly httpStatus: ApiStatus,
    readonly errorNumber: number,
    message: string,
    /** The specific reason, where `message` is the spec's fixed text for the number. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** What a domain operation refuses. Messages name fields and states, never personal data. */
export type RefusalKind =
  | 'not_found'
  | 'state'
  | 'invalid'
  | 'invalid_address'
  | 'forbidden'
  | 'unavailable'
  | 'too_many'
  | 'limit';

export class DomainError extends PermanentError {
  constructor(
    readonly kind: RefusalKind,
    message: string,
    /** With 'too_many': whole seconds until the caller may come again. */
    readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/**
 * The one mapping from a refusal to an answer, per face. `v2`: the spec's API, where a refused
 * request is a 400 with the spec's error number (5003 for a reference the key does not have),
 * and only a service not ready yet is a 503. `http`: the operator API, the dashboard and TRP,
 * which answer with the status that says it (404 unknown, 409 wrong state).
 */
const ANSWERS: Record<RefusalKind, Record<'v2' | 'http', [ApiStatus, number]>> = {
  not_found: {
    v2: [400, ErrorNumber.NOT_FOUND_FOR_KEY],
    http: [404, ErrorNumber.ROUTE_NOT_FOUND],
  },
  state: { v2: [400, ErrorNumber.BAD_REQUEST], http: [409, ErrorNumber.CONFLICT] },
  invalid: { v2: [400, ErrorNumber.BAD_REQUEST], http: [400, ErrorNumber.BAD_REQUEST] },
  invalid_address: {
    v2: [400, ErrorNumber.INVALID_ADDRESS],
    http: [400, ErrorNumber.INVALID_ADDRESS],
  },
  /** The caller is known but may not do this (a TRP message from the wrong certificate). */
  forbidden: { v2: [403, ErrorNumber.FORBIDDEN], http: [403, ErrorNumber.FORBIDDEN] },
  unavailable: { v2: [503, ErrorNumber.UNAVAILABLE], http: [503, ErrorNumber.UNAVAILABLE] },
  /** Over a rate (a counterparty's inquiries): come again after retryAfterS. */
  too_many: { v2: [429, ErrorNumber.RATE_LIMITED], http: [429, ErrorNumber.RATE_LIMITED] },
  /** A key already has as many of a thing as it may (config max_streams_per_key, …). */
  limit: { v2: [400, ErrorNumber.SUBSCRIPTION_LIMIT], http: [409, ErrorNumber.CONFLICT] },
};

/** A DomainError as the API error of a face; any other error is thrown on as it is. */
export function apiErrorOf(err: unknown, face: 'v2' | 'http'): ApiError {
  if (!(err instanceof DomainError)) throw err;
  const [status, number] = ANSWERS[err.kind][face];
  return new ApiError(status, number, err.message);
}

/**
 * A short, log-safe description of any thrown value (no stack, no request bodies, no URLs of
 * nodes). It goes to logs, /readyz and the delivery attempts a client can list.
 */
export function describeError(err: unknown): string {
  // viem's message carries the request's URL (a node's path often holds its API key, as
  // Infura's /v3/<key> does) and body: its short message and the first line of its details only.
  if (err instanceof BaseError) {
    const details = err.details?.split('\n')[0];
    // The node's HTTP status, and what lay under fetch's "fetch failed" (a refused connection, one
    // the node dropped, a TLS failure): they read alike without it (found by an outside probe).
    const http = err.walk((e) => e instanceof HttpRequestError) as HttpRequestError | null;
    const status = http?.status ? `HTTP ${http.status}: ` : '';
    const under = details === 'fetch failed' ? underneath(err) : undefined;
    const said =
      details && details !== err.shortMessage
        ? ` (${status}${details}${under ? `: ${under}` : ''})`
        : '';
    return `${err.name}: ${err.shortMessage}${said}`;
  }
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return code ? `${err.name}: ${err.message} (${code})` : `${err.name}: ${err.message}`;
  }
  return String(err);
}

/**
 * The innermost cause's message (and code) of an error, at most 5 deep: Node's fetch says only
 * "fetch failed" and keeps why in its cause. Log-safe as undici writes it (an address and port,
 * a socket's state), never a URL's path.
 */
function underneath(err: Error): string | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e instanceof Error && e.cause instanceof Error; depth++)
    e = e.cause;
  if (e === err || !(e instanceof Error) || e.message === 'fetch failed') return undefined;
  const code = (e as NodeJS.ErrnoException).code;
  return code ? `${e.message} (${code})` : e.message;
}
