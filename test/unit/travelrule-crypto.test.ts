import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import {
  DecryptionError,
  decodeDataKey,
  loadKeyring,
  makeKeyring,
  openPayload,
  sealPayload,
} from '../../src/travelrule/crypto.js';

const newKey = () => decodeDataKey(randomBytes(32).toString('base64'), 'test');
const ROW = '3f0c2a4e-8d7b-4b8e-9a57-1c2d3e4f5a6b';
const OTHER_ROW = '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d';
const payload = { originator: { persons: [{ naturalPerson: { name: 'Ada Lovelace' } }] } };

describe('sealPayload / openPayload', () => {
  it('round-trips, with a fresh nonce each time', () => {
    const ring = makeKeyring(newKey());
    const a = sealPayload(ring, ROW, payload);
    const b = sealPayload(ring, ROW, payload);
    expect(a.nonce).toHaveLength(12);
    expect(a.nonce.equals(b.nonce)).toBe(false);
    expect(a.ciphertext.equals(b.ciphertext)).toBe(false);
    expect(a.ciphertext.includes(Buffer.from('Lovelace'))).toBe(false);
    expect(openPayload(ring, ROW, a)).toEqual(payload);
  });

  it('refuses a flipped byte, a flipped tag, another row id, and an unknown key', () => {
    const ring = makeKeyring(newKey());
    const sealed = sealPayload(ring, ROW, payload);
    const flip = (buf: Buffer, i: number) => {
      const c = Buffer.from(buf);
      c[i] = c[i]! ^ 1;
      return c;
    };
    expect(() =>
      openPayload(ring, ROW, { ...sealed, ciphertext: flip(sealed.ciphertext, 0) }),
    ).toThrow(DecryptionError);
    expect(() =>
      openPayload(ring, ROW, {
        ...sealed,
        ciphertext: flip(sealed.ciphertext, sealed.ciphertext.length - 1),
      }),
    ).toThrow(DecryptionError);
    expect(() => openPayload(ring, OTHER_ROW, sealed)).toThrow(DecryptionError);
    expect(() => openPayload(makeKeyring(newKey()), ROW, sealed)).toThrow(/not in the keyring/);
  });

  it('decrypts with an old key of the keyring and encrypts with the current one', () => {
    const old = newKey();
    const sealed = sealPayload(makeKeyring(old), ROW, payload);
    const current = newKey();
    const ring = makeKeyring(current, [old]);
    expect(openPayload(ring, ROW, sealed)).toEqual(payload);
    expect(sealPayload(ring, ROW, payload).keyId).toBe(current.id);
  });
});

describe('loadKeyring', () => {
  it('creates data.key with mode 0600 once, then reuses it', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'tollgate-key-')), 'data');
    const first = loadKeyring({ dataDir: dir });
    const file = join(dir, 'data.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const bytes = readFileSync(file, 'utf8');
    const second = loadKeyring({ dataDir: dir });
    expect(second.current.id).toBe(first.current.id);
    expect(readFileSync(file, 'utf8')).toBe(bytes);
  });

  it('uses a configured key, keeping an existing data.key and old keys for reading', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-key-'));
    const fileKey = loadKeyring({ dataDir: dir }).current;
    const old = randomBytes(32).toString('base64');
    const configured = randomBytes(32).toString('base64');
    const ring = loadKeyring({ dataDir: dir, dataKey: configured, dataKeysOld: [old] });
    expect(ring.current.id).toBe(decodeDataKey(configured, 'x').id);
    expect([...ring.byId.keys()].sort()).toEqual(
      [ring.current.id, fileKey.id, decodeDataKey(old, 'x').id].sort(),
    );
  });

  it('refuses a key file that is not a 32-byte key, naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-key-'));
    writeFileSync(join(dir, 'data.key'), 'c2hvcnQ=\n', { mode: 0o600 });
    expect(() => loadKeyring({ dataDir: dir })).toThrow(/data\.key: must be the base64 of 32/);
  });
});

describe('config data_key', () => {
  const good = randomBytes(32).toString('base64');
  it('reads TOLLGATE_DATA_KEY and TOLLGATE_DATA_KEYS_OLD', () => {
    const old = randomBytes(32).toString('base64');
    const c = loadConfig({ TOLLGATE_DATA_KEY: good, TOLLGATE_DATA_KEYS_OLD: old });
    expect(c.data_key).toBe(good);
    expect(c.data_keys_old).toEqual([old]);
    expect(loadConfig({}).data_keys_old).toEqual([]);
  });

  it.each([
    ['TOLLGATE_DATA_KEY', 'not base64!'],
    ['TOLLGATE_DATA_KEY', randomBytes(16).toString('base64')],
    ['TOLLGATE_DATA_KEY', randomBytes(33).toString('base64')],
    [
      'TOLLGATE_DATA_KEYS_OLD',
      `${randomBytes(32).toString('base64')},${randomBytes(31).toString('base64')}`,
    ],
  ])('refuses a bad %s, naming it and not showing the value', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
    try {
      loadConfig({ [name]: value });
    } catch (err) {
      expect((err as Error).message).not.toContain(value.split(',').pop()!);
    }
  });
});
