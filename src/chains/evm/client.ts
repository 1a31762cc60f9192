import {
  BaseError,
  createPublicClient,
  http,
  RpcRequestError,
  webSocket,
  type PublicClient,
  type Hex,
  numberToHex,
} from 'viem';
import {
  describeError,
  HistoryUnavailableError,
  NodeAnswerError,
  RetryableError,
} from '../../errors.js';
import { log } from '../../log.js';
import { JsonRpcHttp, NodeAnswerTooLarge, NodeRpcError } from './json-rpc.js';
import { nodeFetch } from './node-fetch.js';
import type { RawLog } from './decode.js';
import {
  type InternalTransfer,
  internalTransfersOf,
  internalTransfersOfBlock,
  type TraceOfTx,
  traceStateMissing,
} from './traces.js';

/** A block as the indexer stores it: every integer a bigint, every address lower-case. */
export interface EvmBlock {
  number: bigint;
  hash: string;
  parentHash: string;
  timestamp: bigint;
  transactions: EvmTransaction[];
  /**
   * Whether its transactions' call traces were read (their `internal` transfers are known): false
   * when the node has no call traces, or not the state to re-run this block, or they are off.
   */
  traced: boolean;
}

export interface EvmTransaction {
  hash: string;
  index: number;
  from: string;
  to: string | null;
  contractAddress: string | null;
  value: bigint;
  gas: bigint;
  gasPrice: bigint | null;
  gasUsed: bigint | null;
  nonce: bigint;
  input: string;
  status: number | null;
  logs: RawLog[];
  /** Coin its calls moved inside it (traces.ts); empty where the block was not traced. */
  internal: InternalTransfer[];
}

interface RpcReceipt {
  transactionHash: Hex;
  blockHash?: Hex | null;
  contractAddress: Hex | null;
  gasUsed: Hex;
  effectiveGasPrice?: Hex;
  status?: Hex;
  logs: { address: Hex; topics: Hex[]; data: Hex; logIndex: Hex }[];
}

/** The fields of a node's `eth_getBlockByNumber(n, true)` answer the indexer reads. */
interface RpcBlock {
  number: Hex;
  hash: Hex | null;
  parentHash: Hex;
  timestamp: Hex;
  baseFeePerGas?: Hex | null;
  transactions?: RpcTransaction[];
}

interface RpcTransaction {
  hash: Hex;
  /** Null while pending; read to tell that a transaction read on its own is the block's. */
  blockHash?: Hex | null;
  transactionIndex: Hex | null;
  from: Hex;
  to: Hex | null;
  value: Hex;
  gas: Hex;
  gasPrice?: Hex | null;
  maxFeePerGas?: Hex | null;
  maxPriorityFeePerGas?: Hex | null;
  nonce: Hex;
  input: Hex;
}

/**
 * A JSON-RPC quantity (`0x`-prefixed hex) as a bigint; anything else is the node's error, naming
 * the block (and the transaction, when it is one's field). The message is built only then: this
 * runs for every field of every transaction the indexer reads.
 */
function quantity(value: unknown, block: bigint, tx?: string, field?: string): bigint {
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(value)) return BigInt(value);
  throw malformed(value, 'number', block, tx, field);
}

/**
 * A hash or address the node gave, lower-case: hex is one value in either case, and the indexer
 * compares hashes as text (a node answering in upper case looked like a reorg at every block;
 * found by an outside probe). Anything but a string is the node's error, naming the field.
 */
function hexText(value: unknown, block: bigint, tx: string | undefined, field: string): string {
  if (typeof value === 'string' && value.startsWith('0x')) return value.toLowerCase();
  throw malformed(value, 'hex string', block, tx, field);
}

/** A string field (calldata, a log's data) as the node gave it; else the node's error. */
function text(value: unknown, block: bigint, tx: string, field: string): string {
  if (typeof value === 'string') return value;
  throw malformed(value, 'string', block, tx, field);
}

/** A list field (a receipt's logs, a log's topics); else the node's error (no field is skipped). */
function list<T>(value: T[] | undefined, block: bigint, tx: string, field: string): T[] {
  if (Array.isArray(value)) return value;
  throw malformed(value, 'list', block, tx, field);
}

function malformed(
  value: unknown,
  kind: string,
  block: bigint,
  tx: string | undefined,
  field: string | undefined,
): NodeAnswerError {
  const where = tx === undefined ? `block ${block}` : `transaction ${tx} of block ${block}`;
  const given = value === undefined ? 'none' : JSON.stringify(value)?.slice(0, 80);
  return new NodeAnswerError(
    `the node answered ${where} with a malformed ${kind}${field ? ` as its ${field}` : ''}: ${given}`,
  );
}

