import type { Hex } from 'viem';
import { createApiKey } from '../../src/keys/keys.js';
import { subscribe } from '../../src/streams/streams.js';
import type { Sql } from '../../src/db/index.js';
import { randomAddress } from '../helpers/chain.js';
import { freshDatabase } from '../helpers/db.js';
import { eventually } from '../helpers/eventually.js';
import { startOwnChain, type OwnChain } from '../helpers/own-chain.js';
import {
  assertInvariants,
  assertLiveAml,
  evmFamily,
  expectedDeliveries,
  readCanonical,
  waitForDeliveries,
  waitForLiveAml,
  type Canonical,
  type Endpoint,
  type Family,
  type LiveAmlWatch,
} from './invariants.js';
import { FaultReceiver } from './receiver.js';
import { RoleProcess } from './roles.js';
import { scenarioRng, type Rng } from './seed.js';
import { Traffic } from './traffic.js';

/** Blocks from which the scenario's database and the clean index both start. */
const START_BLOCK = 1;
/** Bounded waits at the end of a scenario: long enough for backoffs after faults, never open-ended. */
const SETTLE_TIMEOUT_MS = 150_000;

export interface ScenarioOptions {
  confirmations: number;
  /** The scenario's test file (its name without the directory), for the replay line. */
  file: string;
  /** The scenario's database; by default a fresh one on the suite's Postgres. */
  database?: { url: string; sql: Sql; drop(): Promise<void> };
  /** The JSON-RPC URL the roles are given (a fault proxy in front of the chain); default the chain's. */
  rpcUrl?: (chainUrl: string, rng: Rng) => Promise<string>;
  env?: Record<string, string>;
  /**
   * Live AML too: the first streamed address is also tracked for live AML (its webhook to a
   * receiver of its own), and the chain's wallet, which sends every transaction, is labelled
   * `mixer`.
   */
  liveAml?: boolean;
  /** The scenario makes the database lose its last commits (CheckInput.lostCommits). */
  lostCommits?: boolean;
}

/**
 * A scenario's world: a Hardhat node of its own with transactions flowing, a database, two API
 * keys with streams to two receivers (three streamed addresses), and the indexer and worker as
 * child processes. `finish()` settles (confirmations mined, indexer at the head, deliveries in)
 * and checks the invariants.
 */
export async function startScenario(name: string, opts: ScenarioOptions) {
  const rng: Rng = scenarioRng(name, opts.file);
  const chain: OwnChain = await startOwnChain();
  const db = opts.database ?? (await freshDatabase());
  const streamed: Hex[] = [randomAddress(), randomAddress(), randomAddress()].map(
    (a) => a.toLowerCase() as Hex,
  );
  const rpcUrl = opts.rpcUrl ? await opts.rpcUrl(chain.url, rng.fork('rpc-proxy')) : chain.url;
  const amlReceiver = opts.liveAml ? await new FaultReceiver().start() : undefined;
  const labelled = chain.wallet.account!.address.toLowerCase();
  if (amlReceiver)
    await db.sql`insert into labels (network, address, category, source) values ('evm', ${labelled}, 'mixer', 'faults')`;
  const { receivers, endpoints, roles, working, aml } = await streamsAndRoles(
    db,
    streamed,
    'evm',
    {
      TOLLGATE_RPC_ETH: rpcUrl,
      // Hardhat calls every block final, and these blocks are reverted: the depth limit alone.
      TOLLGATE_FINALITY_ETH: 'depth',
      TOLLGATE_CONFIRMATIONS_ETH: String(opts.confirmations),
      TOLLGATE_START_BLOCK_ETH: String(START_BLOCK),
      TOLLGATE_POLL_INTERVAL_MS_ETH: '50',
      ...opts.env,
    },
    amlReceiver && { receiver: amlReceiver, labelled },
  );
  const traffic = new Traffic(chain, streamed);
  await traffic.setup();
  const family = evmFamily(chain, opts.confirmations, START_BLOCK);

  return {
    rng,
    chain,
    db,
    receivers,
    roles,
    traffic,
    working,
    /**
     * Mines the confirmations, waits (bounded) for the indexer to reach the head and for every
     * expected delivery, stops the roles, then checks the invariants and prints a summary.
     */
    async finish(): Promise<void> {
      await settleAndCheck({
        name,
        db,
        roles,
        endpoints,
        streamed,
        family,
        confirmations: opts.confirmations,
        lostCommits: opts.lostCommits,
        aml,
        mine: (n) => chain.mine(n),
        canonical: () => readCanonical(chain, START_BLOCK),
      });
    },
    async close(): Promise<void> {
      await Promise.all(Object.values(roles).map((r) => r.stop().catch(() => {})));
      for (const r of receivers) await r.stop();
      await aml?.endpoint.receiver.stop();
      await db.drop().catch(() => {});
      await chain.stop();
    },
  };
}

export type Scenario = Awaited<ReturnType<typeof startScenario>>;

/**
 * What every scenario sets up beside its node: two receivers, each with an API key whose streams
 * post to it (the first two streamed addresses to the first, the rest to the second), and the
 * indexer and worker as child processes with `env` (the node's variables) on the database.
 */
