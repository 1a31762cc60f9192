import { decodeBase58Check, encodeBase58Check } from './base58check.js';
import { accept, refuse, type AddressResult } from './result.js';
import { decodeSegwit } from './segwit.js';

interface UtxoParams {
  /** Version bytes of base58check P2PKH and P2SH addresses, mainnet and test networks together. */
  versions: readonly number[];
  /**
   * Versions that are another spelling of the same script, and the one the network's node writes
   * (Litecoin's P2SH: the legacy `3…` of an `M…` address is the same OP_HASH160 <h> OP_EQUAL).
   */
  respell?: readonly (readonly [from: number, to: number])[];
  /** Bech32 HRPs of mainnet, testnet and regtest; empty where segwit is not deployed. */
  hrps: readonly string[];
  /** Of `versions` and `hrps`, the test networks' (testnet, signet, regtest). */
  test: { versions: readonly number[]; hrps: readonly string[] };
  /** Of the test `hrps`, regtest's (the others are testnet's and signet's). */
  regtestHrps: readonly string[];
}

/**
 * Address versions per network, from each project's chainparams:
 * - bitcoin: P2PKH 0x00 (`1`), P2SH 0x05 (`3`); testnet, signet and regtest 0x6f (`m`/`n`), 0xc4 (`2`);
 *   HRPs `bc`, `tb`, `bcrt`.
 * - litecoin: P2PKH 0x30 (`L`), P2SH 0x32 (`M`) and the legacy 0x05 (`3`); test networks 0x6f
 *   (`m`/`n`), 0x3a (`Q`) and 0xc4 (`2`); HRPs `ltc`, `tltc`, `rltc`. MWEB (`ltcmweb1…`, `tmweb1…`) is refused
 *   saying so (mwebAddress).
 *   A legacy P2SH address is stored as Litecoin Core writes the same script (0x05 as 0x32, 0xc4 as
 *   0x3a): its labels, analysis and travel rule accounts are the `M…`/`Q…` address's (a stream's
 *   address, one string for the whole family, is inferred as Bitcoin's `3…`: index.ts).
 * - doge: P2PKH 0x1e (`D`), P2SH 0x16 (`9`/`A`); testnet 0x71 (`n`), 0xc4 (`2`); regtest of
 *   Dogecoin Core 1.14 uses 0x6f (`m`/`n`; the 1.21 development branch moves it to 0x71).
 *   Dogecoin has no segwit deployed, so no bech32.
 */
const UTXO_PARAMS: Readonly<Record<string, UtxoParams>> = {
  bitcoin: {
    versions: [0x00, 0x05, 0x6f, 0xc4],
    hrps: ['bc', 'tb', 'bcrt'],
    test: { versions: [0x6f, 0xc4], hrps: ['tb', 'bcrt'] },
    regtestHrps: ['bcrt'],
  },
  litecoin: {
    versions: [0x30, 0x32, 0x05, 0x6f, 0x3a, 0xc4],
    hrps: ['ltc', 'tltc', 'rltc'],
    respell: [
      [0x05, 0x32],
      [0xc4, 0x3a],
    ],
    test: { versions: [0x6f, 0x3a, 0xc4], hrps: ['tltc', 'rltc'] },
    regtestHrps: ['rltc'],
  },
  doge: {
    versions: [0x1e, 0x16, 0x71, 0x6f, 0xc4],
    hrps: [],
    test: { versions: [0x71, 0x6f, 0xc4], hrps: [] },
    regtestHrps: [],
  },
};

/**
 * Which chains a valid address of `network` can be on: `main`, or the test chains (`test`,
 * `testnet4`, `signet`, `regtest`); a bech32 address's prefix tells testnet and signet (`tb1`,
 * `tltc1`) from regtest (`bcrt1`, `rltc1`), a base58 one's version does not. Undefined for a chain
 * name this does not know (taken to fit).
 */
export function utxoAddressFitsChain(
  network: string,
  address: string,
  chain: string,
): boolean | undefined {
  const params = UTXO_PARAMS[network];
  const tests = ['test', 'testnet4', 'signet', 'regtest'];
  if (!params || (chain !== 'main' && !tests.includes(chain))) return undefined;
  const result = validateUtxo(address, network);
  if (!result.ok) return undefined;
  if (chain === 'main') return !result.testnet;
  if (!result.testnet) return false;
  const segwit = decodeSegwit(address);
  if (!segwit.ok) return true;
  return params.regtestHrps.includes(segwit.hrp) === (chain === 'regtest');
}

