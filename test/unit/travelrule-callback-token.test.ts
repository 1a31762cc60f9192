import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  callbackToken,
  legacyTokenHash,
  transactionOfToken,
} from '../../src/travelrule/callback-token.js';
import { keyId, makeKeyring } from '../../src/travelrule/crypto.js';

const dataKey = () => {
  const key = randomBytes(32);
  return { id: keyId(key), key };
};

describe('callback tokens', () => {
  it('name their transaction, and only a key of the keyring makes one', () => {
    const current = dataKey();
    const keyring = makeKeyring(current);
    const id = randomUUID();
    const token = callbackToken(keyring, id);
    expect(token).toMatch(/^[0-9a-f]{48}[A-Za-z0-9_-]{43}$/);
    expect(transactionOfToken(keyring, token)).toBe(id);
    // Another transaction's id under this MAC, a changed MAC, another keyring: nothing.
    const other = randomUUID().replace(/-/g, '');
    expect(transactionOfToken(keyring, other + token.slice(32))).toBeUndefined();
    const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    expect(transactionOfToken(keyring, flipped)).toBeUndefined();
    expect(transactionOfToken(makeKeyring(dataKey()), token)).toBeUndefined();
    for (const junk of ['', 'x'.repeat(91), token + 'A', token.toUpperCase()])
      expect(transactionOfToken(keyring, junk)).toBeUndefined();
  });

  it('keep working after a key rotation while the old key stays in the keyring', () => {
    const old = dataKey();
    const id = randomUUID();
    const token = callbackToken(makeKeyring(old), id);
    const rotated = makeKeyring(dataKey(), [old]);
    expect(transactionOfToken(rotated, token)).toBe(id);
    expect(callbackToken(rotated, id)).not.toBe(token);
  });

  it('stores the random tokens of before only as their SHA-256', () => {
    expect(legacyTokenHash('tok_abc')).toBe(createHash('sha256').update('tok_abc').digest('hex'));
  });
});
