import { log } from './log.js';

/** How often a stop step still running is said. */
export const SLOW_STEP_MS = 5_000;

/**
 * Runs one step of a stop; while it runs, every SLOW_STEP_MS a warning names it and how long it
 * has waited. A stop that a supervisor kills (Docker after 10 s by default) leaves in the log the
 * step it was waiting on.
 */
export async function noteIfSlow<T>(what: string, fn: () => Promise<T> | T): Promise<T> {
  const started = performance.now();
  const timer = setInterval(
    () =>
      log.warn(
        { step: what, waited_ms: Math.round(performance.now() - started) },
        'stopping: still waiting for a step',
      ),
    SLOW_STEP_MS,
  );
  timer.unref();
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}
