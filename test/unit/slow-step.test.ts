import { afterEach, expect, it, vi } from 'vitest';
import { log } from '../../src/log.js';
import { noteIfSlow, SLOW_STEP_MS } from '../../src/slow-step.js';

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
