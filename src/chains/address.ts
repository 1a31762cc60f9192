import { networkInfo } from '../config/networks.js';
import { formRefusal, inferFamily, validateAddress } from './address/index.js';
import { MWEB_REFUSED, mwebAddress, utxoNetworkOfBech32Prefix } from './address/utxo.js';

export { utxoAddressFitsChain } from './address/utxo.js';

/**
 * Addresses at the API's edge. Validation of every network's format lives in ./address/;
 * these are the two questions the stream and wallet routes ask of it.
 */

export type StreamFamily = 'evm' | 'utxo';

export type StreamAddress =
  | {
      ok: true;
      address: string;
      family: StreamFamily;
      /** The networks (of the family) whose rules accept it. */
      networks: string[];
      /** A test network's form (testnet, signet, regtest). */
      testnet: boolean;
    }
  | { ok: false; reason: string };

/**
 * The stored form and family of an address a stream (or live AML tracking) may watch: EVM (every
 * indexed EVM network) or Bitcoin-family. An address of another network is refused with a reason
 * that says so; `covers` names what refuses it ("streams cover", "live AML tracking covers").
 */
export function normalizeStreamAddress(input: string, covers = 'streams cover'): StreamAddress {
  const unfit = formRefusal(input);
  if (unfit) return { ok: false, reason: `Invalid Address: ${unfit}.` };
  const inferred = inferFamily(input);
  if (inferred?.family === 'evm' || inferred?.family === 'utxo')
    return {
      ok: true,
      address: inferred.address,
      family: inferred.family,
      networks: inferred.networks.filter((n) => networkInfo(n)?.family === inferred.family),
      testnet: inferred.testnet,
    };
  if (mwebAddress(input)) return { ok: false, reason: `Invalid Address: ${MWEB_REFUSED}.` };
  // `ltc1qabc` is a malformed Litecoin address, although `ltc1qabc` is a valid EOS account name
  // (it was refused as "a eos address"; found by an outside probe).
  const bech32Of = utxoNetworkOfBech32Prefix(input);
  if (bech32Of) {
    const why = validateAddress(bech32Of, input);
    return {
      ok: false,
      reason: `Invalid Address: a malformed ${bech32Of} address${why.ok ? '' : ` (${why.reason})`}.`,
    };
  }
  if (!inferred) return { ok: false, reason: `Invalid Address: ${notStreamable(input)}.` };
  return {
    ok: false,
    reason: `Invalid Address: ${covers} EVM and Bitcoin-family addresses; this is a ${inferred.networks.join('/')} address.`,
  };
}

/**
 * Why an address no network accepts is none a stream may watch: an EVM-looking one (`0x`) gets
 * the EVM rules' reason (an EIP-55 mismatch, a wrong length), any other a plain statement.
 */
function notStreamable(input: string): string {
  const evm = /^0x/i.test(input) ? validateAddress('eth', input) : undefined;
  if (evm && !evm.ok) return evm.reason.replace(/\.$/, '');
  return 'not an EVM or Bitcoin-family address (a 0x… address, base58check or bech32)';
}