/**
 * The gas price a transaction paid: the receipt's effectiveGasPrice; else the transaction's
 * gasPrice; else, from its fee caps and the block's base fee (EIP-1559), min(maxFeePerGas,
 * baseFee + maxPriorityFeePerGas). A node whose receipts lack the first and whose type-2
 * transactions lack the second had the price stored as unknown and served as 0 (found by an
 * outside probe). Null when none of them is there.
 */
function paidGasPrice(
  tx: RpcTransaction,
  r: RpcReceipt,
  baseFee: Hex | null | undefined,
  block: bigint,
): bigint | null {
  if (r.effectiveGasPrice)
    return quantity(r.effectiveGasPrice, block, tx.hash, 'effectiveGasPrice');
  if (tx.gasPrice != null) return quantity(tx.gasPrice, block, tx.hash, 'gasPrice');
  if (tx.maxFeePerGas == null || baseFee == null) return null;
  const cap = quantity(tx.maxFeePerGas, block, tx.hash, 'maxFeePerGas');
  const tip =
    tx.maxPriorityFeePerGas == null
      ? 0n
      : quantity(tx.maxPriorityFeePerGas, block, tx.hash, 'maxPriorityFeePerGas');
  const base = quantity(baseFee, block, undefined, 'baseFeePerGas');
  return base + tip < cap ? base + tip : cap;
}

/**
 * A client of one node. With `signal` (http(s) URLs), every call still waiting for the node when it
 * aborts is given up at once, as a timeout would give it up (an `AbortError`, which viem does not
 * retry): a stopping indexer does not wait up to the 15 s timeout, and its retries, for a node
 * that has stopped answering.
 */
export function createEvmClient(rpcUrl: string, opts: { signal?: AbortSignal } = {}): PublicClient {
  const { signal } = opts;
  const transport = rpcUrl.startsWith('ws')
    ? webSocket(rpcUrl, { retryCount: 3 })
    : http(rpcUrl, {
        batch: { batchSize: 100, wait: 0 },
        retryCount: 2,
        timeout: 15_000,
        // viem's `fetchOptions.signal` would replace its timeout's signal; both are kept here.
        fetchFn: signal ? (input, init) => fetchUnlessAborted(input, init, signal) : nodeFetch,
      });
  return createPublicClient({ transport }) as PublicClient;
}

/** A node client for calls a signal may end (a job's), by network; undefined for a network without one. */
export type EvmClientFor = (network: string, signal?: AbortSignal) => PublicClient | undefined;

/**
 * Clients for calls that a signal may end: for an http(s) node, a client with the signal, one per
 * signal and network (a job's, for that job; the dispatcher's stop signal, for its whole life; the
 * connections are undici's shared pool either way); for a ws(s) node, or without a signal, the
 * shared client (a ws client's calls cannot be given up one by one).
 */
export function evmClientSource(
  rpcUrls: ReadonlyMap<string, string>,
  shared: ReadonlyMap<string, PublicClient>,
): EvmClientFor {
  const bySignal = new WeakMap<AbortSignal, Map<string, PublicClient>>();
  return (network, signal) => {
    const url = rpcUrls.get(network);
    if (!url || !signal || url.startsWith('ws')) return shared.get(network);
    let clients = bySignal.get(signal);
    if (!clients) {
      clients = new Map();
      bySignal.set(signal, clients);
    }
    let client = clients.get(network);
    if (!client) {
      client = createEvmClient(url, { signal });
      clients.set(network, client);
    }
    return client;
  };
}

/**
 * nodeFetch, ended by viem's own signal (its timeout) or by `stop`, whichever aborts first. Joined
 * by hand rather than with AbortSignal.any: on Node 20 every signal that joins a long-lived one
 * stays in its list of dependants for good (measured: 1,000,000 requests, 1,000,000 kept, 55 MiB),
 * while these listeners go when the answer is read.
 */
async function fetchUnlessAborted(
  input: string | URL | Request,
  init: RequestInit | undefined,
  stop: AbortSignal,
): Promise<Response> {
  const both = new AbortController();
  const sources = [init?.signal, stop].filter((s): s is AbortSignal => !!s);
  const listeners = sources.map((source) => {
    const onAbort = () => both.abort(source.reason);
    if (source.aborted) onAbort();
    else source.addEventListener('abort', onAbort, { once: true });
    return () => source.removeEventListener('abort', onAbort);
  });
  try {
    return await nodeFetch(input, { ...init, signal: both.signal });
  } finally {
    for (const remove of listeners) remove();
  }
}

