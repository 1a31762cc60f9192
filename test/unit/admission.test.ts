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
    expect(body.message).toMatch(/did not start within 0\.2 s.*nothing of it was applied/);
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

  it('receives a body before the request takes a place: a client that sends slowly holds none', async () => {
    const { admission, h, started, finish } = app(1, 60_000);
    let send!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        send = controller;
      },
    });
    send.enqueue(new TextEncoder().encode('{"a":'));
    const slow = h.request('/r/slow', {
      method: 'POST',
      body,
      headers: { 'transfer-encoding': 'chunked' },
      duplex: 'half',
    } as RequestInit);
    await settle();
    // Its body still arriving: no place taken, and the next request runs at once.
    expect(admission.inUse).toBe(0);
    const quick = h.request('/r/quick');
    await settle();
    expect(started).toEqual(['quick']);
    finish('quick');
    await quick;
    send.enqueue(new TextEncoder().encode('1}'));
    send.close();
    await settle();
    expect(started).toEqual(['quick', 'slow']);
    finish('slow');
    expect((await slow).status).toBe(200);
    expect(admission.inUse).toBe(0);
  });

  it('answers 408 at its deadline a request whose body is still arriving (the client is slow, not the database), and never runs it', async () => {
    const { admission, h, started } = app(1, 150);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"a":'));
      },
    });
    const slow = await h.request('/r/slow', {
      method: 'POST',
      body,
      headers: { 'transfer-encoding': 'chunked' },
      duplex: 'half',
    } as RequestInit);
    expect(slow.status).toBe(408);
    // The rest of the body may still come: the connection is not kept for another request.
    expect(slow.headers.get('connection')).toBe('close');
    expect(slow.headers.get('retry-after')).toBeNull();
    const answer = await slow.json();
    expect(answer.code).toBe(5000);
    expect(answer.message).toMatch(
      /body was not received within 0\.2 s; nothing of it was applied/,
    );
    expect(answer.message).not.toMatch(/database/);
    await settle();
    expect(started).toEqual([]);
    // Not one of those that waited for their turn.
    expect([admission.inUse, admission.queued, admission.expiredWaiting]).toEqual([0, 0, 0]);
  });

  it('hands the route the body it received, byte for byte, short or past the read-ahead', async () => {
    const admission = new Admission(4);
    const h = new Hono();
    h.use('*', requestDeadline(60_000, 'test'));
    h.use('*', admission.middleware);
    h.post('/echo', async (c) => c.text(String((await c.req.arrayBuffer()).byteLength)));
    for (const size of [0, 10, 1024 * 1024 + 1, 3 * 1024 * 1024]) {
      const bytes = new Uint8Array(size).fill(7);
      // Chunked (no length known ahead), as a stream of 64 KiB pieces.
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < size; i += 65_536) controller.enqueue(bytes.subarray(i, i + 65_536));
          controller.close();
        },
      });
      const res = await h.request('/echo', {
        method: 'POST',
        body: stream,
        headers: { 'transfer-encoding': 'chunked' },
        duplex: 'half',
      } as RequestInit);
      expect(await res.text()).toBe(String(size));
    }
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
