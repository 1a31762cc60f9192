import { describe, expect, it } from 'vitest';
import {
  decodeTravelAddress,
  encodeTravelAddress,
} from '../../src/travelrule/trp/travel-address.js';

const url = (value: string) => {
  const r = decodeTravelAddress(value);
  if (!r.ok) throw new Error(r.reason);
  return r.url.href;
};

describe('Travel Addresses', () => {
  it('reads the ta… form of TRP 3.1 (vectors of TRISA’s traddr package)', () => {
    expect(url('ta2W2HPKfHxgSgrzY178knqXHg1H3jfeQrwQ9JrKBs9wv')).toBe(
      'https://beneficiary.com/x/12345?t=i',
    );
    expect(url('ta3dgYSWEoAJPfU2Wdr2hvQmXem4dHbfKuBvkbKGfBrzdb61C')).toBe(
      'https://trisa.beneficiary.com:4443/?t=i',
    );
    expect(
      url(
        'ta2SRCMhxtdtKVfoV2MTziaN7F9WD7WKyGvynQa7w3as7ziTr583ZRU1DeKarHjFrLSxuQAZLciZMqry4Yk797qKErWYnCmj8sLaH',
      ),
    ).toBe('https://api.testing.21analytics.xyz/transfers/01H11RHY53MBMEQB1VJ4KJF39Z?t=i');
  });

  it('writes the ta… form so that it reads back', () => {
    const ta = encodeTravelAddress('https://tollgate.example.com/trp/v3/inquiries/abc');
    expect(ta).toMatch(/^ta[1-9A-HJ-NP-Za-km-z]+$/);
    expect(url(ta)).toBe('https://tollgate.example.com/trp/v3/inquiries/abc?t=i');
    expect(encodeTravelAddress('https://beneficiary.com/x/12345?t=i')).toBe(
      'ta2W2HPKfHxgSgrzY178knqXHg1H3jfeQrwQ9JrKBs9wv',
    );
  });

  it('reads the LNURL form in either letter case, and plain URLs', () => {
    expect(
      url('LNURL1DP68GURN8GHJ7MMSV4H8VCTNWQH8GETNWSKKUET59E5K7TE3XGEN7ARPVU7KJMN3W45HY7GF5KZ53'),
    ).toBe('https://openvasp.test-net.io/123?tag=inquiry&t=i');
    expect(
      url(
        'lnurl1dp68gurn8ghj7cn9dejkv6trd9shy7fwvdhk6tm5wfcr7arpvu7hgunpwejkcun4d3jkjmn3w45hy7gmsy37e',
      ),
    ).toBe('https://beneficiary.com/trp?tag=travelruleinquiry&t=i');
    expect(url('https://peer.example/trp/v3/inquiries/x')).toBe(
      'https://peer.example/trp/v3/inquiries/x',
    );
  });

  it('refuses what is none, saying why', () => {
    const reason = (v: string) => {
      const r = decodeTravelAddress(v);
      return r.ok ? 'ok' : r.reason;
    };
    expect(reason('ta3MNQE1Y')).toMatch(/checksum|too short/);
    expect(reason('ta123412')).toMatch(/not a valid Travel Address/);
    expect(reason('ta0OIl')).toMatch(/base58/);
    expect(reason('lnurl1notbech32')).toMatch(/LNURL/);
    expect(
      reason('LNURL1dp68gurn8ghj7mmsv4h8vctnwqh8getnwskkuet59e5k7te3xgen7arpvu7kjmn3w45hy7gf5kz53'),
    ).toMatch(/all lower or all upper case/);
    expect(reason('')).toMatch(/Travel Address/);
    expect(reason('not a url')).toMatch(/Travel Address/);
    expect(reason('https://vasp.example:0/trp')).toBe('port 0 is not a port to connect to');
    expect(reason(encodeTravelAddress('https://vasp.example:0/trp'))).toBe(
      'port 0 is not a port to connect to',
    );
  });
});
