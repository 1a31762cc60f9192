import { NETWORK_SYMBOLS, networkInfo } from '../../config/networks.js';
import { inferFamily, validateAddress } from '../../chains/address/index.js';

/**
 * The transaction's network when the caller omits transaction_network (spec, travel rule
 * note 1: "the service adds a default network derived from the wallet address").
 *
 * 1. The candidates are the networks whose address rules accept the first originator account
 *    number (`inferFamily`), kept only where every other account number (both sides) is also
 *    valid: a `3…` P2SH originator paying a `bc1…` beneficiary is bitcoin, not litecoin.
 * 2. One candidate: that network (an asset it cannot carry is refused after, assetMisfit).
 * 3. Several: the asset decides. An asset that is a network's native asset (the network
 *    table's `asset`, or an alias below) picks that network, if it is a candidate; ETH, native
 *    on eth, arb and op, picks eth (name arb or op to use them).
 * 4. Any other asset (a token such as USDT) on an EVM address picks eth, the usual home of
 *    tokens; VeChain tokens must name vet.
 * 5. Otherwise (a Move address 0x+64 hex for sui or apt, a P2SH or testnet address shared by
 *    Bitcoin-family networks, an asset native to a network the address is not on) the network
 *    cannot be derived and is refused: the caller names it.
 */

/** Asset symbols that name a network without being its table `asset`. */
const ASSET_ALIASES: Readonly<Record<string, string>> = {
  MATIC: 'polygon', // Polygon's native asset before its 2024 rename to POL
  BSC: 'bsc',
  VTHO: 'vet', // VeChain's second native token (gas)
};

/** Default network of an asset symbol (upper case): the first network whose native asset it is. */
function assetNetwork(asset: string): string | undefined {
  return nativeNetworks(asset)[0];
}

/**
 * Every network whose native asset the symbol (upper case) is, in the table's order (ETH: eth,
 * arb, op); an alias (MATIC) names its one network.
 */
function nativeNetworks(asset: string): string[] {
  const alias = ASSET_ALIASES[asset];
  if (alias !== undefined) return [alias];
  return NETWORK_SYMBOLS.filter((symbol) => networkInfo(symbol)!.asset.toUpperCase() === asset);
}

/**
 * Why `asset` cannot move on `network`, or undefined. A Bitcoin-family chain carries its own coin
 * (and tokens of no chain's symbol, Omni's USDT): another chain's coin there (BTC between
 * Litecoin addresses) cannot be. It was taken (found by an outside probe). Other families carry
 * bridged tokens under other chains' symbols, so only this one is checked.
 */
export function assetMisfit(asset: string, network: string): string | undefined {
  const natives = nativeNetworks(asset.toUpperCase());
  if (!natives.length || natives.includes(network) || networkInfo(network)?.family !== 'utxo')
    return undefined;
  return `is native to ${natives[0]}, but the transaction is on ${network}, which carries no other chain's coin`;
}

export const DEFAULT_TOKEN_NETWORK = 'eth';

export type Derivation =
  | { ok: true; network: string }
  | { ok: false; path: string; message: string };

/**
 * The network for `accounts` (paths and values, the first originator account first) and
 * `asset`. Messages name networks and rules, never an address.
 */
export function deriveNetwork(
  accounts: readonly { path: string; value: string }[],
  asset: string,
): Derivation {
  const [first, ...others] = accounts;
  if (!first)
    return {
      ok: false,
      path: 'originator.accountNumber',
      message: 'must hold at least one wallet address',
    };
  const inferred = inferFamily(first.value);
  if (!inferred)
    return {
      ok: false,
      path: first.path,
      message: 'is not a wallet address of any supported network',
    };
  let candidates = inferred.networks;
  for (const other of others) {
    const narrowed = candidates.filter((network) => validateAddress(network, other.value).ok);
    if (narrowed.length === 0)
      return {
        ok: false,
        path: other.path,
        message: `is not a wallet address on ${candidates.join(', ')}, the networks of the first originator wallet address`,
      };
    candidates = narrowed;
  }
  if (candidates.length === 1) return { ok: true, network: candidates[0]! };
  const native = assetNetwork(asset.toUpperCase());
  if (native !== undefined) {
    if (candidates.includes(native)) return { ok: true, network: native };
    return {
      ok: false,
      path: 'transaction_network',
      message: `cannot be derived: the asset is native to ${native}, but the wallet addresses fit ${candidates.join(', ')}; name the network`,
    };
  }
  if (inferred.family === 'evm' && candidates.includes(DEFAULT_TOKEN_NETWORK))
    return { ok: true, network: DEFAULT_TOKEN_NETWORK };
  return {
    ok: false,
    path: 'transaction_network',
    message: `is required: the wallet addresses fit several networks (${candidates.join(', ')}) and the asset does not choose one`,
  };
}
