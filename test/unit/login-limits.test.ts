import { describe, expect, it } from 'vitest';
import { DEFAULT_LOGIN_LIMITS, LoginLimiter } from '../../src/operators/limits.js';

/** The login limiter on a clock and a sleep of the test's own: no wall-clock time is measured. */
function limiter() {
  let now = 1_000_000;
  const sleeps: number[] = [];
  const l = new LoginLimiter(
    DEFAULT_LOGIN_LIMITS,
    () => now,
    async (ms) => {
      sleeps.push(ms);
    },
  );
  return { l, sleeps, advance: (ms: number) => (now += ms) };
}

async function fail(l: LoginLimiter, client: string, login: string): Promise<boolean> {
  const a = l.admit(client, login);
  if (!a.ok) return false;
  await a.attempt.failed();
  return true;
}

describe('LoginLimiter', () => {
  it('limits failures of one login from one address, not the same login from another address', async () => {
    const { l } = limiter();
    for (let i = 0; i < DEFAULT_LOGIN_LIMITS.loginBurst; i++)
      expect(await fail(l, '203.0.113.9', 'alice')).toBe(true);
    const refused = l.admit('203.0.113.9', 'alice');
    expect(refused).toEqual({ ok: false, retryAfterS: 60 });
    // The operator elsewhere is not affected, whatever the stranger did.
    const operator = l.admit('198.51.100.4', 'alice');
    expect(operator.ok).toBe(true);
    if (operator.ok) operator.attempt.succeeded();
    // Another login from the stranger's address still has the address's budget.
    expect(l.admit('203.0.113.9', 'bob').ok).toBe(true);
  });

  it('limits failures of any login from one address, and refills over time', async () => {
    const { l, advance } = limiter();
    for (let i = 0; i < DEFAULT_LOGIN_LIMITS.addressBurst; i++)
      expect(await fail(l, '203.0.113.10', `login-${i}`)).toBe(true);
    const refused = l.admit('203.0.113.10', 'someone-new');
    expect(refused.ok).toBe(false);
    expect(refused.ok ? 0 : refused.retryAfterS).toBe(6);
    advance(6_000);
    expect(l.admit('203.0.113.10', 'someone-new').ok).toBe(true);
  });

  it('gives the tokens back when the attempt succeeds or is abandoned', async () => {
    const { l } = limiter();
    for (let i = 0; i < 50; i++) {
      const a = l.admit('203.0.113.11', 'carol');
      expect(a.ok).toBe(true);
      if (a.ok) (i % 2 ? a.attempt.succeeded : a.attempt.abandoned)();
    }
  });

  it('holds at most inFlightMax attempts of one address at once', () => {
    const { l } = limiter();
    const held = Array.from({ length: DEFAULT_LOGIN_LIMITS.inFlightMax }, () =>
      l.admit('203.0.113.12', 'dave'),
    );
    expect(held.every((a) => a.ok)).toBe(true);
    expect(l.admit('203.0.113.12', 'erin')).toEqual({ ok: false, retryAfterS: 1 });
    for (const a of held) if (a.ok) a.attempt.succeeded();
    expect(l.admit('203.0.113.12', 'erin').ok).toBe(true);
  });

  it('slows failures down progressively once an address has used some of its budget', async () => {
    const { l, sleeps } = limiter();
    for (let i = 0; i < DEFAULT_LOGIN_LIMITS.addressBurst; i++)
      await fail(l, '203.0.113.13', `x-${i}`);
    expect(sleeps).toEqual([250, 500, 1000, 2000, 2000, 2000, 2000]);
  });

  it('treats an unknown and a known login alike: the key is the text typed', async () => {
    const a = limiter();
    const b = limiter();
    const trace = async (l: LoginLimiter, login: string) => {
      const out: unknown[] = [];
      for (let i = 0; i < 8; i++) {
        const r = l.admit('203.0.113.14', login);
        out.push(r.ok ? 'ok' : r);
        if (r.ok) await r.attempt.failed();
      }
      return out;
    };
    expect(await trace(a.l, 'exists')).toEqual(await trace(b.l, 'does-not-exist'));
  });

  it('keeps a bounded number of buckets', async () => {
    const { l } = limiter();
    for (let i = 0; i < 60_000; i++) {
      const a = l.admit(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, 'z');
      if (a.ok) a.attempt.succeeded();
    }
    expect(l.tracked.addresses).toBeLessThanOrEqual(50_000);
    expect(l.tracked.logins).toBeLessThanOrEqual(50_000);
  });
});
