import { parseArgs } from 'node:util';
import { BaseError, numberToHex, type PublicClient } from 'viem';
import { command } from './command.js';
import { type Config, resolveNetworks, type ResolvedNetwork } from '../config/index.js';
import { networkInfo } from '../config/networks.js';
import {
  closeEvmClient,
  createEvmClient,
  createEvmBlockSource,
  methodUnsupported,
} from '../chains/evm/client.js';
import { watchNewHeads } from '../chains/evm/heads.js';
import { JsonRpcHttp } from '../chains/evm/json-rpc.js';
import { UtxoRpc } from '../chains/utxo/client.js';
import { describeError, HistoryUnavailableError } from '../errors.js';

export const DOCTOR_USAGE = `Usage:
  tollgate doctor [--network X]... [--json]
      asks each configured node (TOLLGATE_RPC_<NETWORK>, TOLLGATE_HEADS_<NETWORK>) for every RPC method and setting Tollgate
      uses, and says what is missing and what that costs. Exit 0 when nothing required is missing,
      1 otherwise. Reads no database.`;

const cmd = command('doctor', DOCTOR_USAGE);

/** One check: `required` ones failing make the node unusable; the others cost speed or a feature. */
export interface Check {
  name: string;
  ok: boolean;
  required: boolean;
  detail: string;
}

type Probe = (name: string, required: boolean, fn: () => Promise<string>) => Promise<boolean>;

function probeInto(checks: Check[]): Probe {
  return async (name, required, fn) => {
    try {
      checks.push({ name, ok: true, required, detail: await fn() });
      return true;
    } catch (err) {
      checks.push({
        name,
        ok: false,
        required,
        detail: err instanceof Missing ? err.message : firstLine(err),
      });
      return false;
    }
  };
}

class Missing extends Error {}

/** A failure in one line: viem's short message and details, else the error's first line. */
function firstLine(err: unknown): string {
  if (err instanceof BaseError)
    return `${err.shortMessage}${err.details ? ` (${err.details.split('\n')[0]})` : ''}`;
  return describeError(err).split('\n')[0]!;
}
/** History the node does not serve, as a check's finding: its answer and what to change. */
function notServed(err: unknown): never {
  if (err instanceof HistoryUnavailableError) throw new Missing(`${err.message}: ${err.advice}`);
  throw err;
}
const expect = (cond: unknown, message: string) => {
  if (!cond) throw new Missing(message);
};

/** The EVM node: what the indexer, the backfill, tx_detail, NFT metadata and tokens call. */
async function checkEvm(n: ResolvedNetwork): Promise<Check[]> {
  const client = createEvmClient(n.rpc);
  try {
    return await probeEvm(n, client);
  } finally {
    await closeEvmClient(client).catch(() => {});
  }
}

