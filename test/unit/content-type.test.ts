import { describe, expect, it } from 'vitest';
import { isJsonType } from '../../src/net/content-encoding.js';

describe('isJsonType', () => {
  it('takes JSON and JSON subtypes, with parameters, in any case', () => {
    for (const t of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON;charset=UTF-8',
      ' application/json ',
      'application/vnd.api+json',
      'application/problem+json; q=1',
    ])
      expect(isJsonType(t), t).toBe(true);
  });

  it('refuses what is not JSON, or only begins like it', () => {
    for (const t of [
      '',
      'text/plain',
      'text/json',
      'application/json-seq',
      'application/jsonx',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=json',
      'application/+json',
    ])
      expect(isJsonType(t), t).toBe(false);
  });
});
