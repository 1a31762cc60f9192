import { describe, expect, it } from 'vitest';
import { ZERO_ADDRESS, edgesOf } from '../../src/indexer/edges.js';

describe('edgesOf', () => {
  it('counts each transaction once per ordered pair, both directions, without self-pairs or the zero address', () => {
    const edges = edgesOf([
      {
        timestamp: 10n,
        pairs: [
          ['a', 'b'],
          ['b', 'a'],
          ['a', 'b'],
          ['a', 'a'],
          [ZERO_ADDRESS, 'a'],
        ],
      },
      {
        timestamp: 5n,
        pairs: [
          ['a', 'b'],
          ['a', 'c'],
        ],
      },
    ]);
    expect(
      Object.fromEntries(
        [...edges].map(([k, e]) => [k.replace('\n', '>'), [e.count, e.first, e.last]]),
      ),
    ).toEqual({
      'a>b': [2, 5n, 10n],
      'b>a': [2, 5n, 10n],
      'a>c': [1, 5n, 5n],
      'c>a': [1, 5n, 5n],
    });
  });
});
