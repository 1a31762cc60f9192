import { readFileSync } from 'node:fs';
import { projectPath } from '../paths.js';

/** The network table (config/networks.json): every network symbol the API knows, in one place. */
export type NetworkFamily =
  | 'evm'
  | 'utxo'
  | 'tron'
  | 'xrp'
  | 'solana'
  | 'cardano'
  | 'stellar'
  | 'sui'
  | 'ton'
  | 'polkadot'
  | 'aptos'
  | 'vechain'
  | 'algorand'
  | 'cosmos'
  | 'tezos'
  | 'eos';

export interface NetworkInfo {
  symbol: string;
  name: string;
  asset: string;
  family: NetworkFamily;
  /** Mainnet chain id (EVM only). The indexer reads the node's own id and uses that. */
  chain_id?: number;
  /** Mainnet block 0's hash (Bitcoin family). */
  genesis_hash?: string;
  decimals: number;
  /** Default confirmations before a delivery is sent again with `confirmed: true`. */
  confirmations?: number;
  /** Default deepest reorg followed before the indexer stops (64 when not set). */
  max_reorg_depth?: number;
  /** The chain's usual time between blocks. */
  block_time_ms?: number;
  /**
   * How old (seconds) the node's newest block may be before the node counts as behind the network
   * (stopped following it, or still syncing); applies on the network's mainnet only.
   */
  node_behind_s?: number;
  /** EVM: contracts whose list events become labels (src/aml/onchain-lists.ts). */
  label_lists?: { kind: string; address: string }[];
}

function readTable(): Record<string, NetworkInfo> {
  const raw = JSON.parse(readFileSync(projectPath('config', 'networks.json'), 'utf8')) as Record<
    string,
    Omit<NetworkInfo, 'symbol'> | string
  >;
  const table: Record<string, NetworkInfo> = {};
  for (const [symbol, info] of Object.entries(raw)) {
    if (typeof info === 'string') continue; // "$comment"
    table[symbol] = { symbol, ...info };
  }
  return table;
}

export const NETWORKS: Readonly<Record<string, NetworkInfo>> = Object.freeze(readTable());
export const NETWORK_SYMBOLS: readonly string[] = Object.freeze(Object.keys(NETWORKS));
export const EVM_NETWORKS: readonly string[] = NETWORK_SYMBOLS.filter(
  (s) => NETWORKS[s]!.family === 'evm',
);

export function networkInfo(symbol: string): NetworkInfo | undefined {
  return Object.hasOwn(NETWORKS, symbol) ? NETWORKS[symbol] : undefined;
}

/**
 * The network whose mainnet a node's chain is, when it is another network's than `symbol`'s: a
 * node configured for the wrong network (TOLLGATE_RPC_POLYGON naming an Ethereum node, a Bitcoin
 * node for litecoin). Told by the EVM chain id or by block 0's hash; a testnet, a dev chain or an
 * unknown chain is no other network's, and may be followed as `symbol`.
 */
export function anotherNetworksMainnet(
  symbol: string,
  node: { chainId?: number; genesisHash?: string | null },
): NetworkInfo | undefined {
  return Object.values(NETWORKS).find(
    (n) =>
      n.symbol !== symbol &&
      ((node.chainId !== undefined && n.chain_id === node.chainId) ||
        (!!node.genesisHash && n.genesis_hash === node.genesisHash.toLowerCase())),
  );
}