/**
 * Why a Litecoin MWEB address (LIP-0004: bech32 with the prefix `ltcmweb`, `tmweb` on testnet) is
 * refused: an MWEB payment shows no address on chain (its outputs are confidential), so no stream
 * could fire for one and no analysis could find its transactions. It was refused as "not base58"
 * (found by an outside probe).
 */
export const MWEB_REFUSED =
  'a Litecoin MWEB address (ltcmweb1…): MWEB payments show no address on chain, so it can be neither screened nor streamed';

/** Whether `input` is written as a Litecoin MWEB address (its prefix, in one case). */
export function mwebAddress(input: string): boolean {
  return (
    /^(ltcmweb|tmweb)1[02-9ac-hj-np-z]+$/.test(input) ||
    /^(LTCMWEB|TMWEB)1[02-9AC-HJ-NP-Z]+$/.test(input)
  );
}

/**
 * The Bitcoin-family network whose bech32 prefix `input` begins with (`ltc1…`, `bcrt1…`, in
 * either case or mixed: a mixed-case one is then refused as such), when it has a separator `1`;
 * undefined otherwise. For saying that a string
 * no rule accepts is a malformed address of that network, not what another network's looser
 * rules make of it (an EOS account name).
 */
export function utxoNetworkOfBech32Prefix(input: string): string | undefined {
  const sep = input.lastIndexOf('1');
  if (sep < 1) return undefined;
  const hrp = input.slice(0, sep).toLowerCase();
  return Object.keys(UTXO_PARAMS).find((n) => UTXO_PARAMS[n]!.hrps.includes(hrp));
}

/**
 * Bitcoin-family address: base58check (double-SHA-256 checksum) of a version byte and a 20-byte
 * hash, stored as typed; or segwit bech32/bech32m with the network's HRP, stored lower-case.
 * Mainnet and test-network forms are both accepted (the appliance's tests run regtest nodes).
 * Base58check is tried first, since a legacy address may begin like an HRP (a Litecoin `Ltc1…`).
 */
export function validateUtxo(input: string, network: string): AddressResult {
  const params = UTXO_PARAMS[network];
  if (!params) return refuse(`no UTXO address rules for network ${network}`);
  if (network === 'litecoin' && mwebAddress(input)) return refuse(MWEB_REFUSED);
  const decoded = decodeBase58Check(input);
  if (decoded.ok) return checkVersion(input, decoded.payload, network, params);
  const segwit = decodeSegwit(input);
  if (segwit.ok) {
    if (params.hrps.includes(segwit.hrp))
      return accept(input.toLowerCase(), params.test.hrps.includes(segwit.hrp));
    return refuse(
      `bech32 prefix is not one of ${network}'s (${params.hrps.join(', ') || 'none: no segwit'})`,
    );
  }
  const lower = input.toLowerCase();
  return params.hrps.some((prefix) => lower.startsWith(`${prefix}1`)) ? segwit : decoded;
}

function checkVersion(
  input: string,
  payload: Uint8Array,
  network: string,
  params: UtxoParams,
): AddressResult {
  const version = payload[0] ?? 0;
  if (payload.length !== 21)
    return refuse('base58check payload must be a version byte and a 20-byte hash');
  if (!params.versions.includes(version)) {
    return refuse(
      `version byte 0x${version.toString(16).padStart(2, '0')} is not a ${network} address version`,
    );
  }
  const respelt = params.respell?.find(([from]) => from === version)?.[1];
  return accept(
    respelt === undefined ? input : spelledWith(payload, respelt),
    params.test.versions.includes(version),
  );
}

/** The base58check address of a payload's hash under another version byte. */
function spelledWith(payload: Uint8Array, version: number): string {
  const respelt = Uint8Array.from(payload);
  respelt[0] = version;
  return encodeBase58Check(respelt);
}

/**
 * The other spellings of a stored address's script (respell's inverse: a Litecoin `M…` address's
 * legacy `3…`), for what was stored before legacy addresses were respelt (a label imported then).
 */
export function otherSpellings(network: string, address: string): string[] {
  const respell = UTXO_PARAMS[network]?.respell;
  const decoded = respell ? decodeBase58Check(address) : undefined;
  if (!respell || !decoded?.ok || decoded.payload.length !== 21) return [];
  return respell
    .filter(([, to]) => to === decoded.payload[0])
    .map(([from]) => spelledWith(decoded.payload, from));
}
