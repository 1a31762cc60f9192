import { describeError } from './errors.js';
import { log } from './log.js';

/** How often a stop step still running is said. */
export const SLOW_STEP_MS = 5_000;

/** Warns every SLOW_STEP_MS that the step `what` is still running, until the returned function is called. */
function sayWhileRunning(what: string, started: number): () => void {
  const timer = setInterval(
    () =>
      log.warn(
        { step: what, waited_ms: Math.round(performance.now() - started) },
        'stopping: still waiting for a step',
      ),
    SLOW_STEP_MS,
  );
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Runs one step of a stop; while it runs, every SLOW_STEP_MS a warning names it and how long it
 * has waited. A stop that a supervisor kills (Docker after 10 s by default) leaves in the log the
 * step it was waiting on.
 */
export async function noteIfSlow<T>(what: string, fn: () => Promise<T> | T): Promise<T> {
  const quiet = sayWhileRunning(what, performance.now());
  try {
    return await fn();
  } finally {
    quiet();
  }
}

/**
 * A step of a stop that is waited for `limitMs` at most (said while slow, like noteIfSlow), then
 * left: the stop goes on without it, and a warning names it. Only for a step whose unfinished work
 * is safe to leave as after a kill -9 (what it holds in the database is taken up again once this
 * process is gone). Returns whether the step finished in time; a step that fails in time throws,
 * one that fails after it was left is logged.
 */
export async function stopStepWithin(
  what: string,
  limitMs: number,
  fn: () => Promise<unknown> | unknown,
): Promise<boolean> {
  const started = performance.now();
  const quiet = sayWhileRunning(what, started);
  const step = (async () => fn())();
  let limit: NodeJS.Timeout | undefined;
  try {
    const finished = await Promise.race([
      step.then(() => true),
      new Promise<false>((resolve) => {
        limit = setTimeout(() => resolve(false), Math.max(0, limitMs));
      }),
    ]);
    if (!finished) {
      step.catch((err: unknown) =>
        log.warn({ step: what, error: describeError(err) }, 'a step a stop went on without failed'),
      );
      log.warn(
        { step: what, waited_ms: Math.round(performance.now() - started) },
        'stopping: gave up waiting for a step; going on without it (its work is taken up again as after a kill)',
      );
    }
    return finished;
  } finally {
    clearTimeout(limit);
    quiet();
  }
}
