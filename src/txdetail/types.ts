/** The transaction detail before its AML data: what tx-evm.ts and tx-utxo.ts read. */

export interface TxTransfer {
  from: string;
  to: string;
  /** Token units as a float (ERC-20: value / 10^decimals; ERC-721: 1; ERC-1155 and tokens without decimals: the raw amount). */
  value: number;
  token_name: string;
  token_symbol: string;
}

export interface TxCore {
  from: string;
  to: string;
  status: 'Success' | 'Failed';
  /** Block time, Unix seconds. */
  timestamp: number;
  network: string;
  hash: string;
  /** Native value in the network's unit (ETH, LTC, …) as a float; the exact integer is on chain. */
  value: number;
  transfers: TxTransfer[];
  /** Every address that takes part (in order of appearance), for the transaction's AML data. */
  parties: string[];
}

/** The zero address mints and burns: never a party. */
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

export function uniqueParties(addresses: readonly (string | null | undefined)[]): string[] {
  return [...new Set(addresses.filter((a): a is string => !!a && a !== ZERO_ADDRESS))];
}
