import { BaseError, numberToHex, type PublicClient } from 'viem';
import { command, parseOptions } from './command.js';
import {
  type Config,
  resolveNetworks,
  type ResolvedNetwork,
  type TravelRuleConfig,
  wantsDevChain,
} from '../config/index.js';
import { devChainUrl, rpcAnswers } from '../devchain/devchain.js';
import { anotherNetworksMainnet, networkInfo } from '../config/networks.js';
import {
  closeEvmClient,
  createEvmClient,
  createEvmBlockSource,
  methodUnsupported,
} from '../chains/evm/client.js';
import { watchNewHeads } from '../chains/evm/heads.js';
import { JsonRpcHttp } from '../chains/evm/json-rpc.js';
import { traceStateMissing } from '../chains/evm/traces.js';
import { UtxoRpc } from '../chains/utxo/client.js';
import { createMailer } from '../travelrule/index.js';
import { describeError, HistoryUnavailableError } from '../errors.js';
import { nodeBehindLimitS } from '../indexer/chain-indexer.js';
import { nodeLabel } from '../indexer/node-errors.js';

export const DOCTOR_USAGE = `Usage:
  tollgate doctor [--network X]... [--smtp] [--json]
      asks each configured node (TOLLGATE_RPC_<NETWORK>, TOLLGATE_HEADS_<NETWORK>) for every RPC method and setting Tollgate
      uses, and the SMTP relay of the Travel Rule e-mail fallback (TOLLGATE_SMTP_URL) whether it
      takes e-mails (connect, TLS, login; nothing is sent), and says what is missing and what that
      costs. --network and --smtp check only what they name. Exit 0 when nothing required is
      missing, 1 otherwise. Reads no database.`;

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

/**
 * A failure in one line: viem's short message and details, else the error's first line. Any URL
 * in it is cut to scheme://host:port: a client's words may repeat the node's URL whole, with a
 * password or a provider's key in it.
 */