export async function streamsAndRoles(
  db: { url: string; sql: Sql },
  streamed: readonly string[],
  family: 'evm' | 'utxo',
  env: Record<string, string>,
  /** Live AML on the first streamed address, to this receiver (under the first key). */
  liveAml?: { receiver: FaultReceiver; labelled: string },
) {
  const receivers = [await new FaultReceiver().start(), await new FaultReceiver().start()];
  const endpoints: Endpoint[] = [];
  let aml: LiveAmlWatch | undefined;
  for (const [i, receiver] of receivers.entries()) {
    const k = await createApiKey(db.sql, `faults-${i}`);
    endpoints.push({ receiver, secret: k.webhook_secret });
    for (const address of i === 0 ? streamed.slice(0, 2) : streamed.slice(2)) {
      const withAml = liveAml && address === streamed[0] ? liveAml : undefined;
      await subscribe(db.sql, k.id, address, family, {
        stream: receiver.url,
        aml: withAml?.receiver.url,
      });
      if (withAml)
        aml = {
          endpoint: { receiver: withAml.receiver, secret: k.webhook_secret },
          tracked: address,
          labelled: withAml.labelled,
        };
    }
  }
  const roleEnv = {
    TOLLGATE_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
    TOLLGATE_WEBHOOK_TIMEOUT_MS: '5000',
    ...env,
  };
  const roles = {
    indexer: new RoleProcess('indexer', () => db.url, roleEnv),
    worker: new RoleProcess('worker', () => db.url, roleEnv),
  };
  return {
    receivers,
    endpoints,
    roles,
    aml,
    /** Waits until the roles are up and working: the first delivery has arrived. */
    async working(): Promise<void> {
      await eventually(
        async () => receivers.some((r) => r.received.length > 0),
        (up) => up,
        60_000,
      );
    },
  };
}

/**
 * kill -9 of the indexer or the worker at `kills` points drawn from `rng`, each restarted after a
 * moment down. Half the worker's kill points are as a delivery reaches a receiver, before its
 * answer (jobs locked, in flight); the others up to a few seconds after the last (re)start.
 */
export async function killAtRandomPoints(
  rng: Rng,
  roles: { indexer: RoleProcess; worker: RoleProcess },
  receivers: readonly FaultReceiver[],
  kills: number,
): Promise<void> {
  for (let i = 0; i < kills; i++) {
    const victim = rng.pick([roles.indexer, roles.worker]);
    if (victim === roles.worker && rng.chance(0.5)) {
      await sleep(rng.int(0, 1500));
      await Promise.race(receivers.map((r) => r.nextRequest(10_000)));
    } else {
      await sleep(rng.int(200, 3000));
    }
    await victim.kill();
    await sleep(rng.int(0, 800)); // down for a moment while blocks keep coming
    victim.start();
  }
}

/** A scenario's world, for settling and checking it whatever its chain. */
export interface World {
  name: string;
  db: { sql: Sql };
  roles: Record<string, RoleProcess>;
  endpoints: readonly Endpoint[];
  streamed: readonly string[];
  family: Family;
  confirmations: number;
  /** Live AML, when the scenario tracks an address for it. */
  aml?: LiveAmlWatch;
  /** The database lost its last commits during the run (CheckInput.lostCommits). */
  lostCommits?: boolean;
  /** Mines blocks on the scenario's node. */
  mine(n: number): Promise<unknown>;
  /** Reads the node's final chain. */
  canonical(): Promise<Canonical>;
}

/**
 * The end of a scenario: mines the confirmations, starts any stopped role, waits (bounded) for
 * the indexer to reach the head, for every expected delivery and for the database to settle,
 * stops the roles (each must exit 0), then checks the invariants and prints a summary.
 */
export async function settleAndCheck(w: World): Promise<void> {
  const { db, roles, endpoints, streamed, family, confirmations } = w;
  await w.mine(confirmations);
  for (const r of Object.values(roles)) if (!r.running) r.start();
  const canonical = await w.canonical();
  await eventually(
    () => db.sql`select block_hash from indexer_cursors where network = ${family.network}`,
    (r) => r[0]?.block_hash === canonical.headHash,
    SETTLE_TIMEOUT_MS,
  );
  const expected = expectedDeliveries(canonical, streamed, confirmations);
  await waitForDeliveries(canonical, expected, endpoints, SETTLE_TIMEOUT_MS, family);
  if (w.aml) await waitForLiveAml(db.sql, canonical, w.aml, SETTLE_TIMEOUT_MS);
  // A receiver may have a delivery whose attempt a kill cut off before it was recorded: the
  // job is freed (stale-locks.ts) and runs again. Wait for the database to settle too.
  await eventually(
    () =>
      db.sql<
        { n: number }[]
      >`select count(*)::int as n from webhook_events where status = 'pending'`,
    (r) => r[0]!.n === 0,
    SETTLE_TIMEOUT_MS,
  );
  await Promise.all(Object.values(roles).map((r) => r.stop()));
  const crashes = Object.values(roles).flatMap((r) => r.crashes);
  if (crashes.length)
    throw new Error(
      `a role exited on its own, or not with code 0 on SIGTERM:\n${crashes.join('\n---\n')}`,
    );
  const summary = await assertInvariants({
    family,
    canonical,
    sql: db.sql,
    streamed,
    endpoints,
    confirmations,
    lostCommits: w.lostCommits,
  });
  const liveAml = w.aml ? await assertLiveAml(db.sql, canonical, w.aml) : undefined;
  console.log(
    `[faults] ${w.name}: ${canonical.txs.size} transactions in blocks up to ${canonical.head}, ${summary.expected} expected deliveries, ${summary.deliveries} received (${summary.duplicates} repeated, ${summary.retractions} retractions, ${summary.failedAttempts} failed attempts recorded); starts: ${Object.values(
      roles,
    )
      .map((r) => `${r.role} ${r.starts}`)
      .join(
        ', ',
      )}${liveAml ? `; live AML: ${liveAml.events} events, ${liveAml.deliveries} deliveries received` : ''}`,
  );
  // What the failed attempts were (a receiver down, a body not built while the database was
  // away, …), so that a run's figure can be read from its output alone.
  if (summary.failedBy.length > 0)
    console.log(`[faults] ${w.name}: failed attempts by error: ${summary.failedBy.join('; ')}`);
}
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
