/**
 * EVM backfill throughput: a local node (Hardhat or anvil) with B blocks of T transfers each; first the raw
 * fetch rate of those blocks (blocks with transactions and receipts, the indexer's own fetcher,
 * nothing stored: the ceiling), then the indexer backfilling them into an embedded Postgres.
 * The indexer runs as its own process (`tollgate indexer`), timed from its "indexer active" log
 * line to the cursor reaching the last block; its peak RSS (VmHWM) is reported. The raw fetch
 * runs once before the backfill and once after it; the ceiling is the two together.
 *   npm run bench:backfill                     200 × 60 and 2,000 × 60 blocks, on Hardhat and on anvil
 *   npm run bench:backfill -- blocks tx-per-block [hardhat|anvil]      one run
 * BENCH_LABELS=N labels N addresses before the indexer starts: the sender (mixer), one recipient
 * (sanctioned) and N-2 addresses the chain never touches (sanctioned), so every transaction links
 * a labelled address and the stored AML exposure's counts (direct and indirect) move with each
 * batch: the indexer's cost with labels, against BENCH_LABELS=0 (the default: no category counts).
 * BENCH_RECIPIENTS=N spreads the transfers over N recipients (default 20).
 * BENCH_INTERNAL_TRANSFERS=auto|off: whether the raw fetch and the indexer read each block's call
 * traces (TOLLGATE_INTERNAL_TRANSFERS_ETH; default auto, as the appliance: anvil has them, Hardhat
 * has none), to weigh what they cost.
 * writes bench/results/backfill.json (every run of the invocation).
 * Figures, not assertions.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestClient, http, parseEther, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { hardhat } from 'viem/chains';
import { loadConfig } from '../src/config/index.js';
import { openDatabase } from '../src/db/open.js';
import { createEvmBlockSource } from '../src/chains/evm/client.js';
import { mapWithConcurrency } from '../src/concurrency.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { type DevChainNode, startDevChain } from '../src/devchain/devchain.js';
import { setLogLevel } from '../src/log.js';
import { freePort } from '../support/ports.js';
import { machine, round, writeResult } from './lib/common.js';
import { childPid, cpuSeconds, cpuSpent, cpuSum } from './lib/cpu.js';
import { startRole } from './lib/role.js';

const FETCH_CONCURRENCY = 8;
const BATCH_BLOCKS = 50;
const INTERNAL_TRANSFERS = process.env.BENCH_INTERNAL_TRANSFERS === 'off' ? 'off' : 'auto';

setLogLevel('warn');

async function runOne(NODE: DevChainNode, BLOCKS: number, TX_PER_BLOCK: number) {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-'));
  chmodSync(dir, 0o711);
  const chain = await startDevChain(await freePort(), NODE);
  const test = createTestClient({ chain: hardhat, mode: 'hardhat', transport: http(chain.url) });
  await test.request({ method: 'evm_setIntervalMining', params: [0] } as never);
  await test.setAutomine(false);

  // Build the chain: signed transfers with explicit nonces, sent in JSON-RPC batches, then a block.
  const sender = privateKeyToAccount(generatePrivateKey());
  await test.setBalance({ address: sender.address, value: parseEther('1000000') });
  // BENCH_RECIPIENTS: how many distinct recipients the transfers go to in turn (20 by default;
  // as many as transactions makes the sender a hub with a new counterparty in every one).
  const recipients = Array.from(
    { length: Number(process.env.BENCH_RECIPIENTS ?? 20) },
    (_, i) => `0x${(i + 1).toString(16).padStart(8, '0')}${'ab'.repeat(16)}` as Hex,
  );
  const startBlock = (await test.request({ method: 'eth_blockNumber' } as never)) as unknown as Hex;
  let nonce = 0;
  const built = performance.now();
  for (let b = 0; b < BLOCKS; b++) {
    const raws = await Promise.all(
      Array.from({ length: TX_PER_BLOCK }, (_, i) =>
        sender.signTransaction({
          chainId: 31337,
          type: 'eip1559',
          nonce: nonce++,
          to: recipients[(b * TX_PER_BLOCK + i) % recipients.length]!,
          value: BigInt(i + 1),
          gas: 21000n,
          maxFeePerGas: 100_000_000_000n,
          maxPriorityFeePerGas: 1_000_000_000n,
        }),
      ),
    );
    await fetch(chain.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        raws.map((r, i) => ({
          jsonrpc: '2.0',
          id: i,
          method: 'eth_sendRawTransaction',
          params: [r],
        })),
      ),
    });
    await test.request({ method: 'evm_mine', params: [] } as never);
  }
  const first = BigInt(startBlock) + 1n;
  const last = first + BigInt(BLOCKS) - 1n;
  console.log(
    `built ${BLOCKS} blocks x ${TX_PER_BLOCK} transactions in ${Math.round(performance.now() - built)} ms`,
  );

  // The ceiling: fetch every block with its receipts, store nothing. Once before the backfill and
  // once after it: the machine's speed drifts by a tenth or more between minutes (the node's CPU
  // per transaction with it), and the backfill is compared with the two fetches around it.
  const source = createEvmBlockSource(chain.url, { internalTransfers: INTERNAL_TRANSFERS });
  const numbers = Array.from({ length: BLOCKS }, (_, i) => first + BigInt(i));
  const nodePid = childPid(/hardhat|anvil/);
  const rawFetch = async () => {
    const cpu = cpuSeconds({ node: nodePid });
    const start = performance.now();
    const blocks = await mapWithConcurrency(numbers, FETCH_CONCURRENCY, (n) =>
      source.fetchBlock(n),
    );
    const s = (performance.now() - start) / 1000;
    return { s, spent: cpuSpent(cpu, cpuSeconds({ node: nodePid })), blocks };
  };
  const before = await rawFetch();
  const txTotal = before.blocks.reduce((n, b) => n + (b?.transactions.length ?? 0), 0);

  // The indexer: backfill the same blocks into Postgres.
  const pg = await startEmbeddedPostgres(join(dir, 'pg'), await freePort());
  const env = {
    DATABASE_URL: pg.url,
    TOLLGATE_DATA_DIR: dir,
    TOLLGATE_HOST: '127.0.0.1',
    TOLLGATE_PORT: '0',
    TOLLGATE_RPC_ETH: chain.url,
    TOLLGATE_START_BLOCK_ETH: first.toString(),
    TOLLGATE_POLL_INTERVAL_MS_ETH: '20',
    TOLLGATE_FINALITY_ETH: 'depth',
    TOLLGATE_LOG_LEVEL: 'info',
    TOLLGATE_INTERNAL_TRANSFERS_ETH: INTERNAL_TRANSFERS,
  };
  const db = await openDatabase(loadConfig(env)); // migrated before the indexer starts
  const labels = Number(process.env.BENCH_LABELS ?? 0);
  if (labels > 0) {
    const addresses = [sender.address, recipients[0]!].map((a) => a.toLowerCase());
    await db.sql`insert into labels (network, address, category, source)
      values ('eth', ${addresses[0]!}, 'mixer', 'bench'), ('eth', ${addresses[1]!}, 'sanctioned', 'bench')`;
    if (labels > 2)
      await db.sql`insert into labels (network, address, category, source)
        select 'eth', '0x' || lpad(to_hex(g), 40, '0'), 'sanctioned', 'bench' from generate_series(1, ${labels - 2}) g`;
  }
  const indexer = startRole('indexer', env);
  await indexer.logged('indexer active');
  const postmaster = Number(
    readFileSync(join(dir, 'pg', 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
  );
  const roots = { node: nodePid, postgres: postmaster, indexer: indexer.pid };
  const indexCpu = cpuSeconds(roots);
  const indexStart = performance.now();
  // The cursor asked every 100 ms, and every 5 ms once the rest would take under half a second at
  // the rate so far: the end is seen within 5 ms (late, never early), while the asking takes a
  // fifth of the CPU that asking every 10 ms throughout did (in this process alone about 3 ms
  // per 1,000 transactions, from the cores the node and the indexer share).
  for (;;) {
    const [row] = await db.sql`select block_number from indexer_cursors where network = 'eth'`;
    const done = row ? Number(BigInt(row.block_number) - first + 1n) : 0;
    if (done >= BLOCKS) break;
    const msLeft = ((BLOCKS - done) * (performance.now() - indexStart)) / Math.max(done, 1);
    await new Promise((r) => setTimeout(r, msLeft < 500 ? 5 : 100));
  }
  const indexS = (performance.now() - indexStart) / 1000;
  const indexSpent = cpuSpent(indexCpu, cpuSeconds(roots));
  const indexerRssMb = await indexer.stop();
  const after = await rawFetch();
  const fetchS = before.s + after.s;
  const fetchSpent = cpuSum(before.spent, after.spent);
  const [stored] =
    await db.sql`select count(*)::int as n from evm_transactions where block_number between ${first.toString()} and ${last.toString()}`;
  await db.close();

  const host = machine();
  const cores = host.cpus;
  const result = {
    date: new Date().toISOString(),
    machine: host,
    blocks: BLOCKS,
    tx_per_block: TX_PER_BLOCK,
    transactions: txTotal,
    stored_transactions: stored!.n,
    settings: {
      labels: Number(process.env.BENCH_LABELS ?? 0),
      recipients: recipients.length,
      fetch_concurrency: FETCH_CONCURRENCY,
      batch_blocks: BATCH_BLOCKS,
      node: NODE,
      receipts:
        NODE === 'hardhat'
          ? 'eth_getTransactionReceipt per transaction (Hardhat has no eth_getBlockReceipts)'
          : 'eth_getBlockReceipts',
      internal_transfers: INTERNAL_TRANSFERS,
      // Whether the node answered the blocks' call traces (the first block with transactions).
      traced: before.blocks.find((b) => b?.transactions.length)?.traced ?? false,
    },
    backfill: {
      blocks_per_s: round(BLOCKS / indexS),
      tx_per_s: round(txTotal / indexS),
      // Over both raw fetches (their mean wall time), and each.
      raw_fetch_blocks_per_s: round((2 * BLOCKS) / fetchS),
      raw_fetch_tx_per_s: round((2 * txTotal) / fetchS),
      raw_fetch_before_tx_per_s: round(txTotal / before.s),
      raw_fetch_after_tx_per_s: round(txTotal / after.s),
    },
    // The most the backfill could have reached on this machine's cores: the CPU it took (every
    // process, the node's included) spread over all the cores with none idle, against one raw
    // fetch's wall time. Below 100%, the cores alone keep it from the raw fetch's rate; the
    // distance between this and the share is the time cores stood idle.
    cpu_bound_share: round(
      (cores * (fetchS / 2) * 100) / Object.values(indexSpent).reduce((a, b) => a + b, 0),
    ),
    rss_mb: { indexer: indexerRssMb },
    // CPU seconds by process tree (the node, Postgres, the indexer, this benchmark) while the
    // raw fetches (both together) and the backfill ran, beside the wall time: where the machine's
    // cores went.
    cpu_s: {
      raw_fetch: { wall: round(fetchS), ...fetchSpent },
      backfill: { wall: round(indexS), ...indexSpent },
    },
  };
  console.log(
    `raw fetch: ${result.backfill.raw_fetch_blocks_per_s} blocks/s, ${result.backfill.raw_fetch_tx_per_s} tx/s (the ceiling; before the backfill ${result.backfill.raw_fetch_before_tx_per_s}, after it ${result.backfill.raw_fetch_after_tx_per_s} tx/s)`,
  );
  console.log(
    `backfill:  ${result.backfill.blocks_per_s} blocks/s, ${result.backfill.tx_per_s} tx/s into Postgres (${round((result.backfill.tx_per_s / result.backfill.raw_fetch_tx_per_s) * 100)}% of the ceiling)`,
  );
  console.log(
    `bound:     at most ${result.cpu_bound_share}% on ${cores} cores (all the CPU the backfill took, spread over them with none idle, in the raw fetch's time)`,
  );
  console.log(
    `call traces: ${INTERNAL_TRANSFERS === 'off' ? 'off' : result.settings.traced ? 'read (internal transfers)' : 'none (the node has no call traces)'}`,
  );
  console.log(`indexer peak RSS: ${indexerRssMb} MiB`);
  const perKtx = (spent: Record<string, number>, tx: number) =>
    Object.entries(spent)
      .map(([k, v]) => `${k} ${Math.round((v / tx) * 1e6)}`)
      .join(', ');
  console.log(
    `CPU ms per 1,000 tx: raw fetch ${perKtx(fetchSpent, 2 * txTotal)} (wall ${Math.round((fetchS / (2 * txTotal)) * 1e6)}); backfill ${perKtx(indexSpent, txTotal)} (wall ${Math.round((indexS / txTotal) * 1e6)}), on ${cores} cores`,
  );
  if (stored!.n !== txTotal)
    console.warn(`WARNING: stored ${stored!.n} transactions, expected ${txTotal}`);

  await chain.stop();
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
  return result;
}

const runs: [DevChainNode, number, number][] =
  process.argv[2] !== undefined
    ? [
        [
          (process.argv[4] ?? 'hardhat') as DevChainNode,
          Number(process.argv[2]),
          Number(process.argv[3] ?? 60),
        ],
      ]
    : [
        ['hardhat', 200, 60],
        ['anvil', 200, 60],
        ['hardhat', 2000, 60],
        ['anvil', 2000, 60],
      ];
const results = [];
for (const [node, blocks, tx] of runs) {
  console.log(`--- ${node}, ${blocks} blocks x ${tx} transactions`);
  results.push(await runOne(node, blocks, tx));
}
writeResult(
  'backfill',
  results.length === 1 ? results[0] : { date: new Date().toISOString(), runs: results },
);
