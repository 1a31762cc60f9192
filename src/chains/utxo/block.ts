import { normalizeUtxoAddress } from './address.js';
import { toSmallestUnit } from './amount.js';
import type { RawBlock, RawScriptPubKey, RawTransaction, RawVout } from './client.js';

/**
 * A Bitcoin-family block as the indexer stores it: amounts as bigint in the smallest unit,
 * addresses normalised, scripts as hex. MWEB parts of Litecoin transactions (entries flagged
 * `ismweb`) carry no transparent script or address and are left out.
 */

export interface UtxoOutput {
  vout: number;
  value: bigint;
  script: string;
  /** The one address the script pays, or null (OP_RETURN, bare multisig, non-standard). */
  address: string | null;
  type: string;
  reqSigs: number | null;
}

export interface UtxoInput {
  vin: number;
  /** Null for a coinbase input. */
  prevTxid: string | null;
  prevVout: number | null;
  sequence: number;
  /** scriptSig hex; for a coinbase input, the coinbase data. */
  script: string;
  coinbase: boolean;
  /**
   * Height of the block holding the coin this input spends, when the node said so (getblock
   * verbosity 3); null otherwise.
   */
  prevHeight: bigint | null;
}

export interface UtxoTransaction {
  txid: string;
  index: number;
  version: number;
  size: number;
  vsize: number;
  weight: number;
  locktime: number;
  hex: string;
  inputs: UtxoInput[];
  outputs: UtxoOutput[];
}

export interface UtxoBlock {
  height: bigint;
  hash: string;
  /** '' for the genesis block. */
  prevHash: string;
  time: bigint;
  transactions: UtxoTransaction[];
}

/** A map key for an output: `txid:vout`. */
export const outpointKey = (txid: string, vout: number) => `${txid}:${vout}`;

function addressOf(spk: RawScriptPubKey): string | null {
  // Nodes before v22 list `addresses` (with reqSigs); later ones give one `address`. Before v22
  // a bare multisig of one key, and a pay-to-pubkey output, listed the key's P2PKH address,
  // which no output pays (found by an outside probe on litecoind 0.21): none, as v22 says.
  if (spk.type === 'multisig' || spk.type === 'pubkey') return null;
  const a = spk.address ?? (spk.addresses?.length === 1 ? spk.addresses[0] : undefined);
  return a ? normalizeUtxoAddress(a) : null;
}

export function parseOutput(v: RawVout, decimals: number): UtxoOutput {
  return {
    vout: v.n,
    value: toSmallestUnit(v.value, decimals),
    script: v.scriptPubKey.hex,
    address: addressOf(v.scriptPubKey),
    type: v.scriptPubKey.type,
    reqSigs: v.scriptPubKey.reqSigs ?? null,
  };
}

export function parseTransaction(
  t: RawTransaction,
  index: number,
  decimals: number,
): UtxoTransaction {
  const inputs: UtxoInput[] = [];
  t.vin.forEach((v, vin) => {
    if (v.ismweb) return;
    const coinbase = v.coinbase !== undefined;
    inputs.push({
      vin,
      prevTxid: coinbase ? null : v.txid!,
      prevVout: coinbase ? null : v.vout!,
      sequence: v.sequence,
      script: coinbase ? v.coinbase! : (v.scriptSig?.hex ?? ''),
      coinbase,
      prevHeight: !coinbase && v.prevout ? BigInt(v.prevout.height) : null,
    });
  });
  return {
    txid: t.txid,
    index,
    version: t.version,
    size: t.size,
    // Nodes without segwit (Dogecoin) report neither; their transactions weigh 4 per byte.
    vsize: t.vsize ?? t.size,
    weight: t.weight ?? t.size * 4,
    locktime: t.locktime,
    hex: t.hex,
    inputs,
    outputs: t.vout.filter((v) => !v.ismweb).map((v) => parseOutput(v, decimals)),
  };
}

export function parseBlock(b: RawBlock, decimals: number): UtxoBlock {
  return {
    height: BigInt(b.height),
    hash: b.hash,
    prevHash: b.previousblockhash ?? '',
    time: BigInt(b.time),
    transactions: b.tx.map((t, i) => parseTransaction(t, i, decimals)),
  };
}
