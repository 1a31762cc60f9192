/**
 * What every address validator answers: the address in its stored (normalised) form, or a
 * short reason fit for an API error message. Reasons never repeat the input itself.
 */
export type AddressResult =
  | {
      ok: true;
      address: string;
      /** A test network's form (a testnet, signet or regtest address): never on the mainnet. */
      testnet?: boolean;
    }
  | { ok: false; reason: string };

/** A validator of one address family; `network` is the symbol, for families whose rules differ per network. */
export type FamilyValidator = (input: string, network: string) => AddressResult;

export function accept(address: string, testnet = false): AddressResult {
  return testnet ? { ok: true, address, testnet } : { ok: true, address };
}

export function refuse(reason: string): AddressResult {
  return { ok: false, reason };
}
