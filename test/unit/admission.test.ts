import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { Admission } from '../../src/api/admission.js';
import { deadlineAnswer, requestDeadline } from '../../src/api/deadline.js';
import { describeError } from '../../src/errors.js';

/**
 * The line of requests (src/api/admission.ts) on a hono app as the faces mount it: the deadline
 * first, then the line. Handlers here wait for the test to let them finish.
 */
function app(limit: number, deadlineMs: number) {
  const admission = new Admission(limit);
  const started: string[] = [];
  const gates = new Map<string, () => void>();
  const h = new Hono();
  h.use('*', requestDeadline(deadlineMs, 'test'));
  h.use('*', admission.middleware);
  h.on(['GET', 'POST'], '/r/:name', async (c) => {
    const name = c.req.param('name');
    started.push(name);
    await new Promise<void>((r) => gates.set(name, r));
    return c.json({ name });
  });
  h.onError((err, c) => deadlineAnswer(c, err, describeError) ?? c.json({ error: 'other' }, 500));
  const finish = (name: string) => gates.get(name)!();
  return { admission, h, started, finish };
}

/** Lets pending promise callbacks run (the handlers reach their gates). */
const settle = () => new Promise((r) => setTimeout(r, 20));

describe('admission line', () => {
  it('runs at most `limit` requests at once, the others in arrival order as places free', async () => {
    const { admission, h, started, finish } = app(2, 60_000);
    const answers = ['a', 'b', 'c', 'd'].map((n) => h.request(`/r/${n}`));
    await settle();
    expect(started).toEqual(['a', 'b']);
    expect([admission.inUse, admission.queued]).toEqual([2, 2]);
    finish('b');
    await settle();
    expect(started).toEqual(['a', 'b', 'c']);
    finish('a');
    await settle();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    finish('c');
    finish('d');
    const bodies = await Promise.all(answers.map(async (r) => (await r).json()));
    expect(bodies.map((b) => b.name)).toEqual(['a', 'b', 'c', 'd']);
    expect([admission.inUse, admission.queued, admission.expiredWaiting]).toEqual([0, 0, 0]);
  });

  it('answers 503 at its deadline a request still waiting, which then never runs; its place stays for the next', async () => {
    const { admission, h, started, finish } = app(1, 150);
    const running = h.request('/r/first');
    await settle();
    const waiting = await h.request('/r/second', { method: 'POST' });
    expect(waiting.status).toBe(503);
    const body = await waiting.json();
    expect(body.code).toBe(5030);
    // A write that never ran is said to be safe to send again, not "may still be applied".
    expect(body.message).toMatch(/turn did not come within 0\.2 s.*nothing of it was applied/);
    expect(body.message).not.toMatch(/may still be applied/);
    expect(admission.expiredWaiting).toBe(1);
    expect(admission.queued).toBe(0);
    // The one at work was answered at its deadline too, and goes on; when it ends, the place is
    // free, and the second never started.
    expect((await running).status).toBe(503);
    const third = h.request('/r/third');
    await settle();
    expect(started).toEqual(['first']);
    finish('first');
    await settle();
    expect(started).toEqual(['first', 'third']);
    finish('third');
    await third;
    expect([admission.inUse, admission.queued]).toEqual([0, 0]);
  });

  it('frees the place of a request whose handler failed', async () => {
    const admission = new Admission(1);
    const h = new Hono();
    h.use('*', requestDeadline(60_000, 'test'));
    h.use('*', admission.middleware);
    h.get('/fail', () => {
      throw new Error('boom');
    });
    h.get('/ok', (c) => c.json({ ok: true }));
    h.onError((_err, c) => c.json({ error: 'other' }, 500));
    expect((await h.request('/fail')).status).toBe(500);
    expect((await h.request('/ok')).status).toBe(200);
    expect(admission.inUse).toBe(0);
  });

  it('refuses a limit below 1', () => {
    expect(() => new Admission(0)).toThrow(RangeError);
  });
});
