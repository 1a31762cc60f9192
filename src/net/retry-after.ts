/**
 * The waits between attempts at something sent to a party we do not control (a webhook
 * receiver, another VASP's TRP server): the backoff, which is graphile-worker's own
 * (e^attempts seconds, at most e^10), and the party's Retry-After, which asks for longer.
 */

/** Seconds before attempt `attempts + 1`: e^attempts, at most e^10 (about 6 hours); 25 attempts span about 3 days. */
export function retryDelayS(attempts: number): number {
  return Math.exp(Math.min(Math.max(attempts, 1), 10));
}

/**
 * The wait before the next attempt after an answer: the backoff, or longer when the party asked
 * for longer (a 429 or 503 with Retry-After), up to the backoff's own longest (e^10 s).
 */
export function retryAfterAnswerS(attempts: number, retryAfterS: number | null): number {
  return Math.max(retryDelayS(attempts), Math.min(retryAfterS ?? 0, retryDelayS(10)));
}

/** A Retry-After value (RFC 9110 10.2.3: seconds, or an HTTP date) in seconds from now; null if neither. */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | null {
  if (value === undefined) return null;
  const v = value.trim();
  // delay-seconds is 1*DIGIT, any length: a longer one than a Number holds exactly is still long.
  if (/^\d+$/.test(v)) return Math.min(Number(v), Number.MAX_SAFE_INTEGER);
  const at = Date.parse(v);
  if (!/[a-z]/i.test(v) || Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now) / 1000));
}