/** Closes a ws(s):// client's connection (an http one holds none open between calls). */
export async function closeEvmClient(client: PublicClient): Promise<void> {
  if (client.transport.type !== 'webSocket') return;
  const transport = client.transport as unknown as {
    getRpcClient(): Promise<{ close(): void }>;
  };
  (await transport.getRpcClient()).close();
}

/**
 * Whether the node answered a call with a JSON-RPC error (it understood the request and refused
 * it: an unknown method or block tag), as opposed to not answering (a timeout, a dropped
 * connection), which says nothing about what the node supports.
 */
export function answeredWithRpcError(err: unknown): boolean {
  return rpcErrorOf(err) !== undefined;
}

/**
 * Whether the node said it has no such method: JSON-RPC "method not found" (-32601), EIP-1474's
 * "method not supported" (-32004), or a message saying so. A node that has the method but failed
 * this call (an internal error, a limit) is asked again.
 */
export function methodUnsupported(err: unknown): boolean {
  const rpc = rpcErrorOf(err);
  if (!rpc) return false;
  return (
    rpc.code === -32601 ||
    rpc.code === -32004 ||
    /method .*(not (found|supported|available|exist))|unsupported method|does not exist/i.test(
      rpc.message,
    )
  );
}

/** The JSON-RPC error a node answered with, through our reader or viem's. */
function rpcErrorOf(err: unknown): { code: number; message: string } | undefined {
  if (err instanceof NodeRpcError) return { code: err.code, message: err.nodeMessage };
  if (!(err instanceof BaseError)) return undefined;
  const rpc = err.walk((e) => e instanceof RpcRequestError) as RpcRequestError | null;
  return rpc ? { code: rpc.code, message: rpc.details ?? rpc.shortMessage } : undefined;
}

/**
 * The block source of a node: over http(s), its block and receipt reads go through a JSON-RPC
 * reader of its own (json-rpc.ts), the rest through the viem client; a stop `signal` gives up the
 * calls of both still waiting. Over ws(s), `shared` (the network's one connection) when given.
 */
export function createEvmBlockSource(
  rpcUrl: string,
  opts: {
    signal?: AbortSignal;
    shared?: PublicClient;
    /** Over http(s): told when the node refused a batch and batches got smaller (json-rpc.ts). */
    onBatchLimit?: (size: number, reason: string) => void;
    /** Over http(s): the largest answer to one call read (json-rpc.ts; 10 MiB by default). */
    maxAnswerBytes?: number;
  } & TraceOptions = {},
): EvmBlockSource {
  if (rpcUrl.startsWith('ws'))
    return new EvmBlockSource(opts.shared ?? createEvmClient(rpcUrl, opts), undefined, opts);
  return new EvmBlockSource(
    createEvmClient(rpcUrl, opts),
    new JsonRpcHttp(rpcUrl, {
      signal: opts.signal,
      onBatchLimit: opts.onBatchLimit,
      maxAnswerBytes: opts.maxAnswerBytes,
    }),
    opts,
  );
}

/** How a block source reads internal transfers (traces.ts). */
export interface TraceOptions {
  /**
   * 'auto' (the default): each block's call traces where the node has them (`trace_block`, else
   * `debug_traceBlockByNumber` with `callTracer`), asked again every 10 minutes where it said it
   * has not; 'off': never asked (blocks are stored as not traced).
   */
  internalTransfers?: 'auto' | 'off';
  /** Told when the node is found to have call traces (true) or not to have them (false), and why. */
  onTracing?: (available: boolean, reason: string) => void;
  /** Told of a block stored without its internal transfers because the node could not trace it. */
  onUntraced?: (block: bigint, reason: string) => void;
}

/**
 * Why a block's call traces could not be read, where that is no passing failure: `unsupported`,
 * the node has no call traces; `block`, not for this block (no state to re-run it, an answer over
 * the limit); `off`, internal transfers are off for the network. The indexer stores such a block
 * untraced; a retrace stops on it.
 */
export class TracesUnavailable extends Error {
  constructor(
    readonly reason: 'unsupported' | 'block' | 'off',
    message: string,
  ) {
    super(message);
    this.name = 'TracesUnavailable';
  }
}

const PRUNED_ADVICE =
  'pruned or expired there: backfill from a later block, or use a node that keeps full history';
