import { describe, expect, it } from 'vitest';
import { retryAfterAnswerS, retryAfterSeconds, retryDelayS } from '../../src/net/retry-after.js';

describe('Retry-After', () => {
  const now = Date.parse('2026-11-29T10:00:00Z');
  it('reads seconds and HTTP dates (RFC 9110), nothing else', () => {
    expect(retryAfterSeconds('120', now)).toBe(120);
    expect(retryAfterSeconds(' 0 ', now)).toBe(0);
    expect(retryAfterSeconds('Sun, 29 Nov 2026 10:01:30 GMT', now)).toBe(90);
    expect(retryAfterSeconds('Sun, 29 Nov 2026 09:00:00 GMT', now)).toBe(0);
    // Any number of digits (1*DIGIT): eleven or fifty ask for long, and get the longest wait.
    expect(retryAfterSeconds('10000000000', now)).toBe(10_000_000_000);
    expect(retryAfterAnswerS(1, retryAfterSeconds('9'.repeat(50), now))).toBe(retryDelayS(10));
    for (const junk of [undefined, '', '-5', '1.5', 'soon', 'Mon'])
      expect(retryAfterSeconds(junk, now), String(junk)).toBeNull();
  });

  it('waits the longer of the backoff and the ask, the ask at most the longest backoff', () => {
    expect(retryAfterAnswerS(1, null)).toBe(retryDelayS(1));
    expect(retryAfterAnswerS(1, 1)).toBe(retryDelayS(1));
    expect(retryAfterAnswerS(1, 120)).toBe(120);
    expect(retryAfterAnswerS(3, 86_400 * 30)).toBe(retryDelayS(10));
  });
});
