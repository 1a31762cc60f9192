/**
 * Error types. Each says whether a retry can help:
 * - ApiError: a client's request is wrong; turned into the JSON error body in one place (api/app.ts).
 * - RetryableError: the outside world failed for now (RPC timeout, receiver 5xx, connection reset).
 * - PermanentError: retrying cannot help (receiver refused the URL, invalid payload); recorded, not retried.
 */

/** Error numbers of the API (the spec's, plus ours where the spec shows none; see README). */
export const ErrorNumber = {
  /** Generic bad request: validation failure, malformed JSON. */
  BAD_REQUEST: 5000,
  INVALID_ADDRESS: 5002,
  NOT_FOUND_FOR_KEY: 5003,
  INVALID_WEBHOOK: 5004,
  UNAUTHORIZED: 4010,
  FORBIDDEN: 4030,
  ROUTE_NOT_FOUND: 4040,
  /** The resource is in a state the request does not fit (operator API). */
  CONFLICT: 4090,
  PAYLOAD_TOO_LARGE: 4130,
  /** Too many requests for this API key (src/api/ratelimit.ts); Retry-After says when to come back. */
  RATE_LIMITED: 4290,
  INTERNAL: 5999,
  UNAVAILABLE: 5030,
} as const;

export class ApiError extends Error {
  constructor(
    readonly httpStatus: 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 | 503,
    readonly errorNumber: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export class RetryableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RetryableError';
  }
}

export class PermanentError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentError';
  }
}

/** A short, log-safe description of any thrown value (no stack, no request bodies). */
export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return code ? `${err.name}: ${err.message} (${code})` : `${err.name}: ${err.message}`;
  }
  return String(err);
}