const RECEIPTS_ADVICE =
  'it keeps receipts, or the transaction index that finds them, for recent blocks only; geth: --history.transactions=0 indexes every block';

/** A block the node has, without the receipt of one of its transactions. */
function receiptMissing(number: bigint, tx: string): HistoryUnavailableError {
  return new HistoryUnavailableError(
    `the node has block ${number} but no receipt for its transaction ${tx.toLowerCase()}`,
    RECEIPTS_ADVICE,
  );
}

/**
 * `err` as history the node does not serve (`what`: of block N), when it is the node's own answer
 * that it no longer serves it: EIP-4444's error code 4444 (geth: "pruned history unavailable"),
 * or a message saying so. Undefined for any other failure.
 */
function prunedHistory(err: unknown, what: string): HistoryUnavailableError | undefined {
  const rpc = rpcErrorOf(err);
  if (
    !rpc ||
    (rpc.code !== 4444 &&
      !/pruned history|history (is )?(not available|unavailable)|not available due to pruning/i.test(
        rpc.message,
      ))
  )
    return undefined;
  return new HistoryUnavailableError(
    `the node does not serve ${what} (it answered: ${rpc.message.slice(0, 200)})`,
    PRUNED_ADVICE,
  );
}

/**
 * How long after a node said it has no eth_getBlockReceipts it is asked again: a node behind a
 * balancer with other clients, or restarted with other flags, may have it again.
 */
const BLOCK_RECEIPTS_ASK_AGAIN_MS = 10 * 60_000;

/** The call tracer asked for: geth's built-in, which the other clients answer in its shape. */
const CALL_TRACER = { tracer: 'callTracer' } as const;
/** The call a tracer is asked with, as logs and errors name it. */
const TRACE_METHOD = {
  trace_block: 'trace_block',
  callTracer: 'debug_traceBlockByNumber',
} as const;

/**
 * The hash of the node's answer to block `number`, which must be that block: a node (or a cache
 * or balancer before it) answering with another block than the one asked for would make its
 * parent look like a reorg, or like a node contradicting itself (a halt). Read again.
 */
function hashOfBlock(block: { hash?: unknown; number?: unknown }, number: bigint): string {
  const hash = hexText(block.hash, number, undefined, 'hash');
  const answered = quantity(block.number, number, undefined, 'number');
  if (answered !== number)
    throw new NodeAnswerError(
      `the node answered block ${number} with block ${answered} (${hash}); reading again`,
    );
  return hash;
}

/**
 * Reads blocks with full transactions and their receipts: eth_getBlockReceipts where the node has
 * it, one eth_getTransactionReceipt per transaction (batched) where it does not. With a `reader`,
 * those reads go through it; the other calls, and all of them without one, through `client`.
 */
export class EvmBlockSource {
  /** Whether the node has eth_getBlockReceipts: unknown until asked; false since a time. */
  private blockReceipts: boolean | undefined;
  private blockReceiptsMissingSince = 0;
  /** Whether the node has call traces: unknown until asked; false since a time. */
  private tracing: boolean | undefined;
  private tracingMissingSince = 0;
  /** Which call the node answers traces with, once known. */
  private tracer: keyof typeof TRACE_METHOD | undefined;
  /** What onTracing was last told (not again for the same, each time the node is asked again). */
  private toldTracing: boolean | undefined;

  constructor(
    readonly client: PublicClient,
    private readonly reader?: JsonRpcHttp,
    private readonly traceOpts: TraceOptions = {},
  ) {}

  /** A block or receipt read: through the reader when there is one. */
  private read<T>(method: string, params: unknown[]): Promise<T> {
    if (this.reader) return this.reader.request<T>(method, params);
    return this.client.request({ method: method as never, params: params as never }) as Promise<T>;
  }

  async chainId(): Promise<number> {
    return this.rpc(() => this.client.getChainId(), 'eth_chainId');
  }

  async headNumber(): Promise<bigint> {
    return this.rpc(() => this.client.getBlockNumber({ cacheTime: 0 }), 'eth_blockNumber');
  }

  /**
   * The node's `finalized` block number, or undefined when the node has no such tag (it answers
   * the tag with an error: an older node, a chain without a finality gadget).
   */
  async finalizedNumber(): Promise<bigint | undefined> {
    try {
      return (await this.client.getBlock({ blockTag: 'finalized' })).number ?? undefined;
    } catch (err) {
      if (answeredWithRpcError(err) || (err as Error).name === 'BlockNotFoundError')
        return undefined;
      throw new RetryableError(`eth_getBlockByNumber("finalized") failed: ${describeError(err)}`, {
        cause: err,
      });
    }
  }

