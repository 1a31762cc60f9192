import Client from 'bitcoin-core';
import { HistoryUnavailableError, RetryableError } from '../../errors.js';

/**
 * The JSON-RPC of a Bitcoin-family node (bitcoind, litecoind, dogecoind), over the bitcoin-core
 * client: only what the indexer reads. Every failure is a RetryableError (an RpcCallError with
 * the node's error code where it sent one); "not found" answers come back as null.
 */

export interface RawScriptPubKey {
  hex: string;
  type: string;
  reqSigs?: number;
  address?: string;
  addresses?: string[];
}
export interface RawVout {
  value: number | string;
  n: number;
  scriptPubKey: RawScriptPubKey;
  ismweb?: boolean;
}
/** The coin an input spends, as getblock verbosity 3 (Bitcoin Core 23+) describes it. */
export interface RawPrevout {
  /** Whether the coin was created by a coinbase transaction. */
  generated: boolean;
  height: number;
  value: number | string;
  scriptPubKey: RawScriptPubKey;
}
export interface RawVin {
  txid?: string;
  vout?: number;
  coinbase?: string;
  scriptSig?: { hex: string };
  sequence: number;
  ismweb?: boolean;
  /** Only from getblock verbosity 3. */
  prevout?: RawPrevout;
}
export interface RawTransaction {
  txid: string;
  version: number;
  size: number;
  vsize?: number;
  weight?: number;
  locktime: number;
  hex: string;
  vin: RawVin[];
  vout: RawVout[];
  blockhash?: string;
  /** Block time, when the transaction is in a block (getrawtransaction verbose). */
  blocktime?: number;
}
export interface RawBlock {
  hash: string;
  height: number;
  previousblockhash?: string;
  time: number;
  tx: RawTransaction[];
}

/** Node error codes (Bitcoin Core's rpc/protocol.h) that mean "no such thing". */
const RPC_INVALID_PARAMETER = -8;
const RPC_INVALID_ADDRESS_OR_KEY = -5;
const RPC_METHOD_NOT_FOUND = -32601;
/** What an older node answers to `getblock hash 2` where it expects a boolean. */
const RPC_TYPE_ERROR = -3;
const RPC_MISC_ERROR = -1;
/** Calls per batched HTTP request. */
const BATCH_SIZE = 200;
const TIMEOUT_MS = 30_000;

export class RpcCallError extends RetryableError {
  constructor(
    method: string,
    readonly code: number | undefined,
    /** The node's own message. */
    readonly nodeMessage: string,
    cause?: unknown,
  ) {
    super(`${method} failed: ${nodeMessage}${code === undefined ? '' : ` (rpc code ${code})`}`, {
      cause,
    });
    this.name = 'RpcCallError';
  }
}

/**
 * `http://user:password@host:port[/path]` into the client's options (credentials URL-decoded).
 * A path (and query) is kept: a provider that puts its key there (`https://host/<key>/`) is
 * asked there.
 */
export function parseRpcUrl(url: string): { host: string; username?: string; password?: string } {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new Error(
      'a Bitcoin-family RPC URL (TOLLGATE_RPC_<NETWORK>) must be http(s)://user:password@host:port',
    );
  return {
    host: `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}${u.search}`,
    username: decodeURIComponent(u.username) || undefined,
    password: decodeURIComponent(u.password) || undefined,
  };
}

/** `call`'s outcome, or its abandonment as soon as `signal` aborts. */
function unlessAborted<T>(call: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return call;
  return new Promise<T>((resolve, reject) => {
    const abandon = () => reject(signal.reason);
    if (signal.aborted) {
      call.catch(() => {}); // nobody waits for it any more
      return abandon();
    }
    signal.addEventListener('abort', abandon, { once: true });
    call.then(resolve, reject).finally(() => signal.removeEventListener('abort', abandon));
  });
}

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {} };

