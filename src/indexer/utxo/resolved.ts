import type { UtxoBlock, UtxoInput, UtxoOutput, UtxoTransaction } from '../../chains/utxo/block.js';

/** A block whose inputs know the coins they spend (prevouts.ts resolves them, store.ts stores them). */

export interface Coin extends Omit<UtxoOutput, 'vout'> {
  /** Height of the block that holds the transaction that created the coin. */
  height: bigint;
  version: number;
  coinbase: boolean;
}
export interface ResolvedInput extends UtxoInput {
  coin: Coin | null;
}
export interface ResolvedTransaction extends Omit<UtxoTransaction, 'inputs'> {
  inputs: ResolvedInput[];
  fee: bigint;
}
export interface ResolvedBlock extends Omit<UtxoBlock, 'transactions'> {
  transactions: ResolvedTransaction[];
}
