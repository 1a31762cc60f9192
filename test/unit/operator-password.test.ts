import { describe, expect, it } from 'vitest';
import { generatePassword, hashPassword, verifyPassword } from '../../src/operators/password.js';

describe('operator passwords (scrypt)', () => {
  it('hashes in the scrypt$N$r$p$salt$hash format and verifies the same password', async () => {
    const stored = await hashPassword('correct horse battery staple');
    const parts = stored.split('$');
    expect(parts.slice(0, 4)).toEqual(['scrypt', '32768', '8', '1']);
    expect(Buffer.from(parts[4]!, 'base64')).toHaveLength(16);
    expect(Buffer.from(parts[5]!, 'base64')).toHaveLength(32);
    expect(stored).not.toContain('correct horse');
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
  });

  it('salts: the same password hashes differently each time', async () => {
    const [a, b] = await Promise.all([
      hashPassword('same password twice'),
      hashPassword('same password twice'),
    ]);
    expect(a).not.toBe(b);
    expect(await verifyPassword('same password twice', b)).toBe(true);
  });

  it('refuses a wrong password', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(await verifyPassword('correct horse battery stapler', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('answers false, never throws, for a malformed stored value', async () => {
    const good = await hashPassword('whatever password');
    const parts = good.split('$');
    for (const bad of [
      '',
      'plain',
      'scrypt$',
      good.replace('scrypt', 'bcrypt'),
      parts.slice(0, 5).join('$'),
      ['scrypt', '1000', ...parts.slice(2)].join('$'), // N not a power of two
      ['scrypt', String(2 ** 30), ...parts.slice(2)].join('$'), // N too large to attempt
      ['scrypt', '32768', '0', ...parts.slice(3)].join('$'),
      [...parts.slice(0, 4), '!!!', parts[5]].join('$'),
      [...parts.slice(0, 5), 'AAAA'].join('$'), // hash too short
      good + '$extra',
    ]) {
      await expect(verifyPassword('whatever password', bad)).resolves.toBe(false);
    }
  });

  it('generates 32-character base64url passwords', () => {
    const a = generatePassword();
    expect(a).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(generatePassword()).not.toBe(a);
  });
});
