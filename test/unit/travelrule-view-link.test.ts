import { linkExpiry } from '../../src/travelrule/sending/messages.js';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeDataKey, makeKeyring } from '../../src/travelrule/crypto.js';
import {
  createViewToken,
  verifyViewToken,
  viewLinkKey,
  viewLinkUrl,
} from '../../src/travelrule/view-link.js';

const newKey = () => decodeDataKey(randomBytes(32).toString('base64'), 'test');
const TX = '3f0c2a4e-8d7b-4b8e-9a57-1c2d3e4f5a6b';
const OTHER_TX = '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d';
const NOW = new Date('2025-06-01T12:00:00Z');
const IN_A_WEEK = new Date(NOW.getTime() + 7 * 24 * 3600_000);

describe('view link tokens', () => {
  it('round-trips, and has the documented form', () => {
    const ring = makeKeyring(newKey());
    const token = createViewToken(ring, TX, IN_A_WEEK);
    const [expiry, keyId, mac] = token.split('.');
    expect(expiry).toBe(String(IN_A_WEEK.getTime() / 1000));
    expect(keyId).toBe(ring.current.id);
    expect(mac).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(verifyViewToken(ring, TX, token, NOW)).toBe('ok');
    // Without `now`, the real clock.
    expect(
      verifyViewToken(ring, TX, createViewToken(ring, TX, new Date(Date.now() + 60_000))),
    ).toBe('ok');
    expect(
      verifyViewToken(ring, TX, createViewToken(ring, TX, new Date(Date.now() - 60_000))),
    ).toBe('expired');
  });

  it('derives a 32-byte key per data key, distinct from the data key itself', () => {
    const old = newKey();
    const ring = makeKeyring(newKey(), [old]);
    const current = viewLinkKey(ring)!;
    expect(current.id).toBe(ring.current.id);
    expect(current.key).toHaveLength(32);
    expect(current.key.equals(ring.current.key)).toBe(false);
    expect(viewLinkKey(ring, old.id)!.key.equals(current.key)).toBe(false);
    expect(viewLinkKey(ring, ring.current.id)!.key.equals(current.key)).toBe(true);
    expect(viewLinkKey(ring, 'ffffffffffffffff')).toBeUndefined();
  });

  it('reports expired only for a genuine token past its expiry', () => {
    const ring = makeKeyring(newKey());
    const token = createViewToken(ring, TX, IN_A_WEEK);
    expect(verifyViewToken(ring, TX, token, new Date(IN_A_WEEK.getTime() - 1000))).toBe('ok');
    expect(verifyViewToken(ring, TX, token, IN_A_WEEK)).toBe('expired');
    expect(verifyViewToken(ring, TX, token, new Date(IN_A_WEEK.getTime() + 86_400_000))).toBe(
      'expired',
    );
    // An expired token for another transaction is invalid, not expired: no oracle for guesses.
    expect(verifyViewToken(ring, OTHER_TX, token, new Date(IN_A_WEEK.getTime() + 1000))).toBe(
      'invalid',
    );
  });

  it('refuses a changed MAC, expiry or key id, and another transaction', () => {
    const ring = makeKeyring(newKey(), [newKey()]);
    const token = createViewToken(ring, TX, IN_A_WEEK);
    const [expiry, keyId, mac] = token.split('.') as [string, string, string];
    const flipped = (mac[0] === 'A' ? 'B' : 'A') + mac.slice(1);
    expect(verifyViewToken(ring, TX, `${expiry}.${keyId}.${flipped}`, NOW)).toBe('invalid');
    expect(verifyViewToken(ring, TX, `${Number(expiry) + 3600}.${keyId}.${mac}`, NOW)).toBe(
      'invalid',
    );
    const otherId = [...ring.byId.keys()].find((id) => id !== keyId)!;
    expect(verifyViewToken(ring, TX, `${expiry}.${otherId}.${mac}`, NOW)).toBe('invalid');
    expect(verifyViewToken(ring, OTHER_TX, token, NOW)).toBe('invalid');
    // The last base64url character carries 2 unused bits: other spellings of the same bytes are refused too.
    const last = mac.at(-1)!;
    const alias = 'AEIMQUYcgkosw048'.includes(last)
      ? String.fromCharCode(last.charCodeAt(0) + 1)
      : undefined;
    if (alias)
      expect(verifyViewToken(ring, TX, `${expiry}.${keyId}.${mac.slice(0, -1)}${alias}`, NOW)).toBe(
        'invalid',
      );
  });

  it('refuses malformed tokens', () => {
    const ring = makeKeyring(newKey());
    const token = createViewToken(ring, TX, IN_A_WEEK);
    const [expiry, keyId, mac] = token.split('.') as [string, string, string];
    const garbage = [
      '',
      '.',
      '..',
      '...',
      'abc',
      token + '.',
      `.${token}`,
      `${token}.x`,
      `${expiry}.${keyId}`,
      `x${expiry}.${keyId}.${mac}`,
      `-${expiry}.${keyId}.${mac}`,
      `0${expiry}.${keyId}.${mac}`,
      `${expiry}.0.${keyId}.${mac}`,
      `1e10.${keyId}.${mac}`,
      `${'9'.repeat(400)}.${keyId}.${mac}`,
      `99999999999999999999.${keyId}.${mac}`,
      `${expiry}..${mac}`,
      `${expiry}.${keyId.toUpperCase()}.${mac}`,
      `${expiry}.${keyId}.`,
      `${expiry}.${keyId}.${mac}=`,
      `${expiry}.${keyId}.${mac.slice(1)}`,
      `${expiry}.${keyId}.${mac}A`,
      `${expiry}.${keyId}.${mac.replace(/./, '+')}`,
      'x'.repeat(100_000),
      `${expiry}.${keyId}.${mac}`.replace('.', '\u0000'),
      ` ${token}`,
    ];
    for (const bad of garbage)
      expect(verifyViewToken(ring, TX, bad, NOW), JSON.stringify(bad.slice(0, 80))).toBe('invalid');
    expect(verifyViewToken(ring, TX, undefined as unknown as string, NOW)).toBe('invalid');
  });

  it('verifies a token of an old key after rotation, and signs new ones with the current key', () => {
    const old = newKey();
    const before = makeKeyring(old);
    const token = createViewToken(before, TX, IN_A_WEEK);
    const rotated = makeKeyring(newKey(), [old]);
    expect(verifyViewToken(rotated, TX, token, NOW)).toBe('ok');
    const fresh = createViewToken(rotated, TX, IN_A_WEEK);
    expect(fresh.split('.')[1]).toBe(rotated.current.id);
    expect(verifyViewToken(before, TX, fresh, NOW)).toBe('invalid');
    // Once the old key leaves the keyring, its links stop working.
    expect(verifyViewToken(makeKeyring(rotated.current), TX, token, NOW)).toBe('invalid');
  });

  it('refuses a token made with a key not in the keyring', () => {
    const token = createViewToken(makeKeyring(newKey()), TX, IN_A_WEEK);
    expect(verifyViewToken(makeKeyring(newKey()), TX, token, NOW)).toBe('invalid');
  });

  it('rounds the expiry down to the second', () => {
    const ring = makeKeyring(newKey());
    const token = createViewToken(ring, TX, new Date(IN_A_WEEK.getTime() + 999));
    expect(token.split('.')[0]).toBe(String(IN_A_WEEK.getTime() / 1000));
  });
});

