import { freshDatabase } from '../helpers/db.js';
import { startLitecoind, type Litecoind } from '../helpers/litecoind.js';
import { settleAndCheck, streamsAndRoles, type ScenarioOptions } from './harness.js';
import { litecoinFamily, type Canonical, type CanonicalTx } from './invariants.js';
import { scenarioRng, type Rng } from './seed.js';
import { runSteps } from './traffic.js';

/**
 * A Bitcoin-family scenario's world: a `litecoind -regtest` of its own with wallet payments
 * flowing (and, when asked, short reorgs), a database, two API keys with streams to two
 * receivers (three streamed addresses of the node's wallet, so its payments also spend their
 * coins), and the indexer and worker as child processes. The checks are the EVM scenarios'
 * (./invariants.ts), read from this node's chain: the Bitcoin shape's top-level `address`,
 * `hash` and `blockNumber` identify a delivery.
 */

/** Coinbases mature after 100 blocks: 110 give the wallet ten coins to pay from. */
const SETUP_BLOCKS = 110;
/**
 * The first block indexed: coins created below it are looked up at the node
 * (`getrawtransaction`), as on a real first start.
 */
const START_BLOCK = 100;

export interface UtxoScenarioOptions {
  confirmations: number;
  /** The scenario's test file (its name without the directory), for the replay line. */
  file: string;
  /** The scenario's database; by default a fresh one on the suite's Postgres. */
  database?: ScenarioOptions['database'];
  /**
   * The JSON-RPC URL the roles are given, from the node's URL without its credentials (a fault
   * proxy in front of the node); the node's credentials are added to it. Default the node's.
   */
  rpcUrl?: (nodeUrl: string, rng: Rng) => Promise<string>;
}

export async function startUtxoScenario(name: string, opts: UtxoScenarioOptions) {
  const rng: Rng = scenarioRng(name, opts.file);
  const node = await startLitecoind();
  await node.mine(SETUP_BLOCKS);
  const db = opts.database ?? (await freshDatabase());
  const streamed = [
    await node.rpc<string>('getnewaddress', '', 'bech32'),
    await node.rpc<string>('getnewaddress', '', 'legacy'),
    await node.rpc<string>('getnewaddress', '', 'bech32'),
  ];
  let rpcUrl = node.rpcUrl;
  if (opts.rpcUrl) {
    const { username, password } = new URL(node.rpcUrl);
    const plain = new URL(node.rpcUrl);
    [plain.username, plain.password] = ['', ''];
    const proxied = new URL(await opts.rpcUrl(plain.origin, rng.fork('rpc-proxy')));
    [proxied.username, proxied.password] = [username, password];
    rpcUrl = proxied.href.replace(/\/$/, '');
  }
  const { receivers, endpoints, roles, working } = await streamsAndRoles(db, streamed, 'utxo', {
    TOLLGATE_RPC_LITECOIN: rpcUrl,
    TOLLGATE_CONFIRMATIONS_LITECOIN: String(opts.confirmations),
    TOLLGATE_START_BLOCK_LITECOIN: String(START_BLOCK),
    TOLLGATE_POLL_INTERVAL_MS_LITECOIN: '50',
  });
  // A reorg waits (briefly) for the blocks it orphans to be indexed, so that it orphans events
  // that were created and often delivered, which must then be retracted.
  const indexedUpTo = async (hash: string) => {
    const [row] = await db.sql<
      { block_hash: string }[]
    >`select block_hash from indexer_cursors where network = 'litecoin'`.catch(() => []);
    return row?.block_hash === hash;
  };
  const traffic = new UtxoTraffic(node, streamed, opts.confirmations - 1, indexedUpTo);
  const family = litecoinFamily(node.rpcUrl, opts.confirmations, START_BLOCK);

  return {
    rng,
    node,
    db,
    receivers,
    roles,
    traffic,
    working,
    finish: () =>
      settleAndCheck({
        name,
        db,
        roles,
        endpoints,
        streamed,
        family,
        confirmations: opts.confirmations,
        mine: (n) => node.mine(n),
        canonical: () => readUtxoCanonical(node, START_BLOCK),
      }),
    async close(): Promise<void> {
      await Promise.all(Object.values(roles).map((r) => r.stop().catch(() => {})));
      for (const r of receivers) await r.stop();
      await db.drop().catch(() => {});
      await node.stop();
    },
  };
}

/** The address a script output pays, as the node reports it (older nodes: `addresses`). */
const paidTo = (spk: { address?: string; addresses?: string[] }): string | undefined =>
  spk.address ?? spk.addresses?.[0];

