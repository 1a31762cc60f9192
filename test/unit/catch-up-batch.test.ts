import { describe, expect, it } from 'vitest';
import { catchUpBatchSize } from '../../src/indexer/evm/indexer.js';

/** The batches a catch-up of `left` blocks makes, in order. */
function batches(left: number, max: number): number[] {
  const out: number[] = [];
  for (let rest = BigInt(left); rest > 0n; ) {
    const n = catchUpBatchSize(rest, max);
    out.push(n);
    rest -= BigInt(n);
  }
  return out;
}

describe('catchUpBatchSize', () => {
  it('takes full batches far from the head and smaller ones near it, so the last batch stored is small', () => {
    expect(batches(200, 50)).toEqual([50, 50, 50, 25, 13, 10, 2]);
    expect(batches(2_000, 50).slice(0, 39)).toEqual(Array(39).fill(50));
    expect(batches(2_000, 50).slice(39)).toEqual([25, 13, 10, 2]);
  });

  it('is one block at the head, and never more than is left or than the batch size', () => {
    expect(batches(1, 50)).toEqual([1]);
    expect(batches(3, 50)).toEqual([3]);
    expect(batches(7, 50)).toEqual([7]);
    expect(batches(12, 50)).toEqual([10, 2]);
    expect(batches(5, 1)).toEqual([1, 1, 1, 1, 1]);
    for (let left = 1; left <= 400; left++)
      for (const max of [1, 2, 7, 50]) {
        const b = batches(left, max);
        expect(b.reduce((a, n) => a + n, 0)).toBe(left);
        expect(Math.max(...b)).toBeLessThanOrEqual(max);
        expect(Math.min(...b)).toBeGreaterThan(0);
      }
  });

  it('takes a node millions of blocks ahead in full batches', () => {
    expect(catchUpBatchSize(25_000_000n, 50)).toBe(50);
    expect(catchUpBatchSize(2n ** 70n, 50)).toBe(50);
  });
});
