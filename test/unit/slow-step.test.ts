import { afterEach, expect, it, vi } from 'vitest';
import { log } from '../../src/log.js';
import { noteIfSlow, SLOW_STEP_MS, stopStepWithin } from '../../src/slow-step.js';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

it('names a stop step that is still running every few seconds, and stops saying so when it ends', async () => {
  vi.useFakeTimers();
  const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
  let finish!: (v: string) => void;
  const running = noteIfSlow(
    'worker: jobs in hand',
    () => new Promise<string>((r) => (finish = r)),
  );
  await vi.advanceTimersByTimeAsync(SLOW_STEP_MS - 1);
  expect(warn).not.toHaveBeenCalled();
  await vi.advanceTimersByTimeAsync(2 * SLOW_STEP_MS);
  expect(warn).toHaveBeenCalledTimes(2);
  expect(warn.mock.calls[0]![0]).toMatchObject({ step: 'worker: jobs in hand' });
  finish('done');
  expect(await running).toBe('done');
  await vi.advanceTimersByTimeAsync(3 * SLOW_STEP_MS);
  expect(warn).toHaveBeenCalledTimes(2);
});

it('passes a failing step on, and a quick one says nothing', async () => {
  const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
  await expect(noteIfSlow('x', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
  expect(await noteIfSlow('y', () => 7)).toBe(7);
  expect(warn).not.toHaveBeenCalled();
});

it('goes on without a stop step that outlasts its limit, says so once, and logs its later failure', async () => {
  vi.useFakeTimers();
  const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
  let fail!: (e: Error) => void;
  const running = stopStepWithin(
    'worker: jobs in hand',
    12_000,
    () => new Promise((_, reject) => (fail = reject)),
  );
  let done: boolean | undefined;
  void running.then((v) => (done = v));
  await vi.advanceTimersByTimeAsync(11_999);
  expect(done).toBeUndefined();
  expect(warn).toHaveBeenCalledTimes(2); // still waiting, at 5 s and 10 s
  await vi.advanceTimersByTimeAsync(1);
  expect(done).toBe(false);
  expect(warn).toHaveBeenCalledTimes(3);
  expect(warn.mock.calls[2]![0]).toMatchObject({ step: 'worker: jobs in hand', waited_ms: 12_000 });
  expect(warn.mock.calls[2]![1]).toMatch(/gave up waiting/);
  // Left: no more "still waiting"; its failure afterwards is logged, not unhandled.
  await vi.advanceTimersByTimeAsync(3 * SLOW_STEP_MS);
  expect(warn).toHaveBeenCalledTimes(3);
  fail(new Error('connection lost'));
  await vi.advanceTimersByTimeAsync(0);
  expect(warn).toHaveBeenCalledTimes(4);
  expect(warn.mock.calls[3]![0]).toMatchObject({ step: 'worker: jobs in hand' });
});

it('a stop step that ends in time says true and nothing, one that fails in time throws', async () => {
  const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
  expect(await stopStepWithin('a', 1_000, () => undefined)).toBe(true);
  expect(await stopStepWithin('b', 1_000, () => new Promise((r) => setTimeout(r, 5)))).toBe(true);
  await expect(stopStepWithin('c', 1_000, () => Promise.reject(new Error('no')))).rejects.toThrow(
    'no',
  );
  await expect(
    stopStepWithin('d', 1_000, () => {
      throw new Error('sync');
    }),
  ).rejects.toThrow('sync');
  expect(warn).not.toHaveBeenCalled();
});
