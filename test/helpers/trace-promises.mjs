/**
 * A debugging aid, not run by default: `ROLE_PRELOAD=test/helpers/trace-promises.mjs` makes every
 * process the tests start through test/helpers/cli.ts (the fault suite's roles among them) import
 * this first. It records where each promise was created (node:async_hooks; slow, a stack per
 * promise), and when one is rejected with nobody to handle it, prints that place (the bare error
 * often names no frame of ours or of a dependency: `Error: read ECONNRESET at TCP.onStreamRead`),
 * then hands the rejection on as Node would without this listener: to the process's
 * 'uncaughtException' listeners (the appliance's connection guard), or, without one, exits 1.
 */
import { createHook } from 'node:async_hooks';
import { writeSync } from 'node:fs';

const created = new WeakMap();
Error.stackTraceLimit = 20;
createHook({
  init(_id, type, _trigger, resource) {
    if (type === 'PROMISE') created.set(resource, new Error('promise created'));
  },
}).enable();
process.on('unhandledRejection', (reason, promise) => {
  const where = (created.get(promise)?.stack ?? 'unknown')
    .split('\n')
    .slice(1)
    .filter((line) => !/async_hooks|trace-promises/.test(line))
    .join('\n');
  const what = reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
  writeSync(2, `\nunhandled rejection (${what}) of a promise created\n${where}\n`);
  const listeners = process.listeners('uncaughtException');
  if (listeners.length === 0) process.exit(1);
  for (const listener of listeners) listener(reason, 'unhandledRejection');
});