  async blockHash(number: bigint): Promise<string | null> {
    const block = await this.rpc(
      () =>
        this.client.getBlock({ blockNumber: number }).catch((err) => {
          if ((err as Error).name === 'BlockNotFoundError') return null;
          throw err;
        }),
      'eth_getBlockByNumber',
    );
    return block?.hash ? block.hash.toLowerCase() : null;
  }

  /**
   * The block, or null when the node has no block at that height (yet, or any more). Read as the
   * node's JSON (`eth_getBlockByNumber` with full transactions) and turned into what the indexer
   * stores field by field, not through viem's block and transaction formatters: those convert
   * every field of every transaction (signatures, access lists, fee fields the indexer does not
   * keep), a tenth of the indexer's time during a backfill.
   */
  async fetchBlock(number: bigint): Promise<EvmBlock | null> {
    const block = await this.rpc(
      () =>
        this.read<RpcBlock | null>('eth_getBlockByNumber', [numberToHex(number), true]).catch(
          (err) => {
            if (err instanceof NodeAnswerTooLarge) return this.blockInParts(number);
            throw prunedHistory(err, `block ${number}`) ?? err;
          },
        ),
      'eth_getBlockByNumber',
    );
    if (!block?.hash) return null;
    const blockHash = hashOfBlock(block, number);
    const txs = block.transactions ?? [];
    if (!Array.isArray(txs) || txs.some((t) => typeof t !== 'object' || t === null))
      throw new NodeAnswerError(`eth_getBlockByNumber(${number}) did not return full transactions`);
    const hashes = txs.map((t) => hexText(t.hash, number, undefined, 'transaction hash'));
    const [receipts, traces] = txs.length
      ? await Promise.all([
          this.receipts(number, hashes as Hex[]),
          this.traces(number, blockHash, hashes as Hex[]),
        ])
      : [[], this.traceOpts.internalTransfers === 'off' ? null : []];
    // Receipts are asked for by block number or transaction hash, after the block: a reorg in
    // between, or nodes behind a balancer at different heads, give the receipts of another block
    // holding the same transactions (another status, gas price, log positions). Read again.
    const other = receipts.find(
      (r) => typeof r.blockHash === 'string' && r.blockHash.toLowerCase() !== blockHash,
    );
    if (other)
      throw new NodeAnswerError(
        `the receipts read for block ${number} (${blockHash}) belong to block ${other.blockHash!.toLowerCase()}: the chain changed while reading; reading again`,
      );
    const byHash = new Map(
      receipts.map((r) => [
        hexText(r.transactionHash, number, undefined, 'receipt transactionHash'),
        r,
      ]),
    );
    const transactions = txs.map((tx, i): EvmTransaction => {
      const hash = hashes[i]!;
      const r = byHash.get(hash);
      if (!r) throw receiptMissing(number, hash);
      const status = r.status == null ? null : Number(quantity(r.status, number, hash, 'status'));
      return {
        hash,
        index:
          tx.transactionIndex == null
            ? 0
            : Number(quantity(tx.transactionIndex, number, hash, 'transactionIndex')),
        from: hexText(tx.from, number, hash, 'from'),
        to: tx.to ? hexText(tx.to, number, hash, 'to') : null,
        contractAddress: r.contractAddress
          ? hexText(r.contractAddress, number, hash, 'contractAddress')
          : null,
        value: quantity(tx.value, number, hash, 'value'),
        gas: quantity(tx.gas, number, hash, 'gas'),
        gasPrice: paidGasPrice(tx, r, block.baseFeePerGas, number),
        gasUsed: quantity(r.gasUsed, number, hash, 'gasUsed'),
        nonce: quantity(tx.nonce, number, hash, 'nonce'),
        status,
        input: text(tx.input, number, hash, 'input'),
        logs: list(r.logs, number, hash, 'logs').map((l) => ({
          address: hexText(l.address, number, hash, 'log address'),
          topics: list(l.topics, number, hash, 'log topics').map((t) =>
            hexText(t, number, hash, 'log topic'),
          ),
          data: text(l.data, number, hash, 'log data'),
          logIndex: Number(quantity(l.logIndex, number, hash, 'log logIndex')),
        })),
        // A failed transaction moved nothing (its trace says so too).
        internal: traces && status !== 0 ? traces[i]! : [],
      };
    });
    return {
      number,
      hash: blockHash,
      parentHash: hexText(block.parentHash, number, undefined, 'parentHash'),
      timestamp: quantity(block.timestamp, number, undefined, 'timestamp'),
      transactions,
      traced: traces !== null,
    };
  }

