import { NETWORK_SYMBOLS, networkInfo, type NetworkFamily } from '../../config/networks.js';
import { validateAlgorand } from './algorand.js';
import { validateAptos } from './aptos.js';
import { validateCardano } from './cardano.js';
import { validateCosmos } from './cosmos.js';
import { validateEos } from './eos.js';
import { validateEvm } from './evm.js';
import { validatePolkadot } from './polkadot.js';
import { refuse, type AddressResult, type FamilyValidator } from './result.js';
import { validateSolana } from './solana.js';
import { stellarAccountOf, validateStellar } from './stellar.js';
import { validateSui } from './sui.js';
import { validateTezos } from './tezos.js';
import { validateTon } from './ton.js';
import { validateTron } from './tron.js';
import { otherSpellings, validateUtxo } from './utxo.js';
import { validateVechain } from './vechain.js';
import { validateXrp, xrpAccountOf } from './xrp.js';

export type { AddressResult } from './result.js';

/** Longer than any address of any family (Byron addresses with a derivation path run to ~130). */
const MAX_ADDRESS_CHARS = 256;

/**
 * One validator per family, in inference precedence order: when a bare address is valid in
 * several families, the first listed here gives `inferFamily` its family and stored form.
 */
const VALIDATORS: Readonly<Record<NetworkFamily, FamilyValidator>> = {
  evm: validateEvm,
  vechain: validateVechain,
  utxo: validateUtxo,
  tron: validateTron,
  xrp: validateXrp,
  solana: validateSolana,
  cardano: validateCardano,
  stellar: validateStellar,
  sui: validateSui,
  aptos: validateAptos,
  ton: validateTon,
  polkadot: validatePolkadot,
  algorand: validateAlgorand,
  cosmos: validateCosmos,
  tezos: validateTezos,
  eos: validateEos,
};

const PRECEDENCE = Object.keys(VALIDATORS) as NetworkFamily[];

/**
 * Why `input` is no address of any network whatever its format (missing, too long, holding
 * whitespace), or undefined.
 */
export function formRefusal(input: string): string | undefined {
  if (typeof input !== 'string' || input.length === 0) return 'address is missing';
  if (input.length > MAX_ADDRESS_CHARS) return 'address is too long';
  if (/\s/.test(input)) return 'address contains whitespace';
  return undefined;
}

/**
 * The address of `network` in its stored form, or why it is not one. Input is taken exactly as
 * sent: surrounding or inner whitespace is refused, not trimmed. Each family's rules are in its
 * own file (evm.ts, utxo.ts, …).
 */
export function validateAddress(network: string, input: string): AddressResult {
  const info = networkInfo(network);
  if (!info) return refuse(`unknown network ${JSON.stringify(network)}`);
  const unfit = formRefusal(input);
  if (unfit) return refuse(unfit);
  // The table is read from JSON at start-up, so a family may lack a validator at run time.
  const validate = VALIDATORS[info.family] as FamilyValidator | undefined;
  return validate
    ? validate(input, network)
    : refuse(`no address rules for the ${info.family} family`);
}

/**
 * The addresses whose labels are an address's (a stored form): itself; for a Stellar muxed
 * account or an XRP X-address the account it belongs to (stellarAccountOf, xrpAccountOf); for a
 * Litecoin P2SH address its legacy spelling, as a label imported before those were stored respelt
 * has it (otherSpellings).
 */
export function labelSubjects(network: string, address: string): string[] {
  const family = networkInfo(network)?.family;
  const account =
    family === 'stellar'
      ? stellarAccountOf(address)
      : family === 'xrp'
        ? xrpAccountOf(address)
        : undefined;
  if (account) return [address, account];
  return family === 'utxo' ? [address, ...otherSpellings(network, address)] : [address];
}

export interface InferredFamily {
  family: NetworkFamily;
  address: string;
  /** The address is a test network's form where the first family accepts it. */
  testnet: boolean;
  /** Every network symbol whose rules accept the address, in precedence order. */
  networks: string[];
}

/**
 * The family of a bare address (an address sent without a network, as in stream/create).
 * Every network's validator is asked; `networks` lists all that accept, so an address valid in
 * two families is never silently given to one: the caller sees every candidate. `family` and
 * `address` come from the first accepting family in the VALIDATORS order (EVM before VeChain,
 * Sui before Aptos, EOS names last since almost any short lower-case word is one). Known overlaps:
 * - `0x` + 40 hex: family evm, networks the six EVM symbols and `vet` (the same key has the
 *   same address on VeChain; listing it keeps the overlap visible, callers stream only what they index);
 * - `0x` + 64 hex: family sui, networks [sui, apt];
 * - `3…` legacy P2SH: bitcoin and litecoin; `m…`/`n…`/`2…` test addresses: bitcoin, litecoin, doge.
 * The short special addresses `0x0`–`0xf` are framework accounts on both Move chains and get
 * null: name the network to use them. Null also when no family accepts the input.
 */
export function inferFamily(input: string): InferredFamily | null {
  if (/^0x[0-9a-fA-F]$/.test(input)) return null;
  const accepted: { network: string; family: NetworkFamily; address: string; testnet: boolean }[] =
    [];
  for (const family of PRECEDENCE) {
    for (const network of NETWORK_SYMBOLS.filter(
      (symbol) => networkInfo(symbol)?.family === family,
    )) {
      const result = validateAddress(network, input);
      if (result.ok)
        accepted.push({ network, family, address: result.address, testnet: !!result.testnet });
    }
  }
  const first = accepted[0];
  if (!first) return null;
  return {
    family: first.family,
    address: first.address,
    testnet: first.testnet,
    networks: accepted.map((hit) => hit.network),
  };
}
