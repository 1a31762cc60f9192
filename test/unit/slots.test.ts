/**
 * Slots (src/concurrency.ts): at most `size` calls run at once; the others start in the order they
 * came, each as soon as a slot is left, whether the call before it resolved or threw.
 */
import { describe, expect, it } from 'vitest';
import { Slots } from '../../src/concurrency.js';

/** A call that ends when told to, recording when it started. */
function gate(started: number[], id: number) {
  let open!: () => void;
  let fail!: (err: Error) => void;
  const done = new Promise<number>((resolve, reject) => {
    open = () => resolve(id);
    fail = reject;
  });
  return {
    fn: () => {
      started.push(id);
      return done;
    },
    open,
    fail,
  };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('Slots', () => {
  it('runs at most `size` calls at once, the waiting ones in the order they came', async () => {
    const slots = new Slots(2);
    const started: number[] = [];
    const gates = [0, 1, 2, 3, 4].map((i) => gate(started, i));
    const results = gates.map((g) => slots.run(g.fn));
    await tick();
    expect(started).toEqual([0, 1]);

    gates[1]!.open(); // the second ends first: the third takes its slot
    await tick();
    expect(started).toEqual([0, 1, 2]);

    const failed = results[0]!.catch((e: Error) => e.message);
    gates[0]!.fail(new Error('no')); // a call that throws leaves its slot too
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    expect(await failed).toBe('no');

    for (const g of gates.slice(2)) g.open();
    expect(await Promise.all(results.slice(1))).toEqual([1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);

    // Every slot is free again: two start at once.
    const again = [5, 6, 7].map((i) => gate(started, i));
    const more = again.map((g) => slots.run(g.fn));
    await tick();
    expect(started.slice(5)).toEqual([5, 6]);
    for (const g of again) g.open();
    await Promise.all(more);
  });
});
