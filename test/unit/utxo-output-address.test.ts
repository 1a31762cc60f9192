import { describe, expect, it } from 'vitest';
import { parseOutput } from '../../src/chains/utxo/block.js';

/**
 * The address an output pays, as nodes before and after Bitcoin Core 22 write its script:
 * older ones list `addresses` (the key's P2PKH address for a bare multisig of one key and for a
 * pay-to-pubkey output, which no output of that address pays; found by an outside probe on
 * litecoind 0.21), newer ones one `address`, none for those two.
 */
describe('parseOutput: the address an output pays', () => {
  const out = (scriptPubKey: Record<string, unknown>) =>
    parseOutput({ n: 0, value: 0.5, scriptPubKey: { hex: '00', ...scriptPubKey } } as never, 8);
  const P2PKH = 'mpXwg4jMtRhuSpVq4xS3HFHmCmWp9NyGKt';

  it('takes the one address a node names for a script that pays it', () => {
    expect(out({ type: 'pubkeyhash', addresses: [P2PKH], reqSigs: 1 }).address).toBe(P2PKH);
    expect(out({ type: 'pubkeyhash', address: P2PKH }).address).toBe(P2PKH);
    expect(
      out({ type: 'witness_v0_keyhash', address: 'rltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9' })
        .address,
    ).toBe('rltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9');
  });

  it('gives none for a bare multisig or a pay-to-pubkey output, even where an old node names the key', () => {
    expect(out({ type: 'multisig', addresses: [P2PKH], reqSigs: 1 }).address).toBeNull();
    expect(out({ type: 'pubkey', addresses: [P2PKH], reqSigs: 1 }).address).toBeNull();
    expect(out({ type: 'multisig', addresses: [P2PKH, P2PKH], reqSigs: 1 }).address).toBeNull();
    expect(out({ type: 'nulldata' }).address).toBeNull();
  });
});