function firstLine(err: unknown): string {
  const line =
    err instanceof BaseError
      ? `${err.shortMessage.split('\n')[0]}${err.details ? ` (${err.details.split('\n')[0]})` : ''}`
      : describeError(err).split('\n')[0]!;
  return line.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s()'"<>]+/gi, (url) => nodeLabel(url));
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
  let chainId = 0;
  const reachable = await probe('eth_chainId', true, async () => {
    const id = Number(await rpc('eth_chainId'));
    chainId = id;
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
  await probe('following the network (eth_syncing, the newest block)', false, async () => {
    const syncing = (await rpc('eth_syncing')) as
      | false
      | { currentBlock: string; highestBlock: string };
    expect(
      syncing === false,
      syncing
        ? `still syncing (block ${BigInt(syncing.currentBlock)} of ${BigInt(syncing.highestBlock)}): the indexer would follow it behind the network`
        : '',
    );
    const b = (await rpc('eth_getBlockByNumber', [numberToHex(head), false])) as {
      timestamp: string;
    } | null;
    expect(b, `no block ${head}`);
    const mainnet = chainId === networkInfo(n.symbol)?.chain_id;
    return newestBlockAge(n, head, Number(BigInt(b!.timestamp)), mainnet);
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
  await probe('blocks and receipts as the indexer reads them', true, async () => {
    // Through the indexer's own reader: a field it cannot use (a transaction without its sender,
    // a number that is not a JSON-RPC quantity) passed every check above and stalled the indexer
    // (found by an outside probe).
    const block = await createEvmBlockSource(n.rpc, { shared: client }).fetchBlock(sampleBlock);
    expect(block, `no block ${sampleBlock}`);
    return `block ${sampleBlock} read with ${block!.transactions.length} transaction(s)`;
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
  await probe('call traces (internal transfers)', false, async () => {
    if (n.internalTransfers === 'off')
      return `off (TOLLGATE_INTERNAL_TRANSFERS_${n.symbol.toUpperCase()}=off): coin contracts move inside transactions is not seen`;
    // As the indexer asks: trace_block, else geth's call tracer. Recent blocks, and the
    // configured start block: a full node traces only blocks whose state it keeps.
    const blocks = [sampleBlock];
    if (typeof n.startBlock === 'number' && BigInt(n.startBlock) < sampleBlock)
      blocks.push(BigInt(n.startBlock));
    const ask = {
      trace_block: (b: bigint) => rpc('trace_block', [numberToHex(b)]),
      'debug_traceBlockByNumber with callTracer': (b: bigint) =>
        rpc('debug_traceBlockByNumber', [numberToHex(b), { tracer: 'callTracer' }]),
    };
    let used: keyof typeof ask | undefined;
    for (const method of Object.keys(ask) as (keyof typeof ask)[]) {
      try {
        const r = await ask[method](sampleBlock);
        expect(Array.isArray(r), `${method}: an answer that is not a list`);
        used = method;
        break;
      } catch (err) {
        if (!methodUnsupported(err)) throw err;
      }
    }
    if (!used)
      throw new Missing(
        'not supported (neither trace_block nor debug_traceBlockByNumber): coin contracts move inside transactions (internal transfers, such as a mixer paying out) is not seen; geth: --http.api with debug; erigon, nethermind, reth, besu: the trace or debug namespace',
      );
    for (const b of blocks.slice(1)) {
      try {
        await ask[used](b);
      } catch (err) {
        const message = firstLine(err);
        if (traceStateMissing(message))
          throw new Missing(
            `block ${b} cannot be traced (${message}): the node keeps recent state only; its blocks are stored without internal transfers (an archive node traces all)`,
          );
        throw err;
      }
    }
    return `used: ${used} (block${blocks.length > 1 ? `s ${blocks.join(' and ')}` : ` ${sampleBlock}`})`;
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

/**
 * The age of the node's newest block against the limit the indexer would apply
 * (TOLLGATE_NODE_BEHIND_S_<NETWORK>; the table's on the mainnet): too old, the node is behind.
 */
function newestBlockAge(n: ResolvedNetwork, head: bigint, time: number, mainnet: boolean): string {
  const limit = nodeBehindLimitS(n.symbol, n.nodeBehindS, mainnet);
  const age = Math.floor(Date.now() / 1000) - time;
  const at = `newest block ${head} is ${age} s old`;
  expect(
    limit === 0 || age <= limit,
    `${at}, more than the ${limit} s of TOLLGATE_NODE_BEHIND_S_${n.symbol.toUpperCase()}: the node is behind the network (syncing, or no longer following it)`,
  );
  return limit ? `${at} (limit ${limit} s)` : `${at} (no limit on this chain)`;
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
  await probe('block 0 (the network the node follows)', true, async () => {
    const genesis = await rpc.blockHash(0n);
    const other = anotherNetworksMainnet(n.symbol, { genesisHash: genesis });
    expect(
      !other,
      `block 0 is ${other?.name}'s mainnet's: a node of ${other?.symbol}, not of ${n.symbol}; the indexer refuses it`,
    );
    return genesis === networkInfo(n.symbol)?.genesis_hash
      ? `${networkInfo(n.symbol)?.name}'s mainnet`
      : `not a mainnet (block 0 ${genesis})`;
  });
  let hash: string | null = null;
  await probe('getblockhash', true, async () => {
    hash = await rpc.blockHash(head);
    expect(hash, `no block hash at ${head}`);
    return 'available';
  });
  let prevouts: boolean | undefined;
  let newest: { time: number } | null = null;
  await probe('getblock with transactions', true, async () => {
    newest = hash ? await rpc.block(hash) : null;
    expect(newest, 'no block');
    return 'available';
  });
  await probe('following the network (getblockchaininfo, the newest block)', false, async () => {
    const info = await rpc.chainInfo();
    expect(
      !info?.initialblockdownload,
      `still in its initial block download (block ${info?.blocks} of ${info?.headers} headers): the indexer would follow it behind the network`,
    );
    expect(newest, 'no block');
    const mainnet = info === undefined || info.chain === 'main';
    const age = newestBlockAge(n, head, newest!.time, mainnet);
    return info ? `chain ${info.chain}; ${age}` : `getblockchaininfo missing: ${age}`;
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

/**
 * One network's checks, or (family `smtp`, network `smtp`) the SMTP relay's, with the relay as
 * `host:port` in `relay`.
 */
export interface DoctorReport {
  network: string;
  family: string;
  relay?: string;
  checks: Check[];
}

/**
 * The relay of the Travel Rule e-mail fallback, asked by the worker's own mailer (Mailer.verify:
 * connect, TLS as configured, login, nothing sent; its failure worded as a send's). Required:
 * an operator who configured a relay means e-mails to go through it. The detail names the relay
 * as `host:port`; the mailer's error is already cleared of the URL's login (a relay may echo it).
 */
async function checkSmtp(cfg: TravelRuleConfig, smtpUrl: string): Promise<DoctorReport> {
  const mailer = createMailer(cfg)!;
  const url = new URL(smtpUrl);
  const tls =
    url.protocol === 'smtps:'
      ? 'TLS from the first byte (smtps://)'
      : mailer.starttlsRequired
        ? 'STARTTLS taken'
        : 'STARTTLS if the relay offers it';
  // nodemailer logs in only when the relay offers AUTH: an accepted verify cannot tell more.
  const login = url.username || url.password ? 'login accepted or not offered' : 'no login set';
  const checks: Check[] = [];
  await probeInto(checks)('relay takes e-mails (connect, TLS, login)', true, async () => {
    try {
      await mailer.verify();
    } catch (err) {
      throw new Missing(`${mailer.relay}: ${(err as Error).message}`);
    } finally {
      mailer.close();
    }
    return `${mailer.relay}: reached; ${tls}; ${login}; nothing sent`;
  });
  return { network: 'smtp', family: 'smtp', relay: mailer.relay, checks };
}

/**
 * `tollgate doctor`: the checks of every configured network and of the SMTP relay, or of the ones
 * named (--network, --smtp). The relay's report comes last, after the networks'.
 */
export async function doctorCommand(config: Config, args: string[]): Promise<void> {
  await cmd.run(async () => {
    const { values } = parseOptions({
      args,
      options: {
        network: { type: 'string', multiple: true },
        smtp: { type: 'boolean' },
        json: { type: 'boolean' },
      },
    });
    const named = Boolean(values.network?.length || values.smtp);
    // Without a node configured, `start` indexes its local dev chain as eth: checked when it
    // answers (doctor said "no network configured" of an appliance indexing one).
    const devChain = wantsDevChain(config) ? devChainUrl(config.dev_chain_port) : undefined;
    const devChainUp = devChain !== undefined && (await rpcAnswers(devChain));
    const networks = resolveNetworks(config, devChainUp ? devChain : undefined).filter(
      (n) => !named || values.network?.includes(n.symbol),
    );
    const smtpUrl = config.travel_rule.smtp_url;
    if (values.network?.length && networks.length === 0)
      return cmd.fail(
        `not configured: ${values.network.join(', ')} (set TOLLGATE_RPC_<NETWORK>)`,
        1,
      );
    if (values.smtp && !smtpUrl)
      return cmd.fail('no SMTP relay configured (set TOLLGATE_SMTP_URL)', 1);
    if (networks.length === 0 && !smtpUrl)
      return cmd.fail(
        devChain
          ? `no network configured (set TOLLGATE_RPC_<NETWORK>), and no SMTP relay (TOLLGATE_SMTP_URL); start indexes a local dev chain as eth on ${devChain} (TOLLGATE_DEV_CHAIN_PORT), which does not answer now: run doctor while the appliance runs`
          : 'no network configured (set TOLLGATE_RPC_<NETWORK>), and no SMTP relay (TOLLGATE_SMTP_URL)',
        1,
      );
    const reports: DoctorReport[] = [];
    for (const n of networks)
      reports.push({
        network: n.symbol,
        family: n.family,
        checks: n.family === 'evm' ? await checkEvm(n) : await checkUtxo(n),
      });
    if (smtpUrl && (!named || values.smtp))
      reports.push(await checkSmtp(config.travel_rule, smtpUrl));
    const failed = reports.some((r) => r.checks.some((c) => c.required && !c.ok));
    if (values.json) process.stdout.write(JSON.stringify(reports) + '\n');
    else {
      for (const r of reports) {
        process.stdout.write(
          r.family === 'smtp'
            ? 'smtp relay (Travel Rule e-mail fallback)\n'
            : `${r.network} (${r.family})\n`,
        );
        for (const c of r.checks)
          process.stdout.write(
            `  ${c.ok ? 'ok     ' : c.required ? 'MISSING' : 'missing'}  ${c.name}: ${c.detail}\n`,
          );
      }
      // What was not asked about, in one line each: not a failure.
      if (!named && networks.length === 0)
        process.stdout.write('networks: none configured (TOLLGATE_RPC_<NETWORK>)\n');
      if (!named && !smtpUrl)
        process.stdout.write(
          'smtp relay: none configured (TOLLGATE_SMTP_URL): no e-mail is sent, and a transfer that needs one is refused (503)\n',
        );
    }
    if (failed) process.exitCode = 1;
  });
}