describe('viewLinkUrl', () => {
  it('builds the link under /v2 without a double slash', () => {
    const token = '1750000000.0123456789abcdef.abc_-DEF';
    expect(viewLinkUrl('https://vasp.example/', TX, token)).toBe(
      `https://vasp.example/v2/travelrule/transaction/${TX}?q=${token}`,
    );
    expect(viewLinkUrl('https://vasp.example/tollgate', TX, token)).toBe(
      `https://vasp.example/tollgate/v2/travelrule/transaction/${TX}?q=${token}`,
    );
    expect(viewLinkUrl('https://vasp.example', TX, 'a+b/c=')).toBe(
      `https://vasp.example/v2/travelrule/transaction/${TX}?q=a%2Bb%2Fc%3D`,
    );
  });
});

describe('linkExpiry (one link for every attempt of one e-mail)', () => {
  const queued = new Date('2026-11-30T08:00:00Z');
  const hour = 3_600_000;
  it('counts the validity from when the e-mail was queued, so a later attempt sends the same link', () => {
    const first = linkExpiry(queued, 168, queued);
    const retry = linkExpiry(queued, 168, new Date(queued.getTime() + 3 * hour));
    expect(first.toISOString()).toBe('2026-12-07T08:00:00.000Z');
    expect(retry).toEqual(first);
    // Up to half the validity gone: still the same link.
    expect(linkExpiry(queued, 168, new Date(queued.getTime() + 84 * hour))).toEqual(first);
  });

  it('gives an attempt after more than half the validity a link valid for the whole of it', () => {
    const late = new Date(queued.getTime() + 85 * hour);
    expect(linkExpiry(queued, 168, late)).toEqual(new Date(late.getTime() + 168 * hour));
  });
});
