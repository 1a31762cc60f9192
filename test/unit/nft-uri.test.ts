import { describe, expect, it } from 'vitest';
import {
  browserUrl,
  DataUriError,
  decodeDataUri,
  gatewayBase,
  ipfsToGateway,
  metadataSource,
  substituteErc1155Id,
} from '../../src/wallet/nft-uri.js';

const GW = 'https://ipfs.io/ipfs/';

describe('ERC-1155 {id}', () => {
  it('substitutes every {id} with 64 lower-case hex digits', () => {
    expect(substituteErc1155Id('https://x.test/{id}.json', 7n)).toBe(
      `https://x.test/${'0'.repeat(63)}7.json`,
    );
    expect(substituteErc1155Id('https://x.test/{id}/{id}', 0xabcn)).toBe(
      `https://x.test/${'0'.repeat(61)}abc/${'0'.repeat(61)}abc`,
    );
    expect(substituteErc1155Id('https://x.test/fixed.json', 1n)).toBe('https://x.test/fixed.json');
    expect(substituteErc1155Id('{id}', 2n ** 256n - 1n)).toBe('f'.repeat(64));
  });
});

describe('ipfs://', () => {
  it('goes through the gateway, with or without its trailing slash', () => {
    expect(ipfsToGateway('ipfs://QmHash/1.json', GW)).toBe('https://ipfs.io/ipfs/QmHash/1.json');
    expect(ipfsToGateway('ipfs://QmHash', 'http://10.0.0.5:8080/ipfs')).toBe(
      'http://10.0.0.5:8080/ipfs/QmHash',
    );
    expect(ipfsToGateway('ipfs://ipfs/QmHash/a b.png', GW)).toBe(
      'https://ipfs.io/ipfs/QmHash/a%20b.png',
    );
    expect(gatewayBase('https://gw.test/ipfs')).toBe('https://gw.test/ipfs/');
  });

  it('refuses what would leave the gateway path, and what is not ipfs://', () => {
    expect(ipfsToGateway('ipfs://../admin', GW)).toBeNull();
    expect(ipfsToGateway('ipfs://', GW)).toBeNull();
    expect(ipfsToGateway('https://x.test/a', GW)).toBeNull();
  });
});

describe('browserUrl (media gateway)', () => {
  it.each([
    ['https://img.test/1.png', 'https://img.test/1.png'],
    ['http://img.test/1.png', 'http://img.test/1.png'],
    ['ipfs://QmImg/1.png', 'https://ipfs.io/ipfs/QmImg/1.png'],
    ['data:image/svg+xml;base64,PHN2Zy8+', 'data:image/svg+xml;base64,PHN2Zy8+'],
    ['ar://abc', ''],
    ['javascript:alert(1)', ''],
    ['not a uri', ''],
    ['', ''],
  ])('%s → %s', (uri, url) => {
    expect(browserUrl(uri, GW)).toBe(url);
  });
});

describe('data: URIs', () => {
  const doc = { name: 'Café %', n: 1 };
  it('decodes base64, percent-encoded and raw JSON', () => {
    expect(
      JSON.parse(
        decodeDataUri(
          `data:application/json;base64,${Buffer.from(JSON.stringify(doc)).toString('base64')}`,
          1024,
        ),
      ),
    ).toEqual(doc);
    expect(
      JSON.parse(
        decodeDataUri(`data:application/json,${encodeURIComponent(JSON.stringify(doc))}`, 1024),
      ),
    ).toEqual(doc);
    // Common on-chain form: raw JSON with a stray %, which is not valid percent-encoding.
    expect(
      JSON.parse(decodeDataUri(`data:application/json;utf8,${JSON.stringify(doc)}`, 1024)),
    ).toEqual(doc);
    expect(decodeDataUri('DATA:text/plain;charset=utf-8;BASE64,aGk=', 1024)).toBe('hi');
  });

  it('refuses what is too large or malformed', () => {
    const big = Buffer.alloc(2000, 'a').toString('base64');
    expect(() => decodeDataUri(`data:application/json;base64,${big}`, 1000)).toThrow(DataUriError);
    expect(() => decodeDataUri(`data:application/json,${'a'.repeat(5000)}`, 1000)).toThrow(
      /larger than 1000 bytes/,
    );
    expect(() => decodeDataUri('data:application/json', 1000)).toThrow(/without a comma/);
    expect(() => decodeDataUri('https://x.test', 1000)).toThrow(DataUriError);
  });
});

describe('metadataSource', () => {
  it('says where the metadata comes from', () => {
    expect(metadataSource('data:application/json,{}', GW)).toEqual({
      kind: 'data',
      uri: 'data:application/json,{}',
    });
    expect(metadataSource('ipfs://QmX/1', GW)).toEqual({
      kind: 'http',
      url: 'https://ipfs.io/ipfs/QmX/1',
    });
    expect(metadataSource('https://meta.test/1', GW)).toEqual({
      kind: 'http',
      url: 'https://meta.test/1',
    });
    expect(metadataSource('ipfs://../x', GW)).toMatchObject({ kind: 'unsupported' });
    expect(metadataSource('ar://abc', GW)).toEqual({
      kind: 'unsupported',
      reason: 'unsupported URI scheme ar',
    });
    expect(metadataSource('file:///etc/passwd', GW)).toMatchObject({ kind: 'unsupported' });
    expect(metadataSource('plain words', GW)).toEqual({
      kind: 'unsupported',
      reason: 'token URI is not a URI',
    });
  });
});