  /**
   * A block whose answer with full transactions is over the size limit (a full block of a chain
   * with a high gas limit, its calldata twice as long in hex): its transaction hashes, then each
   * transaction on its own (batched; a batch over the limit is split). A transaction read after a
   * reorg is another block's, or none: the block is read again.
   */
  private async blockInParts(number: bigint): Promise<RpcBlock | null> {
    const block = await this.read<
      (Omit<RpcBlock, 'transactions'> & { transactions?: unknown[] }) | null
    >('eth_getBlockByNumber', [numberToHex(number), false]);
    if (!block?.hash) return null;
    const hashes = block.transactions ?? [];
    if (!Array.isArray(hashes) || hashes.some((h) => typeof h !== 'string'))
      throw new NodeAnswerError(
        `eth_getBlockByNumber(${number}, false) did not return transaction hashes`,
      );
    const transactions = await Promise.all(
      (hashes as Hex[]).map((hash) =>
        this.read<RpcTransaction | null>('eth_getTransactionByHash', [hash]),
      ),
    );
    const blockHash = block.hash.toLowerCase();
    for (const [i, tx] of transactions.entries())
      if (!tx || tx.blockHash?.toLowerCase() !== blockHash)
        throw new NodeAnswerError(
          `transaction ${String(hashes[i]).toLowerCase()} of block ${number} (${blockHash}) is ${tx?.blockHash ? `in block ${tx.blockHash.toLowerCase()}` : 'not in a block'} now: the chain changed while reading; reading again`,
        );
    return { ...block, transactions: transactions as RpcTransaction[] };
  }

  /**
   * The internal transfers of each transaction of the block, in order; null when the block is not
   * traced: traces are off, the node has none (asked again after BLOCK_RECEIPTS_ASK_AGAIN_MS), or
   * it lacks the state to re-run this block (a full node keeps recent state only). The node is
   * asked with `trace_block` where it has it (erigon, nethermind, reth, besu, anvil: its traces
   * were kept or are cheap to make; anvil answered a block of 60 transfers in 10–40 ms against
   * 250–330 ms for the call tracer), else `debug_traceBlockByNumber` with geth's `callTracer`
   * (geth has no trace_block). A node that has traces and failed this block otherwise is asked
   * again (RetryableError), as for a block: a block is never stored untraced for a passing failure.
   */
  private async traces(
    number: bigint,
    blockHash: string,
    hashes: readonly Hex[],
  ): Promise<InternalTransfer[][] | null> {
    if (this.traceOpts.internalTransfers === 'off') return null;
    if (
      this.tracing === false &&
      Date.now() - this.tracingMissingSince >= BLOCK_RECEIPTS_ASK_AGAIN_MS
    ) {
      this.tracing = undefined;
      this.tracer = undefined;
    }
    if (this.tracing === false) return null;
    try {
      return await this.readTraces(number, blockHash, hashes);
    } catch (err) {
      if (!(err instanceof TracesUnavailable)) throw err;
      if (err.reason === 'block') this.traceOpts.onUntraced?.(number, err.message);
      return null;
    }
  }

  /**
   * A block's internal transfers, through the tracer the node answered last, else the other
   * (trace_block first where none answered yet). Throws TracesUnavailable where the node cannot trace it (told to
   * onTracing when it has no traces at all); anything else is thrown to be asked again.
   */
  private async readTraces(
    number: bigint,
    blockHash: string,
    hashes: readonly Hex[],
  ): Promise<InternalTransfer[][]> {
    // The one the node answered last first; the other where it says it has no such method (a
    // node restarted with other flags, or another node behind a balancer).
    const tracers =
      this.tracer === 'callTracer'
        ? (['callTracer', 'trace_block'] as const)
        : (['trace_block', 'callTracer'] as const);
    for (const [k, tracer] of tracers.entries()) {
      let transfers: InternalTransfer[][];
      try {
        transfers =
          tracer === 'trace_block'
            ? await this.flatTraces(number, blockHash, hashes)
            : await this.callTraces(number, hashes);
      } catch (err) {
        // A node without trace_block may have the call tracer (geth): asked next.
        if (k < tracers.length - 1 && methodUnsupported(err)) continue;
        throw this.untraceable(number, err, TRACE_METHOD[tracer]);
      }
      this.tracer = tracer;
      this.noteTracing(true, `${TRACE_METHOD[tracer]} answered`);
      return transfers;
    }
    throw new TracesUnavailable('unsupported', 'no tracer to ask');
  }

