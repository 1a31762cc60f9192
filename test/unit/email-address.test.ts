import { describe, expect, it } from 'vitest';
import { mailAddress } from '../../src/net/email-address.js';

describe('e-mail addresses the fallback sends to', () => {
  it('takes a Unicode domain in its ASCII form (RFC 5890), and any letter case of it', () => {
    // Refused before (found by an outside probe), while its xn-- form was taken.
    expect(mailAddress('user@bücher.example')).toEqual({
      ok: true,
      address: 'user@xn--bcher-kva.example',
    });
    expect(mailAddress('Compliance+TR@Acme.EXAMPLE')).toEqual({
      ok: true,
      address: 'Compliance+TR@acme.example',
    });
    expect(mailAddress('o.k@xn--bcher-kva.example')).toMatchObject({ ok: true });
  });

  it.each([
    ['x', 'local-part@domain'],
    ['@acme.example', 'local-part@domain'],
    ['user@', 'local-part@domain'],
    ['"a b"@acme.example', 'quoted'],
    ['a@[127.0.0.1]', 'address literal'],
    [`${'a'.repeat(65)}@acme.example`, 'at most 64 characters'],
    ['a..b@acme.example', 'between single dots'],
    ['.a@acme.example', 'between single dots'],
    ['a b@acme.example', 'between single dots'],
    ['a\r\nBcc: x@evil.example', 'before @'],
    ['a@localhost', 'domain name'],
    ['a@acme..example', 'domain name'],
    ['a@-acme.example', 'domain name'],
    ['a,b@acme.example', 'between single dots'],
    [
      `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(60)}.example`,
      'domain name',
    ],
  ])('refuses %j, saying why', (input, reason) => {
    expect(mailAddress(input)).toEqual({ ok: false, reason: expect.stringContaining(reason) });
  });
});
