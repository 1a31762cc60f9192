import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret } from '../../src/keys/keys.js';
import { signWebhook, webhookHeaders } from '../../src/webhooks/sign.js';
import { stringifyWithBigInts } from '../../src/json.js';
import { formatUnits } from '../../src/chains/units.js';

describe('Standard Webhooks signing', () => {
  it('verifies with the reference implementation', () => {
    const secret = generateWebhookSecret();
    const body = '{"hello":"world"}';
    const headers = webhookHeaders(secret, 'msg_1', body);
    expect(() => new Webhook(secret).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(secret).verify(body + ' ', headers)).toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
  });

  it('signs with both secrets during a rotation overlap: either one verifies, a third does not', () => {
    const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const body = '{"hello":"world"}';
    const headers = webhookHeaders(current, 'msg_1', body, Date.now(), previous);
    const signatures = headers['webhook-signature']!.split(' ');
    expect(signatures).toHaveLength(2);
    expect(signatures[0]).toBe(
      signWebhook(current, 'msg_1', Number(headers['webhook-timestamp']), body),
    );
    expect(() => new Webhook(current).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(previous).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
    // Without an overlap (or the same secret twice), one signature.
    expect(webhookHeaders(current, 'msg_1', body)['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(
      webhookHeaders(current, 'msg_1', body, Date.now(), current)['webhook-signature']!.split(' '),
    ).toHaveLength(1);
  });

  it('matches the specification example', () => {
    // From the Standard Webhooks specification's reference tests.
    const sig = signWebhook(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(sig).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
});

describe('JSON with exact chain integers', () => {
  it('writes bigints as exact JSON numbers, and nothing else changes', () => {
    const text = stringifyWithBigInts({
      value: 10n ** 30n,
      neg: -5n,
      s: '__bigint_x_1',
      n: 1.5,
      nested: [2n ** 255n],
    });
    expect(text).toBe(
      `{"value":${10n ** 30n},"neg":-5,"s":"__bigint_x_1","n":1.5,"nested":[${2n ** 255n}]}`,
    );
  });

  it('writes everything else as JSON.stringify does', () => {
    const values: unknown[] = [
      {
        a: 1,
        b: 'x"y\u2028\n',
        c: [1, undefined, () => 1, null, NaN, -0, Infinity],
        d: undefined,
        e: () => 1,
        f: { g: true, h: false },
      },
      {
        date: new Date(0),
        nested: { toJSON: () => ({ replaced: [1e21, 1e-7] }) },
        empty: {},
        list: [],
      },
      [{ '': 0, ключ: 'значение', '\u0001': '\u0001' }],
      'text',
      12.5,
      null,
      true,
      Object.assign(Object.create({ inherited: 1 }), { own: 2 }),
    ];
    for (const value of values) expect(stringifyWithBigInts(value)).toBe(JSON.stringify(value));
  });

  it('formats units as the spec floats', () => {
    expect(formatUnits(1_500_000_000_000_000_000n, 18)).toBe(1.5);
    expect(formatUnits(1_234_567n, 6)).toBe(1.234567);
    expect(formatUnits(5n, 0)).toBe(5);
    expect(formatUnits(1n, 18)).toBe(1e-18);
  });
});
