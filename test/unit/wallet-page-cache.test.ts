import { describe, expect, it } from 'vitest';
import { PageCache } from '../../src/wallet/page-cache.js';

const page = (n: number, chars: number) => ({
  server: 's',
  version: String(n),
  json: 'x'.repeat(chars),
});

describe('wallet page cache', () => {
  it('keeps pages within its bytes, dropping the least recently used first', () => {
    // 100 characters are 200 bytes as counted: room for five.
    const cache = new PageCache(1_000);
    for (let i = 1; i <= 5; i++) cache.put('0xa', i, 50, page(i, 100));
    expect(cache.size).toEqual({ pages: 5, bytes: 1_000 });
    expect(cache.get('0xa', 1, 50)?.version).toBe('1'); // used: now the most recent
    cache.put('0xa', 6, 50, page(6, 100));
    expect(cache.get('0xa', 2, 50)).toBeUndefined();
    expect(cache.get('0xa', 1, 50)?.version).toBe('1');
    expect(cache.size).toEqual({ pages: 5, bytes: 1_000 });
  });

  it('replaces a page of the same address, page and limit, and tells limits apart', () => {
    const cache = new PageCache(10_000);
    cache.put('0xa', 1, 50, page(1, 100));
    cache.put('0xa', 1, 50, page(2, 300));
    cache.put('0xa', 1, 7, page(3, 10));
    expect(cache.get('0xa', 1, 50)?.version).toBe('2');
    expect(cache.get('0xa', 1, 7)?.version).toBe('3');
    expect(cache.get('0xb', 1, 50)).toBeUndefined();
    expect(cache.size).toEqual({ pages: 2, bytes: 620 });
  });

  it('keeps nothing with no room, and no page larger than its room', () => {
    const none = new PageCache(0);
    none.put('0xa', 1, 50, page(1, 1));
    expect(none.size.pages).toBe(0);
    const small = new PageCache(100);
    small.put('0xa', 1, 50, page(1, 60));
    expect(small.get('0xa', 1, 50)).toBeUndefined();
  });
});
