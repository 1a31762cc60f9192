import { describe, expect, it } from 'vitest';
import { MetadataFormatError, normalizeMetadata } from '../../src/wallet/nft-metadata.js';
import { NftItem, toNftItem, type Holding } from '../../src/wallet/nft-item.js';

const GW = 'https://gw.test/ipfs/';

describe('normalizeMetadata', () => {
  it('keeps the spec fields, attribute values as strings', () => {
    const m = normalizeMetadata(
      JSON.stringify({
        name: 'Ape #1',
        description: 'An ape',
        image: 'ipfs://QmImg/1.png',
        external_url: 'https://apes.test/1',
        animation_url: 'ipfs://QmAnim/1.mp4',
        extra: 'dropped',
        attributes: [
          { trait_type: 'Level', value: 5 },
          { trait_type: 'Hat', value: 'cap', display_type: 'x' },
          { value: true },
          'junk',
          { trait_type: 'Obj', value: { a: 1 } },
        ],
      }),
    );
    expect(m).toEqual({
      name: 'Ape #1',
      description: 'An ape',
      image: 'ipfs://QmImg/1.png',
      external_url: 'https://apes.test/1',
      animation_url: 'ipfs://QmAnim/1.mp4',
      attributes: [
        { trait_type: 'Level', value: '5' },
        { trait_type: 'Hat', value: 'cap' },
        { trait_type: '', value: 'true' },
        { trait_type: 'Obj', value: '{"a":1}' },
      ],
    });
  });

  it('keeps properties, and gives attributes [] when there is neither', () => {
    expect(normalizeMetadata('{"name":"x","properties":{"rarity":"rare"}}')).toEqual({
      name: 'x',
      image: '',
      description: '',
      properties: { rarity: 'rare' },
    });
    expect(normalizeMetadata('{"name":"x","properties":[1]}')).toEqual({
      name: 'x',
      image: '',
      description: '',
      attributes: [],
    });
    expect(normalizeMetadata('{}')).toEqual({
      name: '',
      image: '',
      description: '',
      attributes: [],
    });
  });

  it('finds the image in image_url or image_data, and types stay strings', () => {
    expect(normalizeMetadata('{"image_url":"https://i.test/1.png"}').image).toBe(
      'https://i.test/1.png',
    );
    const svg = normalizeMetadata(
      '{"image_data":"<svg xmlns=\'http://www.w3.org/2000/svg\'/>"}',
    ).image;
    expect(svg).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(svg.split(',')[1]!, 'base64').toString()).toContain('<svg');
    expect(normalizeMetadata('{"name":42,"description":null,"image":{"x":1}}')).toMatchObject({
      name: '42',
      description: '',
      image: '',
    });
  });

  it('removes U+0000 (jsonb refuses it) and caps nesting', () => {
    const m = normalizeMetadata(
      JSON.stringify({
        name: 'a\u0000b',
        properties: { 'k\u0000': 'v\u0000', deep: JSON.parse('['.repeat(40) + ']'.repeat(40)) },
      }),
    );
    expect(m.name).toBe('ab');
    expect(m.properties!.k).toBe('v');
    expect(JSON.stringify(m)).not.toContain('\\u0000');
    expect(JSON.stringify(m.properties!.deep).length).toBeLessThan(60);
  });

  it('replaces half a surrogate pair (jsonb refuses it; such a token stayed pending for ever), keeps whole pairs', () => {
    const m = normalizeMetadata(
      '{"name":"sur\\ud800rogate","description":"\\udc00x\\ud83d\\ude00","attributes":[{"trait_type":"t\\ud800","value":"v"}]}',
    );
    expect(m.name).toBe('sur\uFFFDrogate');
    expect(m.description).toBe('\uFFFDx\u{1F600}');
    expect(JSON.stringify(m)).not.toMatch(/\\ud[89ab]/i);
  });

  it('takes a __proto__ key as a key, not as the prototype of the document', () => {
    const m = normalizeMetadata('{"__proto__":{"name":"polluted"},"description":"d"}');
    expect(m.name).toBe('');
    expect(m.description).toBe('d');
    expect(({} as { name?: string }).name).toBeUndefined();
  });

  it('refuses what is not a JSON object', () => {
    for (const text of ['not json', '[1,2]', '"a string"', 'null', ''])
      expect(() => normalizeMetadata(text)).toThrow(MetadataFormatError);
    expect(normalizeMetadata('\uFEFF{"name":"bom"}').name).toBe('bom');
  });
});

describe('toNftItem', () => {
  const base: Holding = {
    network: 'polygon',
    chain_id: '137',
    token: '0xabc0000000000000000000000000000000000001',
    token_id: '115792089237316195423570985008687907853269984665640564039457584007913129639935',
    standard: 'ERC1155',
    amount: '1152921504606846977',
    contract_name: null,
    contract_symbol: null,
    metadata: null,
    metadata_status: 'pending',
    fetch_due: true,
  };

  it('lists a token without metadata with stable types: empty strings, no media', () => {
    const item = toNftItem(base, GW);
    expect(item).toEqual({
      name: '',
      image: '',
      media: [],
      chainId: 137,
      network: 'matic',
      metadata: { name: '', image: '', description: '', attributes: [] },
      token_id: base.token_id,
      token_type: 'ERC1155',
      description: '',
      contract_name: '',
      contract_symbol: '',
      contract_address: base.token,
      amount: '1152921504606846977',
      metadata_status: 'pending',
    });
    expect(NftItem.parse(item)).toEqual(item);
  });

  it('fills the item from the metadata, with the gateway URL of the image', () => {
    const metadata = normalizeMetadata(
      '{"name":"One","description":"d","image":"ipfs://QmImg/1.png","attributes":[]}',
    );
    const item = toNftItem(
      {
        ...base,
        network: 'eth',
        chain_id: '1',
        standard: 'ERC721',
        token_id: '1',
        contract_name: 'Apes',
        contract_symbol: 'APE',
        metadata,
      },
      GW,
    );
    expect(item).toMatchObject({
      name: 'One',
      description: 'd',
      image: 'ipfs://QmImg/1.png',
      network: 'eth',
      chainId: 1,
      token_type: 'ERC721',
      media: [{ raw: 'ipfs://QmImg/1.png', gateway: 'https://gw.test/ipfs/QmImg/1.png' }],
      contract_name: 'Apes',
      contract_symbol: 'APE',
    });
    expect(NftItem.parse(item)).toEqual(item);
  });
});