  /**
   * The internal transfers of a block's transactions, for a retrace of a block stored untraced:
   * the block's hash and transaction hashes (`eth_getBlockByNumber` without full transactions)
   * and its call traces, read as fetchBlock reads them. Null when the node has no block at that
   * height. Where fetchBlock would store the block untraced (traces off, the node without
   * traces, without the state for this block, an answer over the limit), TracesUnavailable
   * says why; the node is asked even when it said lately that it has no traces.
   */
  async traceBlock(number: bigint): Promise<{
    hash: string;
    transactions: { hash: string; internal: InternalTransfer[] }[];
  } | null> {
    if (this.traceOpts.internalTransfers === 'off')
      throw new TracesUnavailable('off', 'internal transfers are off for this network');
    const block = await this.rpc(
      () =>
        this.read<(Omit<RpcBlock, 'transactions'> & { transactions?: unknown[] }) | null>(
          'eth_getBlockByNumber',
          [numberToHex(number), false],
        ),
      'eth_getBlockByNumber',
    );
    if (!block?.hash) return null;
    const hash = hashOfBlock(block, number);
    const txs = block.transactions ?? [];
    if (!Array.isArray(txs) || txs.some((t) => typeof t !== 'string'))
      throw new NodeAnswerError(
        `eth_getBlockByNumber(${number}, false) did not return transaction hashes`,
      );
    const hashes = (txs as string[]).map((t) => hexText(t, number, undefined, 'transaction hash'));
    const traces = hashes.length ? await this.readTraces(number, hash, hashes as Hex[]) : [];
    return { hash, transactions: hashes.map((h, i) => ({ hash: h, internal: traces[i]! })) };
  }

  /** A block's internal transfers from its `trace_block` answer (traces.ts). */
  private async flatTraces(
    number: bigint,
    blockHash: string,
    hashes: readonly Hex[],
  ): Promise<InternalTransfer[][]> {
    let answer: unknown;
    try {
      answer = await this.read<unknown>('trace_block', [numberToHex(number)]);
    } catch (err) {
      // Over the size limit: each transaction's on its own.
      if (!(err instanceof NodeAnswerTooLarge)) throw err;
      return this.oneByOne(
        hashes,
        'trace_transaction',
        async (hash) =>
          internalTransfersOfBlock(
            await this.read<unknown>('trace_transaction', [hash]),
            number,
            blockHash,
            [hash],
          )[0]!,
      );
    }
    return internalTransfersOfBlock(answer, number, blockHash, hashes);
  }

  /** A block's internal transfers from geth's call tracer, each transaction's tree in order. */
  private async callTraces(number: bigint, hashes: readonly Hex[]): Promise<InternalTransfer[][]> {
    let answer: unknown;
    try {
      answer = await this.read<unknown>('debug_traceBlockByNumber', [
        numberToHex(number),
        CALL_TRACER,
      ]);
    } catch (err) {
      if (!(err instanceof NodeAnswerTooLarge)) throw err;
      return this.oneByOne(hashes, 'debug_traceTransaction', async (hash) =>
        internalTransfersOf(
          await this.read<unknown>('debug_traceTransaction', [hash, CALL_TRACER]),
          number,
          hash,
        ),
      );
    }
    if (!Array.isArray(answer) || answer.length !== hashes.length)
      throw new NodeAnswerError(
        `the node answered debug_traceBlockByNumber(${number}) with ${Array.isArray(answer) ? `${answer.length} traces for ${hashes.length} transactions` : 'something that is not a list'}: the chain changed while reading, or the node is wrong; reading again`,
      );
    const out: InternalTransfer[][] = [];
    for (const [i, t] of (answer as TraceOfTx[]).entries()) {
      if (typeof t !== 'object' || t === null)
        throw new NodeAnswerError(`the node's trace ${i} of block ${number} is not an object`);
      if (typeof t.txHash === 'string' && t.txHash.toLowerCase() !== hashes[i])
        throw new NodeAnswerError(
          `the node's trace ${i} of block ${number} is of transaction ${t.txHash.toLowerCase()}, not ${hashes[i]}: the chain changed while reading; reading again`,
        );
      // A node that could not trace one transaction says so in its place.
      if (t.error !== undefined && t.result === undefined)
        throw new NodeRpcError('debug_traceBlockByNumber', {
          code: -32000,
          message: String(t.error),
        });
      out.push(internalTransfersOf(t.result, number, hashes[i]!));
    }
    return out;
  }

