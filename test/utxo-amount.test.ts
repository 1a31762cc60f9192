import { describe, expect, it } from 'vitest';
import { toSmallestUnit } from '../src/chains/utxo/amount.js';
import { normalizeUtxoAddress } from '../src/chains/utxo/address.js';
import { parseRpcUrl } from '../src/chains/utxo/client.js';

describe('toSmallestUnit', () => {
  it('converts the node decimal text exactly', () => {
    expect(toSmallestUnit(1.23456789)).toBe(123456789n);
    expect(toSmallestUnit(0.1)).toBe(10000000n);
    expect(toSmallestUnit(0.3)).toBe(30000000n); // 0.3 * 1e8 is 29999999.999999996 as a float
    expect(toSmallestUnit(1e-8)).toBe(1n); // String(1e-8) is "1e-8"
    expect(toSmallestUnit(0)).toBe(0n);
    expect(toSmallestUnit(50.0000144)).toBe(5000001440n);
    expect(toSmallestUnit(20999999.9769)).toBe(2099999997690000n);
    expect(toSmallestUnit(-0.00012345)).toBe(-12345n);
  });

  it('takes long amounts as the text json-bigint keeps them (beyond 2^53 units)', () => {
    // A Dogecoin-sized amount: 123456789012.12345678 DOGE does not fit a double exactly.
    expect(toSmallestUnit('123456789012.12345678')).toBe(12345678901212345678n);
    expect(toSmallestUnit('92233720368.54775807')).toBe(9223372036854775807n);
    expect(toSmallestUnit('1.5E+3')).toBe(150000000000n);
  });

  it('refuses what is not an amount of the unit', () => {
    expect(() => toSmallestUnit('0.000000001')).toThrow(/more than 8 decimals/);
    expect(() => toSmallestUnit('abc')).toThrow(/not a decimal amount/);
    expect(() => toSmallestUnit(Number.NaN)).toThrow();
    expect(toSmallestUnit('1.100000000')).toBe(110000000n); // trailing zeros beyond 8 are fine
    expect(toSmallestUnit('12.5', 2)).toBe(1250n);
  });
});

describe('Bitcoin-family addresses and RPC URLs', () => {
  it('stores bech32 lower-case and base58 as it is', () => {
    expect(normalizeUtxoAddress('RLTC1QEJ3Z42GDXJN34NNT0Y0KAWKLQV99SWV09SGMW8')).toBe(
      'rltc1qej3z42gdxjn34nnt0y0kawklqv99swv09sgmw8',
    );
    expect(normalizeUtxoAddress('BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ')).toBe(
      'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    );
    expect(normalizeUtxoAddress('myNNgTYbKx3iME4jsVkhTerBmpebfCp94G')).toBe(
      'myNNgTYbKx3iME4jsVkhTerBmpebfCp94G',
    );
    expect(normalizeUtxoAddress('LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9')).toBe(
      'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9',
    );
  });

  it('parses http://user:password@host:port, decoding the credentials', () => {
    expect(parseRpcUrl('http://rpc%40user:p%3Ass@127.0.0.1:9332')).toEqual({
      host: 'http://127.0.0.1:9332',
      username: 'rpc@user',
      password: 'p:ss',
    });
    expect(parseRpcUrl('https://node.internal:443')).toEqual({
      host: 'https://node.internal',
      username: undefined,
      password: undefined,
    });
    // A provider's key in the path stays in the path.
    expect(parseRpcUrl('https://ltc.provider.example/k3y123/?x=1').host).toBe(
      'https://ltc.provider.example/k3y123/?x=1',
    );
    expect(() => parseRpcUrl('ws://127.0.0.1:9332')).toThrow(/TOLLGATE_RPC_/);
  });
});
