import { describe, expect, it } from 'vitest';
import { duplicateKey } from '../../src/json.js';

/** duplicateKey: the first key an object of valid JSON gives twice (JSON.parse keeps the last). */
describe('duplicateKey', () => {
  it('finds a key given twice in one object, at any depth', () => {
    expect(duplicateKey('{"a":1,"b":2,"a":3}')).toBe('a');
    expect(duplicateKey('{"x":{"y":[{"k":1,"k":1}]}}')).toBe('k');
    expect(duplicateKey(' { "w" : "https://a" ,\n\t"w"\r\n: "http://b" } ')).toBe('w');
    // Compared as decoded: an escape spells the same key.
    expect(duplicateKey('{"ab":1,"a\\u0062":2}')).toBe('ab');
    expect(duplicateKey('{"\\"":1,"\\u0022":2}')).toBe('"');
  });

  it('takes the same key in different objects, and strings that only look like keys', () => {
    expect(duplicateKey('{"a":{"a":1},"b":[{"a":1},{"a":2}]}')).toBeUndefined();
    expect(
      duplicateKey('{"a":"\\"a\\":","b":["a","a"],"c":"{\\"a\\":1,\\"a\\":2}"}'),
    ).toBeUndefined();
    expect(duplicateKey('["a","a",{"a":1}]')).toBeUndefined();
    expect(duplicateKey('"just a string"')).toBeUndefined();
    expect(duplicateKey('{"a\\\\":1,"a":2}')).toBeUndefined();
  });

  it('agrees with JSON.parse on which keys an object has, for generated bodies', () => {
    // Objects built by JSON.stringify never repeat a key; the same text with a key repeated does.
    for (let n = 0; n < 200; n++) {
      const value = {
        address: `0x${n}`,
        nested: { list: [{ k: n }, { k: `"${n}"` }] },
        [`k\u00e9${n}`]: n,
      };
      const text = JSON.stringify(value);
      expect(duplicateKey(text)).toBeUndefined();
      expect(duplicateKey(`${text.slice(0, -1)},"address":"x"}`)).toBe('address');
    }
  });
});