async function probeEvm(n: ResolvedNetwork, client: PublicClient): Promise<Check[]> {
  const checks: Check[] = [];
  const probe = probeInto(checks);
  const rpc = (method: string, params: unknown[] = []) =>
    client.request({ method: method as never, params: params as never }) as Promise<unknown>;
  let head = 0n;
  const reachable = await probe('eth_chainId', true, async () => {
    const id = Number(await rpc('eth_chainId'));
    const expected = networkInfo(n.symbol)?.chain_id;
    expect(
      expected === undefined || id === expected || id === 31337,
      `chain id ${id}, but ${n.symbol} is chain id ${expected}: is this the right node?`,
    );
    return `chain id ${id}`;
  });
  if (!reachable) return checks;
  await probe('eth_blockNumber', true, async () => {
    head = BigInt((await rpc('eth_blockNumber')) as string);
    return `head ${head}`;
  });
  let sampleTx: string | undefined;
  let sampleBlock = head;
  await probe('eth_getBlockByNumber (with transactions)', true, async () => {
    // The newest block with a transaction among the last few, for the receipt checks.
    for (let i = 0n; i < 20n && head - i >= 0n; i++) {
      const b = (await rpc('eth_getBlockByNumber', [numberToHex(head - i), true])) as {
        transactions: { hash: string }[];
      } | null;
      expect(b, `no block ${head - i}`);
      if (b!.transactions.length) {
        sampleTx = b!.transactions[0]!.hash;
        sampleBlock = head - i;
        break;
      }
    }
    return sampleTx ? `block ${sampleBlock} has transactions` : 'recent blocks are empty';
  });
  await probe('eth_getTransactionReceipt', true, async () => {
    if (!sampleTx) return 'not tried: no recent transaction';
    expect(await rpc('eth_getTransactionReceipt', [sampleTx]), `no receipt for ${sampleTx}`);
    return 'receipts available';
  });
  await probe('eth_getBlockReceipts (one call per block)', false, async () => {
    try {
      const r = await rpc('eth_getBlockReceipts', [numberToHex(sampleBlock)]);
      expect(Array.isArray(r), 'an answer that is not a list');
      return 'used: one call per block';
    } catch (err) {
      if (methodUnsupported(err))
        throw new Missing(
          'not supported: receipts are read one transaction at a time (slower catch-up and backfill)',
        );
      throw err;
    }
  });
  await probe('JSON-RPC batches', false, async () => {
    if (n.rpc.startsWith('ws'))
      return 'not tried over WebSocket (the indexer batches over http(s))';
    // Two calls in one turn: the indexer's reader sends them as one batch, credentials and
    // timeout included, and says so when the node refuses it.
    let refused = '';
    const reader = new JsonRpcHttp(n.rpc, {
      retryCount: 0,
      onBatchLimit: (_size, reason) => {
        refused = reason;
      },
    });
    await Promise.all([reader.request('eth_blockNumber', []), reader.request('eth_chainId', [])]);
    expect(!refused, `batches refused (${refused.slice(0, 120)}): one request per call`);
    return 'accepted';
  });
  await probe('finalized block tag', false, async () => {
    const f = (await rpc('eth_getBlockByNumber', ['finalized', false])) as {
      number: string;
    } | null;
    expect(f, 'no finalized block: reorgs are judged by depth only');
    return `finalized ${BigInt(f!.number)}`;
  });
  await probe('eth_call (token names, NFT metadata URIs)', true, async () => {
    await rpc('eth_call', [
      { to: '0x0000000000000000000000000000000000000000', data: '0x' },
      'latest',
    ]);
    return 'available (latest state only: no archive node needed)';
  });
  const start = typeof n.startBlock === 'number' ? BigInt(n.startBlock) : 1n;
  await probe(`history at block ${start} (backfill, start block)`, false, async () => {
    // Read as the indexer reads it: the block, then the receipts of the first block from there
    // with a transaction (among the next 20), which a node may no longer serve though it has
    // the block (receipts, or the index that finds them, kept for recent blocks only).
    const source = createEvmBlockSource(n.rpc, { shared: client });
    for (let at = start; at === start || (at < start + 20n && at <= head); at++) {
      const block = await source.fetchBlock(at).catch(notServed);
      expect(
        block,
        `the node has no block ${at} (history expired or pruned): no backfill below it`,
      );
      if (block!.transactions.length)
        return `block ${start} available${at === start ? ', with its receipts' : `; receipts of block ${at} available`}`;
    }
    return `block ${start} available (no transaction up to block ${start + 19n} to ask receipts for)`;
  });
  if (n.heads) {
    const heads = n.heads;
    await probe('newHeads subscription', false, () => subscribeOnce(heads));
  }
  return checks;
}

/** Subscribes to new heads at `url` once: 'subscribed', or the node's refusal or connection failure. */
function subscribeOnce(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => done(new Missing('no answer to eth_subscribe within 10 s')),
      10_000,
    );
    const done = (err?: Error) => {
      clearTimeout(timer);
      stop();
      if (err) reject(err);
      else resolve('subscribed');
    };
    const stop = watchNewHeads(url, {
      onHead: () => {},
      onSubscribed: () => done(),
      onError: (err) => done(new Missing(err.message)),
    });
  });
}

