import { describe, expect, it } from 'vitest';
import { sameAddress } from '../../src/travelrule/status-view.js';

/**
 * beneficiary_address_differs compares the approved address with the accounts create_tx named:
 * without case on EVM networks (hex, the case only a checksum), exactly on the others.
 */
describe('sameAddress', () => {
  const evm = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

  it('ignores case on EVM networks', () => {
    for (const network of ['eth', 'bsc', 'polygon', 'arb']) {
      expect(sameAddress(network, evm, evm.toLowerCase())).toBe(true);
      expect(sameAddress(network, evm.toUpperCase().replace('0X', '0x'), evm)).toBe(true);
      expect(sameAddress(network, evm, '0x' + '66'.repeat(20))).toBe(false);
    }
  });

  it('compares exactly elsewhere, where case is part of the address', () => {
    const solana = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
    expect(sameAddress('solana', solana, solana)).toBe(true);
    expect(sameAddress('solana', solana, solana.toLowerCase())).toBe(false);
    expect(sameAddress(null, 'abc', 'ABC')).toBe(false);
  });
});