  /**
   * Each transaction's traces on their own (a block whose traces are over the size limit: a full
   * block's carry every call's input). One transaction's over the limit too would be refused
   * again at every try: the block is stored untraced, and told, rather than read again for ever.
   */
  private async oneByOne(
    hashes: readonly Hex[],
    method: string,
    read: (hash: Hex) => Promise<InternalTransfer[]>,
  ): Promise<InternalTransfer[][]> {
    try {
      return await Promise.all(hashes.map(read));
    } catch (err) {
      if (!(err instanceof NodeAnswerTooLarge)) throw err;
      throw new TracesUnavailable(
        'block',
        `a transaction's ${method} answer is over the answer limit`,
      );
    }
  }

  /**
   * A refused trace as TracesUnavailable where the node has no traces (told to onTracing) or not
   * the state for this block; anything else as an error to ask again.
   */
  private untraceable(number: bigint, err: unknown, method: string): Error {
    if (err instanceof NodeAnswerError || err instanceof TracesUnavailable) return err;
    const rpc = rpcErrorOf(err);
    if (
      rpc &&
      (methodUnsupported(err) || /tracer .*not (found|supported)|unknown tracer/i.test(rpc.message))
    ) {
      const reason = `${method}: ${rpc.message.slice(0, 200)}`;
      this.noteTracing(false, reason);
      this.tracingMissingSince = Date.now();
      return new TracesUnavailable('unsupported', reason);
    }
    if (rpc && traceStateMissing(rpc.message))
      return new TracesUnavailable('block', rpc.message.slice(0, 200));
    return new RetryableError(`${method} failed for block ${number}: ${describeError(err)}`, {
      cause: err,
    });
  }

  private noteTracing(available: boolean, reason: string): void {
    this.tracing = available;
    if (this.toldTracing === available) return;
    this.toldTracing = available;
    this.traceOpts.onTracing?.(available, reason);
  }

  private async receipts(number: bigint, hashes: readonly Hex[]): Promise<RpcReceipt[]> {
    if (
      this.blockReceipts === false &&
      Date.now() - this.blockReceiptsMissingSince >= BLOCK_RECEIPTS_ASK_AGAIN_MS
    )
      this.blockReceipts = undefined;
    if (this.blockReceipts !== false) {
      try {
        const r = await this.read<unknown>('eth_getBlockReceipts', [numberToHex(number)]);
        this.blockReceipts = true;
        if (Array.isArray(r)) return r as RpcReceipt[];
      } catch (err) {
        const pruned = prunedHistory(err, `the receipts of block ${number}`);
        if (pruned) throw pruned;
        // Only a node that says it has no such method lacks it; one that did not answer (a
        // timeout) or failed this call is asked again. Receipts over the size limit are read
        // one transaction at a time, for this block only.
        if (!(err instanceof NodeAnswerTooLarge)) {
          if (!methodUnsupported(err))
            throw new RetryableError(
              `eth_getBlockReceipts failed for block ${number}: ${describeError(err)}`,
              { cause: err },
            );
          // The node does not have it (any more: one that had it and says so now was asked again
          // for good; found by an outside probe): per-transaction receipts, and asked again later.
          if (this.blockReceipts === true)
            log.warn(
              { block: number.toString(), error: describeError(err) },
              'the node no longer has eth_getBlockReceipts: receipts are read one transaction at a time, and the method asked for again in 10 minutes',
            );
          this.blockReceipts = false;
          this.blockReceiptsMissingSince = Date.now();
        }
      }
    }
    return this.rpc(
      () =>
        Promise.all(
          hashes.map((hash) =>
            this.read<RpcReceipt | null>('eth_getTransactionReceipt', [hash]).catch((err) => {
              throw (
                prunedHistory(
                  err,
                  `the receipt of transaction ${hash.toLowerCase()} of block ${number}`,
                ) ?? err
              );
            }),
          ),
        ),
      'eth_getTransactionReceipt',
    ).then((list) => {
      const gap = list.indexOf(null);
      if (gap >= 0) throw receiptMissing(number, hashes[gap]!);
      return list as RpcReceipt[];
    });
  }

  private async rpc<T>(fn: () => Promise<T>, method: string): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof RetryableError) throw err;
      // What the node answered (its status, the start of its body, its JSON-RPC error), not
      // viem's first line alone ("HTTP request failed.", "An unknown RPC error occurred.").
      throw new RetryableError(`${method} failed: ${describeError(err)}`, { cause: err });
    }
  }
}