/** The Bitcoin-family node: getblock with transactions, and a transaction index. */
async function checkUtxo(n: ResolvedNetwork): Promise<Check[]> {
  const checks: Check[] = [];
  const probe = probeInto(checks);
  const rpc = new UtxoRpc(n.rpc);
  let head = 0n;
  const reachable = await probe('getblockcount', true, async () => {
    head = await rpc.headHeight();
    return `head ${head}`;
  });
  if (!reachable) return checks;
  let hash: string | null = null;
  await probe('getblockhash', true, async () => {
    hash = await rpc.blockHash(head);
    expect(hash, `no block hash at ${head}`);
    return 'available';
  });
  let prevouts: boolean | undefined;
  await probe('getblock with transactions', true, async () => {
    expect(hash && (await rpc.block(hash)), 'no block');
    return 'available';
  });
  await probe('getblock verbosity 3 (the coins inputs spend)', false, async () => {
    prevouts = await spendsCarryPrevouts(rpc, head);
    expect(
      prevouts !== false,
      'not given (Bitcoin Core 23+ gives them): coins spent from before the start block are found by id, which needs -txindex=1',
    );
    return prevouts
      ? 'given: -txindex=1 is not needed for indexing'
      : 'no spending transaction in the last 10 blocks: not verified';
  });
  const start = typeof n.startBlock === 'number' ? BigInt(n.startBlock) : 1n;
  await probe(`history at block ${start} (backfill, start block)`, false, async () => {
    // Read as the indexer reads it (a pruned block is the node's -prune at work).
    const at = await rpc.blockHash(start);
    expect(at, `the node has no block ${start} (its head is ${head}): no backfill below it`);
    const block = await rpc.block(at!).catch(notServed);
    expect(block, `the node has no block ${start}`);
    return `block ${start} available`;
  });
  await probe('-txindex (getrawtransaction by id)', !prevouts, async () => {
    const has = await rpc.hasTxIndex();
    expect(
      has !== false,
      prevouts
        ? 'the node runs without -txindex=1: tx_detail cannot find transactions older than the index'
        : 'the node runs without -txindex=1: coins spent from before the start block cannot be resolved, and tx_detail cannot find older transactions',
    );
    return has === undefined ? 'getindexinfo missing (older node): not verified' : 'on';
  });
  return checks;
}

/**
 * Whether the node's getblock describes the coins inputs spend (verbosity 3), judged on the
 * newest of the last 10 blocks that spends one; undefined when none does.
 */
async function spendsCarryPrevouts(rpc: UtxoRpc, head: bigint): Promise<boolean | undefined> {
  for (let h = head; h >= 0n && h > head - 10n; h--) {
    const hash = await rpc.blockHash(h);
    const block = hash ? await rpc.block(hash) : null;
    const spend = block?.tx.flatMap((t) => t.vin).find((v) => v.coinbase === undefined);
    if (spend) return spend.prevout !== undefined;
  }
  return undefined;
}

export interface DoctorReport {
  network: string;
  family: string;
  checks: Check[];
}

/** `tollgate doctor`: the checks of every configured network (or the ones named). */
export async function doctorCommand(config: Config, args: string[]): Promise<void> {
  await cmd.run(async () => {
    const { values } = parseArgs({
      args,
      options: { network: { type: 'string', multiple: true }, json: { type: 'boolean' } },
    });
    const networks = resolveNetworks(config).filter(
      (n) => !values.network?.length || values.network.includes(n.symbol),
    );
    if (networks.length === 0)
      return cmd.fail(
        values.network?.length
          ? `not configured: ${values.network.join(', ')} (set TOLLGATE_RPC_<NETWORK>)`
          : 'no network configured (set TOLLGATE_RPC_<NETWORK>)',
        1,
      );
    const reports: DoctorReport[] = [];
    for (const n of networks)
      reports.push({
        network: n.symbol,
        family: n.family,
        checks: n.family === 'evm' ? await checkEvm(n) : await checkUtxo(n),
      });
    const failed = reports.some((r) => r.checks.some((c) => c.required && !c.ok));
    if (values.json) process.stdout.write(JSON.stringify(reports) + '\n');
    else
      for (const r of reports) {
        process.stdout.write(`${r.network} (${r.family})\n`);
        for (const c of r.checks)
          process.stdout.write(
            `  ${c.ok ? 'ok     ' : c.required ? 'MISSING' : 'missing'}  ${c.name}: ${c.detail}\n`,
          );
      }
    if (failed) process.exitCode = 1;
  });
}