export class UtxoRpc {
  private readonly client: Client;
  /** Whether getblock takes a verbosity number (not only a boolean); learnt from the first call. */
  private numericVerbosity: boolean | undefined;

  private readonly signal: AbortSignal | undefined;

  /**
   * With `signal`, every call still waiting for the node when it aborts is given up at once (it
   * rejects with the signal's reason; the request itself runs on to its timeout): a stopping
   * indexer does not wait up to TIMEOUT_MS for a node that has stopped answering.
   */
  constructor(rpcUrl: string, opts: { signal?: AbortSignal } = {}) {
    this.client = new Client({ ...parseRpcUrl(rpcUrl), timeout: TIMEOUT_MS, logger: silent });
    this.signal = opts.signal;
  }

  /**
   * The node's chain (`main`, `test`, `testnet4`, `signet` or `regtest`) and whether it is still
   * in its initial block download (getblockchaininfo); undefined when the node (or a proxy before
   * it) does not answer that method.
   */
  async chainInfo(): Promise<
    { chain: string; initialblockdownload?: boolean; blocks: number; headers: number } | undefined
  > {
    try {
      return await this.call('getblockchaininfo');
    } catch (err) {
      if (err instanceof RpcCallError && err.code === RPC_METHOD_NOT_FOUND) return undefined;
      throw err;
    }
  }

  async headHeight(): Promise<bigint> {
    return BigInt(await this.call<number>('getblockcount'));
  }

  /** The hash of the block at `height` on the node's best chain, or null above its head. */
  async blockHash(height: bigint): Promise<string | null> {
    return this.orNull(this.call<string>('getblockhash', Number(height)), RPC_INVALID_PARAMETER);
  }

  /**
   * The block with its transactions, or null when the node does not know it (any more). Asked
   * with verbosity 3: Bitcoin Core 23+ then describes the coin each input spends (`prevout`,
   * with its height), older nodes answer as for verbosity 2 (no prevouts). A node whose getblock
   * takes only a boolean (Dogecoin Core 1.14) is asked for txids instead, and their transactions
   * are read with getrawtransaction.
   */
  async block(hash: string): Promise<RawBlock | null> {
    type Block = Omit<RawBlock, 'tx'> & { tx: (RawTransaction | string)[] };
    let block: Block | null;
    try {
      block = await this.orNull(
        this.call<Block>('getblock', hash, this.numericVerbosity === false ? true : 3),
        RPC_INVALID_ADDRESS_OR_KEY,
      );
      this.numericVerbosity ??= true;
    } catch (err) {
      // A block the node pruned (-prune): Bitcoin Core's RPC_MISC_ERROR "Block not available
      // (pruned data)". Not to be taken for an older node refusing the verbosity number (its
      // RPC_MISC_ERROR says a boolean was expected).
      if (
        err instanceof RpcCallError &&
        err.code === RPC_MISC_ERROR &&
        /pruned/i.test(err.nodeMessage)
      )
        throw new HistoryUnavailableError(
          `the node does not serve block ${hash} (it answered: ${err.nodeMessage.slice(0, 200)})`,
          'pruned there (-prune): backfill from a later block, or use a node without -prune',
        );
      const boolOnly =
        err instanceof RpcCallError &&
        (err.code === RPC_TYPE_ERROR ||
          (err.code === RPC_MISC_ERROR && /bool/i.test(err.nodeMessage)));
      if (this.numericVerbosity !== undefined || !boolOnly) throw err;
      this.numericVerbosity = false;
      return this.block(hash);
    }
    if (!block) return null;
    if (block.tx.every((t) => typeof t !== 'string')) return block as RawBlock;
    return {
      ...block,
      tx: await this.transactions(block.tx.map((t) => (typeof t === 'string' ? t : t.txid))),
    };
  }

  /** Transactions by txid (getrawtransaction, verbose, batched). Needs the node's -txindex. */
  async transactions(txids: readonly string[]): Promise<RawTransaction[]> {
    return this.batch<RawTransaction>(
      'getrawtransaction',
      txids.map((txid) => [txid, true]),
      'the node needs -txindex=1 to find transactions by id',
    );
  }

