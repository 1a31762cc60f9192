import { describe, expect, it } from 'vitest';
import { anotherNetworksMainnet } from '../../src/config/networks.js';

describe("a node that is another network's mainnet", () => {
  it('is told by its EVM chain id', () => {
    expect(anotherNetworksMainnet('polygon', { chainId: 1 })?.symbol).toBe('eth');
    expect(anotherNetworksMainnet('eth', { chainId: 137 })?.symbol).toBe('polygon');
    // Its own mainnet, a testnet (Sepolia), a dev chain: no other network's.
    for (const chainId of [1, 11155111, 31337])
      expect(anotherNetworksMainnet('eth', { chainId }), String(chainId)).toBeUndefined();
  });

  it("is told by block 0's hash on the Bitcoin family, in either letter case", () => {
    const bitcoin = '000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f';
    expect(anotherNetworksMainnet('litecoin', { genesisHash: bitcoin })?.symbol).toBe('bitcoin');
    expect(
      anotherNetworksMainnet('bitcoin', {
        genesisHash: '12A765E31FFD4059BADA1E25190F6E98C99D9714D334EFA41A195A7E7E04BFE2',
      })?.symbol,
    ).toBe('litecoin');
    expect(anotherNetworksMainnet('bitcoin', { genesisHash: bitcoin })).toBeUndefined();
    // A regtest or testnet chain, or a node that gave no hash.
    expect(anotherNetworksMainnet('litecoin', { genesisHash: 'ab'.repeat(32) })).toBeUndefined();
    expect(anotherNetworksMainnet('litecoin', { genesisHash: null })).toBeUndefined();
  });
});
