import { type Hex, numberToHex, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../src/db/index.js';
import { createApiKey } from '../src/keys/keys.js';
import { graphOf, trackLiveAml } from './helpers/aml-graph.js';
import { startTestAppliance } from './helpers/appliance.js';
import { Mixer, Refuser, Refunder } from './helpers/mixer.js';
import { fundedWallet } from './helpers/chain.js';
import { type CliRun, logLines, runCli } from './helpers/cli.js';
import { eventually } from './helpers/eventually.js';
import { getBackfill } from '../src/indexer/backfill.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { startOwnChain, type OwnChain } from './helpers/own-chain.js';
import { Receiver } from './helpers/receiver.js';
import { type RpcAnswer, type RpcCall, rewritingProxy } from './helpers/rewriting-proxy.js';

/**
 * `tollgate indexer retrace`: blocks stored without their call traces (the node had none, or
 * not the state for the block; or stored before internal transfers were read) get them once the
 * node has them. One anvil chain, two appliances on it: A reads it directly and traces every
 * block as it comes; B reads it through a JSON-RPC proxy that answers the trace calls as a node
 * without them does ("method not found", the JSON-RPC 2.0 code -32601), until the proxy lets
 * them through. After B's retrace, B's internal transfers, touched addresses and AML graph must
 * be A's, with no webhook fired for the history. Then a node that cannot trace a block, a node
 * without traces, and bad requests.
 */

const TRACE_METHODS = new Set([
  'trace_block',
  'trace_transaction',
  'debug_traceBlockByNumber',
  'debug_traceTransaction',
]);

let chain: OwnChain;
let proxy: Awaited<ReturnType<typeof rewritingProxy>>;
let dbA: TestDatabase;
let dbB: TestDatabase;
let appA: Awaited<ReturnType<typeof startTestAppliance>>;
let appB: Awaited<ReturnType<typeof startTestAppliance>> | undefined;
let indexerEnv: Record<string, string>;
const children: CliRun[] = [];
let aml: Receiver;
let streams: Receiver;
let apikeyB: string;
let mixer: Hex;
let owner: Awaited<ReturnType<typeof fundedWallet>>;

const account = () => fundedWallet('10', chain.url);
const fresh = () => privateKeyToAccount(generatePrivateKey()).address.toLowerCase() as Hex;

/** The node's answer to a trace call where it has none (geth without `debug`, Hardhat). */
const noSuchMethod = (c: RpcCall): RpcAnswer => ({
  jsonrpc: '2.0',
  id: c.id,
  error: { code: -32601, message: `the method ${c.method} does not exist/is not available` },
});
/** B's node from now on: without call traces (the default), or with them but one block's state. */
const refuseTraces = () =>
  proxy.set((c, own) => (TRACE_METHODS.has(c.method) ? noSuchMethod(c) : own));
const allowTraces = () => proxy.set(undefined);

/** Everything a retrace adds, in order, to compare B with A. */
async function traceData(sql: Sql) {
  return {
    internal: await sql`
      select block_number::text, tx_hash, trace_index, kind, from_address, to_address, value::text, timestamp::text
      from evm_internal_transfers where network = 'eth' order by block_number, tx_hash, trace_index`,
    touched: await sql`
      select address, block_number::text, tx_hash, timestamp::text from evm_tx_addresses
      where network = 'eth' order by block_number, tx_hash, address`,
    counts: await sql`
      select c.address, c.n::text from address_tx_counts c
      where c.address in (select address from evm_tx_addresses where network = 'eth') order by c.address`,
    ...(await graphOf(sql)),
  };
}

const bothAtHead = async () => {
  await chain.indexedHead(dbA.sql);
  await chain.indexedHead(dbB.sql);
};

const untraced = async (sql = dbB.sql) =>
  (
    await sql<{ number: string }[]>`
      select number::text from evm_blocks where network = 'eth' and traced is not true and tx_count > 0 order by number`
  ).map((r) => BigInt(r.number));

async function retrace(args: string[] = []) {
  const run = runCli(dbB.url, ['indexer', 'retrace', '--network', 'eth', ...args]);
  const code = await run.exited;
  return {
    code,
    out: run.out(),
    err: run.err(),
    json: code === 0 || args.includes('--wait') ? safeJson(run.lastLine()) : undefined,
  };
}

function safeJson(line: string) {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

beforeAll(async () => {
  chain = await startOwnChain({ node: 'anvil' });
  proxy = await rewritingProxy(chain.url);
  refuseTraces();
  dbA = await freshDatabase();
  dbB = await freshDatabase();
  aml = await new Receiver().start();
  streams = await new Receiver().start();
  owner = await account();
  mixer = (await owner.deploy(Mixer!)).toLowerCase() as Hex;
  await (await account()).send(mixer, parseEther('5'));
  for (const db of [dbA, dbB])
    await db.sql`insert into labels (network, address, category, source) values ('evm', ${mixer}, 'mixer', 'test')`;
  // Both from the same block: what each stores of the chain is comparable row for row.
  const start = String((await chain.pub.getBlockNumber()) + 1n);
  const env = {
    TOLLGATE_FINALITY_ETH: 'depth',
    TOLLGATE_CONFIRMATIONS_ETH: '2',
    TOLLGATE_POLL_INTERVAL_MS_ETH: '50',
    TOLLGATE_START_BLOCK_ETH: start,
  };
  appA = await startTestAppliance(dbA.url, { ...env, TOLLGATE_RPC_ETH: chain.url });
  indexerEnv = { ...env, TOLLGATE_RPC_ETH: proxy.url };
  appB = await startTestAppliance(dbB.url, indexerEnv);
  apikeyB = (await createApiKey(dbB.sql, 'retrace')).apikey;
}, 120_000);

afterAll(async () => {
  for (const c of children) c.child.kill('SIGKILL');
  await appA?.stop();
  await appB?.stop();
  await aml?.stop();
  await streams?.stop();
  await dbA?.drop();
  await dbB?.drop();
  await proxy?.close();
  await chain?.stop();
});

describe('tollgate indexer retrace', () => {
  let payout: Hex;
  let recipient: Hex;

  it("adds what blocks stored without traces missed (a mixer's payout, a refund, a contract's failed call): the same rows and graph as a node with traces gives, and no webhook", async () => {
    recipient = fresh();
    await trackLiveAml(appB!.baseUrl, apikeyB, recipient, aml.url, streams.url);
    const relayer = await account();
    payout = (await relayer.write(mixer, Mixer!.abi, 'withdraw', [recipient, parseEther('1')]))
      .transactionHash;
    // Paid to a contract that pays half of it back inside the same transaction: the sender and
    // the contract are one edge of one transaction, counted once.
    const refunder = (await owner.deploy(Refunder!)).toLowerCase() as Hex;
    await (await account()).send(refunder, 1000n);
    const refuser = (await owner.deploy(Refuser!)).toLowerCase() as Hex;
    await (await account()).write(mixer, Mixer!.abi, 'tryPay', [refuser, 7n]);
    await (await account()).send(fresh(), 5n);
    await bothAtHead();

    const missing = await untraced();
    expect(missing.length).toBeGreaterThanOrEqual(5);
    expect(await untraced(dbA.sql)).toEqual([]);
    // Stored before internal transfers were read (sql/0063): traced is null.
    await dbB.sql`update evm_blocks set traced = null where network = 'eth' and number = ${missing[0]!.toString()}`;
    expect(await traceData(dbB.sql)).not.toEqual(await traceData(dbA.sql));
    const before = await call(
      appB!.baseUrl,
      'GET',
      `/v2/wallet/transactions?address=${recipient}&page=1&limit=10`,
      { headers: { apikey: apikeyB } },
    );
    expect(before.json.data).toEqual([]);

    allowTraces();
    const run = await retrace(['--wait']);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(
      /^Retrace #\d+ of eth, stored blocks \d+–\d+ without their call traces/m,
    );
    expect(run.json).toMatchObject({ kind: 'traces', status: 'done', network: 'eth' });
    expect(Number(run.json.blocks_done)).toBeGreaterThanOrEqual(missing.length);

    expect(await untraced()).toEqual([]);
    expect(await traceData(dbB.sql)).toEqual(await traceData(dbA.sql));
    const history = await call(
      appB!.baseUrl,
      'GET',
      `/v2/wallet/transactions?address=${recipient}&page=1&limit=10`,
      { headers: { apikey: apikeyB } },
    );
    expect(history.json.data.map((t: { hash: string }) => t.hash)).toEqual([payout]);
    const analysis = await call(
      appB!.baseUrl,
      'GET',
      `/v2/analyze/aml?address=${recipient}&network=eth`,
      { headers: { apikey: apikeyB } },
    );
    expect(analysis.json.data.tags.direct_mixer).toBe(true);
    // History: no stream event or live AML alert for it, now or later.
    expect(await dbB.sql`select kind from webhook_events where tx_hash = ${payout}`).toEqual([]);
    expect(streams.received.filter((r) => r.json?.tx?.hash === payout)).toEqual([]);
    expect(aml.received.filter((r) => r.json?.hash === payout)).toEqual([]);
    expect(
      await dbB.sql`select actor from audit_log where action = 'indexer_retrace' and target = 'eth'`,
    ).toHaveLength(1);
    const metrics = await call(appB!.baseUrl, 'GET', '/metrics');
    expect(metrics.text).toMatch(/^tollgate_retrace_blocks_total\{network="eth"\} [1-9]\d*$/m);
    expect(metrics.text).toMatch(/^tollgate_retrace_remaining_blocks\{network="eth"\} 0$/m);
    expect(metrics.text).toMatch(/^tollgate_backfill_blocks_total\{network="eth"\} 0$/m);

    const again = await retrace();
    expect(again.code).toBe(1);
    expect(again.err).toContain('nothing to retrace: every stored eth block in ');
    const list = runCli(dbB.url, ['indexer', 'backfill', 'list']);
    expect(await list.exited).toBe(0);
    expect(list.out()).toMatch(/^#\d+ {2}retrace {2}eth {2}\d+–\d+ {2}done {2}\d+ blocks traced/m);
  });

  it('keeps the graph right through a reorg of retraced blocks: each transaction counted once, taken back once', async () => {
    await bothAtHead();
    const snapshot = await chain.test.snapshot();
    refuseTraces();
    await (await account()).write(mixer, Mixer!.abi, 'withdraw', [fresh(), 3n]);
    const refunder = (await owner.deploy(Refunder!)).toLowerCase() as Hex;
    await (await account()).send(refunder, 100n);
    await bothAtHead();
    allowTraces();
    expect((await retrace(['--wait'])).code).toBe(0);
    expect(await traceData(dbB.sql)).toEqual(await traceData(dbA.sql));

    await chain.test.revert({ id: snapshot });
    await chain.mine(4);
    await bothAtHead();
    expect(await traceData(dbB.sql)).toEqual(await traceData(dbA.sql));
  });

  it('stops on a block the node cannot trace, naming it, with the blocks above it done; and on a node without traces', async () => {
    refuseTraces();
    const low = await (await account()).write(mixer, Mixer!.abi, 'withdraw', [fresh(), 11n]);
    const high = await (await account()).write(mixer, Mixer!.abi, 'withdraw', [fresh(), 12n]);
    await bothAtHead();
    expect(await untraced()).toEqual([low.blockNumber, high.blockNumber]);
    // A full node: the state to re-run the lower block is gone (geth's answer).
    proxy.set((c, own) =>
      c.method === 'trace_block' && c.params?.[0] === numberToHex(low.blockNumber)
        ? {
            jsonrpc: '2.0',
            id: c.id,
            error: { code: -32000, message: 'required historical state unavailable (reexec=128)' },
          }
        : own,
    );
    const failed = await retrace(['--wait']);
    expect(failed.code).toBe(1);
    expect(failed.json).toMatchObject({ status: 'failed', kind: 'traces' });
    expect(failed.json.error).toBe(
      `the eth node cannot trace block ${low.blockNumber} (required historical state unavailable (reexec=128)): blocks this old need an archive node; blocks above it are traced`,
    );
    expect(await untraced()).toEqual([low.blockNumber]);

    refuseTraces();
    const none = await retrace(['--wait']);
    expect(none.code).toBe(1);
    expect(none.json.error).toMatch(
      /^the eth node has no call traces \(debug_traceBlockByNumber: the method debug_traceBlockByNumber does not exist\/is not available\): retrace with a node that has trace_block or debug_traceBlockByNumber$/,
    );
    expect(await untraced()).toEqual([low.blockNumber]);

    allowTraces();
    expect((await retrace(['--wait'])).code).toBe(0);
    expect(await untraced()).toEqual([]);
    expect(await traceData(dbB.sql)).toEqual(await traceData(dbA.sql));
  });

  it('refuses what it cannot do, with the reason', async () => {
    const refused = async (args: string[], code: number, message: string | RegExp) => {
      const run = runCli(dbB.url, ['indexer', 'retrace', ...args]);
      expect(await run.exited).toBe(code);
      expect(run.err()).toMatch(message);
    };
    await refused(['--network', 'litecoin'], 1, /litecoin has no call traces to read/);
    await refused(['--network', 'trx'], 1, /trx has no call traces to read/);
    await refused(['--network', 'nope'], 1, /unknown network nope/);
    await refused(
      ['--network', 'eth', '--from', '10', '--to', '5'],
      1,
      /to block 5 is below from block 10/,
    );
    await refused(['--network', 'eth', '--from', 'x'], 2, /--from must be a block number, got "x"/);
    await refused([], 2, /indexer retrace needs --network X/);
    const head = await chain.pub.getBlockNumber();
    await refused(
      ['--network', 'eth', '--from', String(head + 1000n)],
      1,
      `from block ${head + 1000n} is above the indexed head`,
    );
    // Nothing was queued by any of them.
    expect(await dbB.sql`select 1 from indexer_backfills where status = 'running'`).toEqual([]);
  });

  it('goes on after a kill -9 of the indexer that runs it, tracing each block once', async () => {
    refuseTraces();
    // More blocks with transactions than one batch (50), so that the kill lands between batches.
    const payer = await account();
    for (let i = 0; i < 120; i++) {
      if (i % 10 === 0) await payer.write(mixer, Mixer!.abi, 'withdraw', [fresh(), BigInt(i + 1)]);
      else await chain.send(fresh(), 1n);
    }
    await bothAtHead();
    expect((await untraced()).length).toBeGreaterThanOrEqual(120);
    await appB!.stop();
    appB = undefined;
    // The node has traces again, and answers them slowly: the retrace takes a few seconds.
    proxy.set(async (c, own) => {
      if (c.method === 'trace_block') await new Promise((r) => setTimeout(r, 150));
      return own;
    });
    const start = () => {
      const run = runCli(dbB.url, ['indexer'], indexerEnv, 'info');
      children.push(run);
      return run;
    };
    let indexer = start();
    const queued = await retrace();
    expect(queued.code, queued.err).toBe(0);
    const id = queued.json.id as string;
    await eventually(
      () => getBackfill(dbB.sql, id),
      (b) => b !== undefined && Number(b.blocks_done) > 0,
      60_000,
    );
    indexer.child.kill('SIGKILL');
    await indexer.exited;
    const killedAt = (await getBackfill(dbB.sql, id))!;
    expect(killedAt.status).toBe('running');
    expect((await untraced()).length).toBeGreaterThan(0);

    indexer = start();
    await eventually(
      () => getBackfill(dbB.sql, id),
      (b) => b?.status === 'done',
      90_000,
    );
    indexer.child.kill('SIGTERM');
    await indexer.exited;
    expect(await untraced()).toEqual([]);
    await chain.indexedHead(dbA.sql);
    expect(await traceData(dbB.sql)).toEqual(await traceData(dbA.sql));
    const said = logLines(indexer.err()).map((l) => l.msg);
    expect(said).toContain('retrace done');
    expect(said).toContain('retrace: internal transfers added');
  }, 180_000);
});