  /**
   * Transactions in blocks the caller knows (getrawtransaction with the block hash, batched):
   * no -txindex needed.
   */
  async transactionsInBlocks(
    refs: readonly { txid: string; blockHash: string }[],
  ): Promise<RawTransaction[]> {
    return this.batch<RawTransaction>(
      'getrawtransaction',
      refs.map((r) => [r.txid, true, r.blockHash]),
    );
  }

  /** Hashes of the best chain's blocks at `heights` (getblockhash, batched). */
  async blockHashes(heights: readonly bigint[]): Promise<string[]> {
    return this.batch<string>(
      'getblockhash',
      heights.map((h) => [Number(h)]),
    );
  }

  /** One transaction by txid, or null when the node has none by that id (needs -txindex). */
  async transaction(txid: string): Promise<RawTransaction | null> {
    return this.orNull(
      this.call<RawTransaction>('getrawtransaction', txid, true),
      RPC_INVALID_ADDRESS_OR_KEY,
    );
  }

  /** Heights of blocks by hash (getblockheader, batched). */
  async blockHeights(hashes: readonly string[]): Promise<Map<string, bigint>> {
    const headers = await this.batch<{ hash: string; height: number }>(
      'getblockheader',
      hashes.map((h) => [h, true]),
    );
    return new Map(headers.map((h) => [h.hash, BigInt(h.height)]));
  }

  /** Whether the node keeps a transaction index; undefined when it cannot say (getindexinfo is 0.21+). */
  async hasTxIndex(): Promise<boolean | undefined> {
    try {
      const info = await this.call<Record<string, { synced: boolean }>>('getindexinfo');
      return Boolean(info.txindex);
    } catch (err) {
      if (err instanceof RpcCallError && err.code === RPC_METHOD_NOT_FOUND) return undefined;
      throw err;
    }
  }

  private async orNull<T>(p: Promise<T>, notFound: number): Promise<T | null> {
    try {
      return await p;
    } catch (err) {
      if (err instanceof RpcCallError && err.code === notFound) return null;
      throw err;
    }
  }

  private async call<T>(method: string, ...params: unknown[]): Promise<T> {
    try {
      return (await unlessAborted(this.client.command(method, ...params), this.signal)) as T;
    } catch (err) {
      throw wrap(method, err);
    }
  }

  /** One JSON-RPC batch per BATCH_SIZE calls; any failed call fails the whole read. */
  private async batch<T>(
    method: string,
    paramsList: readonly unknown[][],
    hint = '',
  ): Promise<T[]> {
    const out: T[] = [];
    for (let i = 0; i < paramsList.length; i += BATCH_SIZE) {
      const chunk = paramsList
        .slice(i, i + BATCH_SIZE)
        .map((parameters) => ({ method, parameters }));
      let results: unknown[];
      try {
        results = (await unlessAborted(this.client.command(chunk), this.signal)) as unknown[];
      } catch (err) {
        throw wrap(method, err);
      }
      for (const r of results) {
        if (r instanceof Error) {
          const e = wrap(method, r);
          throw hint && e.code === RPC_INVALID_ADDRESS_OR_KEY
            ? new RpcCallError(method, e.code, `${r.message}; ${hint}`, r)
            : e;
        }
        out.push(r as T);
      }
    }
    return out;
  }
}

function wrap(method: string, err: unknown): RpcCallError {
  if (err instanceof RpcCallError) return err;
  const e = err as { code?: unknown; message?: string };
  const code = typeof e.code === 'number' ? e.code : undefined;
  const message = (e.message ?? String(err)).split('\n')[0]!;
  return new RpcCallError(
    method,
    code,
    typeof e.code === 'string' ? `${message} (${e.code})` : message,
    err,
  );
}