/**
 * Blocks `from`..best from the node, each transaction with every address it touches: those of
 * the coins it spends (looked up by id: the node keeps a transaction index) and of its outputs.
 */
export async function readUtxoCanonical(node: Litecoind, from: number): Promise<Canonical> {
  const headHash = await node.rpc<string>('getbestblockhash');
  const head = (await node.rpc<{ height: number }>('getblockheader', headHash)).height;
  const blocks = new Map<number, string>();
  const txs = new Map<string, CanonicalTx>();
  const outputs = new Map<string, (string | undefined)[]>();
  const outputsOf = async (txid: string) => {
    let known = outputs.get(txid);
    if (!known) {
      const tx = await node.rpc<{ vout: { scriptPubKey: any }[] }>('getrawtransaction', txid, true);
      known = tx.vout.map((o) => paidTo(o.scriptPubKey));
      outputs.set(txid, known);
    }
    return known;
  };
  for (let n = from; n <= head; n++) {
    const hash = await node.rpc<string>('getblockhash', n);
    const block = await node.rpc<{ tx: any[] }>('getblock', hash, 2);
    blocks.set(n, hash);
    for (const tx of block.tx) {
      const touched = new Set<string>();
      const paid = tx.vout.map((o: { scriptPubKey: any }) => paidTo(o.scriptPubKey));
      outputs.set(tx.txid, paid);
      for (const a of paid) if (a) touched.add(a.toLowerCase());
      for (const vin of tx.vin) {
        if (vin.coinbase !== undefined) continue;
        const spent = (await outputsOf(vin.txid))[vin.vout];
        if (spent) touched.add(spent.toLowerCase());
      }
      txs.set(tx.txid, { hash: tx.txid, blockNumber: n, blockHash: hash, touched });
    }
  }
  return { head, headHash, blocks, txs };
}

/**
 * Wallet payments on the scenario's node, chosen by its PRNG: to streamed and unstreamed
 * addresses, one or several per block, empty blocks, and reorgs of up to `maxReorgDepth` blocks
 * (the tip's blocks invalidated and a longer branch mined: their payments go back to the
 * mempool and into the new branch, in another block).
 */
export class UtxoTraffic {
  sent = 0;
  reorgs = 0;

  constructor(
    private readonly node: Litecoind,
    private readonly streamed: readonly string[],
    private readonly maxReorgDepth: number,
    /** Whether the indexer has reached this block (false when it cannot be told). */
    private readonly indexedUpTo: (hash: string) => Promise<boolean> = async () => true,
  ) {}

  private async pay(rng: Rng): Promise<void> {
    const to = rng.chance(0.8)
      ? rng.pick(this.streamed)
      : await this.node.rpc<string>('getnewaddress', '', rng.pick(['bech32', 'legacy']));
    // 0.001 to 0.1 LTC, in litoshi steps: well above the dust limit, and the wallet's 500 LTC last.
    const amount = rng.int(100_000, 10_000_000) / 1e8;
    await this.node.rpc('sendtoaddress', to, amount);
    this.sent++;
  }

  /** One step: a payment in a block of its own, several in one block, an empty block, or a reorg. */
  async step(rng: Rng, reorgs: boolean): Promise<void> {
    const r = rng.next();
    if (r < 0.55) {
      await this.pay(rng);
      await this.node.mine(1);
    } else if (r < 0.8) {
      const n = rng.int(2, 4);
      for (let i = 0; i < n; i++) await this.pay(rng);
      await this.node.mine(1);
    } else if (r < 0.9 || !reorgs || this.maxReorgDepth < 1) {
      await this.node.mine(1);
    } else {
      const depth = rng.int(1, this.maxReorgDepth);
      // Up to 2 s for the indexer to reach the tip (it may be down: then the reorg goes ahead),
      // then a moment for deliveries.
      const tip = await this.node.rpc<string>('getbestblockhash');
      for (let waited = 0; waited < 2000 && !(await this.indexedUpTo(tip)); waited += 50)
        await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, rng.int(0, 300)));
      const height = await this.node.rpc<number>('getblockcount');
      await this.node.rpc(
        'invalidateblock',
        await this.node.rpc('getblockhash', height - depth + 1),
      );
      await this.node.mine(depth + 1);
      this.reorgs++;
    }
  }

  /** Steps in the background until `stop()`, `pauseMs` apart (drawn from the PRNG). */
  run(
    rng: Rng,
    { reorgs = false, pauseMs = [30, 250] as [number, number] } = {},
  ): { stop(): Promise<void> } {
    return runSteps(() => this.step(rng, reorgs), rng, pauseMs);
  }
}
