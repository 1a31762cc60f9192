import { expect } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { Sql } from '../../src/db/index.js';
import type { OwnChain } from '../helpers/own-chain.js';
import { startTestAppliance } from '../helpers/appliance.js';
import { compareChainTables, compareUtxoTables } from '../helpers/compare.js';
import { freshDatabase } from '../helpers/db.js';
import { eventually } from '../helpers/eventually.js';
import type { Delivery, FaultReceiver } from './receiver.js';

/**
 * What the receivers and the database should hold after a fault scenario, read from the node's
 * final canonical chain (not from Tollgate), and the checks that they do (for an EVM chain, or a
 * Bitcoin-family one: see `Family`):
 * 1. every expected delivery arrived at least once: for each transaction on the canonical chain
 *    touching a streamed address, an unconfirmed and a confirmed one (for that address);
 * 2. no orphaned transaction was delivered as confirmed (tx hash, block number and the event's
 *    block hash are the canonical chain's), and each orphaned one delivered was retracted;
 * 3. no two deliveries with the same webhook-id have different bodies (and every one is signed);
 * 4. the database equals a clean index of the canonical chain, built from scratch into a second
 *    database and compared table by table;
 * 5. order: at each receiver, for one address, transaction and block, the unconfirmed delivery
 *    first arrives before the confirmed one, and the retraction after both; every body carries
 *    its subscription's sequence, one per webhook-id, and it grows in that same order.
 */

const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const APPROVAL = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925';

export interface CanonicalTx {
  hash: string;
  blockNumber: number;
  blockHash: string;
  /** Every address the transaction touches (sender, recipient, created contract, token parties). */
  touched: Set<string>;
  /**
   * EVM: sender and recipient, and the parties of each token Transfer: the pairs of which one is
   * a counterparty of the other for live AML.
   */
  pairs?: [string, string][];
}

export interface Canonical {
  head: number;
  headHash: string;
  blocks: Map<number, string>;
  txs: Map<string, CanonicalTx>;
}

/** What a delivery body says it is about: the streamed address, the transaction, its block. */
export interface DeliveryOf {
  address: string;
  hash: string;
  blockNumber: number;
  /**
   * The block's hash where the body carries it (the Bitcoin shape): a transaction orphaned in a
   * reorg is often mined again at the same height, in another block.
   */
  blockHash?: string;
}

/**
 * How the checks read one chain family: its network, where its stream bodies keep the address,
 * transaction and block (the EVM shape nests them under `tx`; the Bitcoin shape has them at the
 * top), and the clean index that the scenario's database is compared with.
 */
export interface Family {
  network: string;
  /** The delivery's address, transaction and block; undefined for a body that is not a stream event. */
  identify(json: any): DeliveryOf | undefined;
  /** The appliance environment that indexes the final chain into a clean database. */
  cleanIndexEnv: Record<string, string>;
  compareTables(a: Sql, b: Sql): Promise<void>;
}

export function evmFamily(chain: OwnChain, confirmations: number, startBlock: number): Family {
  return {
    network: 'eth',
    identify: (j) =>
      j?.tx
        ? { address: j.tx.address, hash: j.tx.hash, blockNumber: Number(j.blockNumber) }
        : undefined,
    cleanIndexEnv: {
      TOLLGATE_RPC_ETH: chain.url,
      TOLLGATE_CONFIRMATIONS_ETH: String(confirmations),
      TOLLGATE_START_BLOCK_ETH: String(startBlock),
      TOLLGATE_POLL_INTERVAL_MS_ETH: '50',
    },
    compareTables: compareChainTables,
  };
}

export function litecoinFamily(rpcUrl: string, confirmations: number, startBlock: number): Family {
  return {
    network: 'litecoin',
    identify: (j) =>
      typeof j?.hash === 'string' && typeof j.address === 'string'
        ? {
            address: j.address,
            hash: j.hash,
            blockNumber: Number(j.blockNumber),
            blockHash: String(j.blockHash),
          }
        : undefined,
    cleanIndexEnv: {
      TOLLGATE_RPC_LITECOIN: rpcUrl,
      TOLLGATE_CONFIRMATIONS_LITECOIN: String(confirmations),
      TOLLGATE_START_BLOCK_LITECOIN: String(startBlock),
      TOLLGATE_POLL_INTERVAL_MS_LITECOIN: '50',
    },
    compareTables: compareUtxoTables,
  };
}

/** A receiver and the webhook secret of the API key whose streams post to it. */
export interface Endpoint {
  receiver: FaultReceiver;
  secret: string;
}

const topicAddress = (topic: string) => ('0x' + topic.slice(26)).toLowerCase();

/** Reads blocks `from`..head with their receipts from the node. */
export async function readCanonical(chain: OwnChain, from: number): Promise<Canonical> {
  const head = await chain.pub.getBlock();
  const blocks = new Map<number, string>();
  const txs = new Map<string, CanonicalTx>();
  for (let n = from; n <= Number(head.number); n++) {
    const block = await chain.pub.getBlock({ blockNumber: BigInt(n), includeTransactions: true });
    blocks.set(n, block.hash.toLowerCase());
    const receipts = await Promise.all(
      block.transactions.map((t) => chain.pub.getTransactionReceipt({ hash: t.hash })),
    );
    block.transactions.forEach((t, i) => {
      const r = receipts[i]!;
      const touched = new Set<string>([t.from.toLowerCase()]);
      const pairs: [string, string][] = [];
      if (t.to) {
        touched.add(t.to.toLowerCase());
        pairs.push([t.from.toLowerCase(), t.to.toLowerCase()]);
      }
      if (r.contractAddress) touched.add(r.contractAddress.toLowerCase());
      for (const l of r.logs) {
        const [topic0, a, b] = l.topics;
        if ((topic0 === TRANSFER || topic0 === APPROVAL) && a && b) {
          touched.add(topicAddress(a));
          touched.add(topicAddress(b));
          if (topic0 === TRANSFER) pairs.push([topicAddress(a), topicAddress(b)]);
        }
      }
      txs.set(t.hash.toLowerCase(), {
        hash: t.hash.toLowerCase(),
        blockNumber: n,
        blockHash: block.hash.toLowerCase(),
        touched,
        pairs,
      });
    });
  }
  return { head: Number(head.number), headHash: head.hash.toLowerCase(), blocks, txs };
}

const key = (address: string, hash: string, confirmed: boolean) =>
  `${address.toLowerCase()}|${hash.toLowerCase()}|${confirmed}`;

/** (address, tx hash, confirmed) of every delivery the canonical chain calls for. */
export function expectedDeliveries(
  c: Canonical,
  streamed: readonly string[],
  confirmations: number,
): Set<string> {
  const out = new Set<string>();
  const confirmedUpTo = c.head - confirmations + 1;
  for (const tx of c.txs.values()) {
    for (const address of streamed) {
      if (!tx.touched.has(address.toLowerCase())) continue;
      out.add(key(address, tx.hash, false));
      if (tx.blockNumber <= confirmedUpTo) out.add(key(address, tx.hash, true));
    }
  }
  return out;
}

const all = (endpoints: readonly Endpoint[]): Delivery[] =>
  endpoints.flatMap((e) => e.receiver.received);
const isOnCanonical = (c: Canonical, of: DeliveryOf) => {
  const tx = c.txs.get(of.hash.toLowerCase());
  return (
    tx?.blockNumber === of.blockNumber &&
    (of.blockHash === undefined || tx.blockHash === of.blockHash.toLowerCase())
  );
};
/** address|tx|block of a delivery: the unit that is delivered, confirmed and retracted. */
const inBlock = (of: DeliveryOf) =>
  `${of.address.toLowerCase()}|${of.hash.toLowerCase()}|${of.blockNumber}${of.blockHash ? `@${of.blockHash.toLowerCase()}` : ''}`;

/** What a delivery is of its transaction in its block. */
const deliveryKind = (j: any): 'retraction' | 'confirmed' | 'unconfirmed' =>
  j.removed === true ? 'retraction' : j.confirmed === true ? 'confirmed' : 'unconfirmed';

/** Every delivery the family can identify, with its receiver's index in `endpoints`. */
function* identified(endpoints: readonly Endpoint[], family: Pick<Family, 'identify'>) {
  for (const [at, e] of endpoints.entries())
    for (const d of e.receiver.received) {
      const of = family.identify(d.json);
      if (of) yield { at, d, j: d.json, of };
    }
}

/**
 * What is still to arrive: expected deliveries, retractions of delivered orphaned ones, and a
 * delivery again of a transaction whose block was retracted and is canonical after all (the
 * chain went back to it): its latest delivery, by its subscription's sequence, must not be the
 * retraction.
 */
export function outstanding(
  c: Canonical,
  expected: Set<string>,
  endpoints: readonly Endpoint[],
  family: Pick<Family, 'identify'>,
): { missing: string[]; unretracted: string[]; retractedCanonical: string[] } {
  const got = new Set<string>();
  const retracted = new Set<string>();
  const orphanedDelivered = new Set<string>();
  // Per receiver (one subscription per address each) and address|tx|block on the canonical chain:
  // the highest sequence of a retraction, and of a delivery.
  const latest = new Map<string, { removed: number; delivered: number }>();
  for (const { at, j, of } of identified(endpoints, family)) {
    const id = inBlock(of);
    const canonical = isOnCanonical(c, of);
    if (canonical) {
      const k = `${at}|${id}`;
      const l = latest.get(k) ?? { removed: -1, delivered: -1 };
      const seq = Number(j.sequence ?? 0);
      if (j.removed === true) l.removed = Math.max(l.removed, seq);
      else l.delivered = Math.max(l.delivered, seq);
      latest.set(k, l);
    }
    if (j.removed === true) retracted.add(id);
    else if (canonical) got.add(key(of.address, of.hash, j.confirmed === true));
    else orphanedDelivered.add(id);
  }
  return {
    missing: [...expected].filter((k) => !got.has(k)),
    unretracted: [...orphanedDelivered].filter((id) => !retracted.has(id)),
    retractedCanonical: [...latest].filter(([, l]) => l.removed > l.delivered).map(([k]) => k),
  };
}

/** Waits (bounded) until nothing is outstanding; returns what still is when the time is up. */
export async function waitForDeliveries(
  c: Canonical,
  expected: Set<string>,
  endpoints: readonly Endpoint[],
  timeoutMs: number,
  family: Pick<Family, 'identify'>,
) {
  return eventually(
    async () => outstanding(c, expected, endpoints, family),
    (o) =>
      o.missing.length === 0 && o.unretracted.length === 0 && o.retractedCanonical.length === 0,
    timeoutMs,
  );
}

export interface CheckInput {
  family: Family;
  canonical: Canonical;
  sql: Sql;
  streamed: readonly string[];
  endpoints: readonly Endpoint[];
  confirmations: number;
  /**
   * The database lost its last commits during the run (a failover to a replica that was behind):
   * an event written again keeps its webhook-id but may be numbered anew, so its body may differ
   * in `sequence` alone, and sequences given in the lost seconds may be given again.
   */
  lostCommits?: boolean;
}

export async function assertInvariants(input: CheckInput): Promise<{
  failedAttempts: number;
  /** The most frequent errors of those attempts, as `count × error` (the error's first words). */
  failedBy: string[];
  deliveries: number;
  expected: number;
  duplicates: number;
  retractions: number;
}> {
  const { canonical: c, sql, streamed, endpoints, confirmations, family, lostCommits } = input;
  // What must be the same bytes under one webhook-id (all of it, unless commits were lost).
  const comparable = (body: string) =>
    lostCommits ? body.replace(/^\{"sequence":\d+,/, '{') : body;
  const expected = expectedDeliveries(c, streamed, confirmations);
  const deliveries = all(endpoints);
  const streamedSet = new Set(streamed.map((a) => a.toLowerCase()));

  // 1. Every expected delivery arrived at least once (and every orphaned one delivered was retracted).
  const { missing, unretracted, retractedCanonical } = outstanding(c, expected, endpoints, family);
  if (missing.length) await printEvents(sql, missing);
  expect(missing, 'expected deliveries that never arrived (address|tx|confirmed)').toEqual([]);
  expect(unretracted, 'orphaned deliveries never retracted (address|tx|block)').toEqual([]);
  expect(
    retractedCanonical,
    'canonical transactions whose latest delivery is a retraction (receiver|address|tx|block)',
  ).toEqual([]);

  // 3. One body per webhook-id; every delivery signed with its key's secret; only streamed addresses.
  const bodies = new Map<string, string>();
  const conflicts: string[] = [];
  for (const e of endpoints) {
    const wh = new Webhook(e.secret);
    for (const d of e.receiver.received) {
      const id = d.headers['webhook-id']!;
      expect(() => wh.verify(d.body, d.headers), `signature of ${id}`).not.toThrow();
      const seen = bodies.get(id);
      if (seen !== undefined && seen !== comparable(d.body)) conflicts.push(id);
      bodies.set(id, comparable(d.body));
      expect(
        streamedSet.has(String(family.identify(d.json)?.address).toLowerCase()),
        `delivery ${id} is for a streamed address`,
      ).toBe(true);
    }
  }
  expect(conflicts, 'webhook-ids delivered with different bodies').toEqual([]);
  // And one webhook-id per event: at each receiver, a transaction's delivery of one kind
  // (unconfirmed, confirmed, retraction) in one block comes under one id, however often it comes
  // (a repeat after a kill, an event written again after the database lost commits). The suite's
  // traffic never goes back to a block it left (which would write the events anew, new ids).
  const idsPerEvent = new Map<string, Set<string>>();
  for (const { at, d, j, of } of identified(endpoints, family)) {
    const k = `${at}|${inBlock(of)}|${deliveryKind(j)}`;
    const ids = idsPerEvent.get(k) ?? new Set<string>();
    ids.add(d.headers['webhook-id']!);
    idsPerEvent.set(k, ids);
  }
  expect(
    [...idsPerEvent]
      .filter(([, ids]) => ids.size > 1)
      .map(([k, ids]) => `${k}: ${[...ids].join(' ')}`),
    'events delivered under more than one webhook-id (receiver|address|tx|block|kind)',
  ).toEqual([]);

  // 2. No orphaned transaction delivered as confirmed: the body's tx and block number, and the
  //    event's block hash, are the canonical chain's.
  const confirmedIds = deliveries.filter(
    (d) => d.json?.confirmed === true && d.json?.removed === undefined,
  );
  const events = await sql<{ id: string; block_hash: string; tx_hash: string }[]>`
    select id::text, block_hash, tx_hash from webhook_events where id = any(${confirmedIds.map((d) => d.headers['webhook-id']!.replace(/^msg_/, ''))}::uuid[])`;
  const eventHash = new Map(events.map((e) => [e.id, e.block_hash]));
  for (const d of confirmedIds) {
    const id = d.headers['webhook-id']!;
    const of = family.identify(d.json)!;
    const tx = c.txs.get(of.hash.toLowerCase());
    expect(
      tx,
      `confirmed delivery ${id} of a transaction not on the canonical chain (${of.hash})`,
    ).toBeDefined();
    expect(of.blockNumber, `block number of confirmed delivery ${id}`).toBe(tx!.blockNumber);
    if (of.blockHash !== undefined)
      expect(of.blockHash.toLowerCase(), `block hash in confirmed delivery ${id}`).toBe(
        tx!.blockHash,
      );
    expect(eventHash.get(id.replace(/^msg_/, '')), `block hash of confirmed delivery ${id}`).toBe(
      tx!.blockHash,
    );
  }
  // The database agrees: no confirmed event off the canonical chain, every expected one delivered.
  const dbEvents = await sql<
    {
      address: string;
      tx_hash: string;
      block_number: string;
      block_hash: string;
      confirmed: boolean;
      removed: boolean;
      status: string;
    }[]
  >`
    select address, tx_hash, block_number::text, block_hash, confirmed, removed, status from webhook_events where kind = 'stream'`;
  for (const e of dbEvents.filter((e) => e.confirmed)) {
    expect(
      c.blocks.get(Number(e.block_number)),
      `confirmed event ${e.tx_hash} in block ${e.block_number}`,
    ).toBe(e.block_hash);
  }
  const delivered = new Set(
    dbEvents
      .filter(
        (e) =>
          !e.removed &&
          e.status === 'delivered' &&
          c.blocks.get(Number(e.block_number)) === e.block_hash,
      )
      .map((e) => key(e.address, e.tx_hash, e.confirmed)),
  );
  expect(
    [...expected].filter((k) => !delivered.has(k)),
    'expected events not marked delivered in the database',
  ).toEqual([]);

  // Each subscription's events are numbered without a gap: every number up to the last was
  // given to an event (sent, or cancelled unsent by a reorg). A gap tells a receiver an event is
  // missing.
  const numbering = await sql<
    { tracked_id: string; kind: string; last: number; numbered: number }[]
  >`
    select tracked_id::text, kind, max(sequence)::int as last, count(distinct sequence)::int as numbered
    from webhook_events where tracked_id is not null group by tracked_id, kind`;
  expect(
    numbering.filter((n) => n.last !== n.numbered),
    'subscriptions whose sequence numbers have gaps (last number, numbers given)',
  ).toEqual([]);

  // 5. Order and sequence.
  expect(
    orderViolations(endpoints, family, lostCommits),
    'deliveries out of order (receiver: address|tx|block: what came first)',
  ).toEqual([]);

  // 4. The database equals a clean index of the canonical chain.
  const [cursor] = await sql<
    { block_number: string; block_hash: string }[]
  >`select block_number::text, block_hash from indexer_cursors where network = ${family.network}`;
  expect(cursor, 'the cursor is at the canonical head').toEqual({
    block_number: String(c.head),
    block_hash: c.headHash,
  });
  const clean = await freshDatabase();
  const indexer = await startTestAppliance(clean.url, family.cleanIndexEnv, {
    api: false,
    worker: false,
    indexer: 'all',
    devChain: false,
  });
  try {
    await eventually(
      () => clean.sql`select block_hash from indexer_cursors where network = ${family.network}`,
      (r) => r[0]?.block_hash === c.headHash,
      60_000,
    );
    await family.compareTables(sql, clean.sql);
  } finally {
    await indexer.stop();
    await clean.drop();
  }

  const ids = deliveries.map((d) => d.headers['webhook-id']);
  const failed = await sql<{ n: number; error: string }[]>`
    select count(*)::int as n, left(error, 80) as error from webhook_deliveries
    where error is not null group by 2 order by 1 desc`;
  return {
    failedAttempts: failed.reduce((sum, f) => sum + f.n, 0),
    failedBy: failed.slice(0, 4).map((f) => `${f.n} × ${f.error}`),
    deliveries: deliveries.length,
    expected: expected.size,
    duplicates: ids.length - new Set(ids).size,
    retractions: deliveries.filter((d) => d.json?.removed === true).length,
  };
}

/**
 * What arrived out of order, per receiver (arrival order is the order of `received`): for one
 * (address, tx, block), the first arrival of each kind must come unconfirmed, then confirmed,
 * then the retraction; their sequences must grow the same way; a webhook-id has one sequence.
 */
export function orderViolations(
  endpoints: readonly Endpoint[],
  family: Pick<Family, 'identify'>,
  /** The database lost commits: arrival order is checked, sequences are not (see CheckInput). */
  lostCommits = false,
): string[] {
  const out: string[] = [];
  for (const [i, e] of endpoints.entries()) {
    const first = new Map<string, Map<string, { at: number; sequence: number }>>();
    const sequenceOf = new Map<string, number>();
    e.receiver.received.forEach((d, at) => {
      const j = d.json;
      const of = family.identify(j);
      if (!of) return;
      const id = d.headers['webhook-id']!;
      const sequence = Number(j.sequence);
      if (!Number.isSafeInteger(sequence) || sequence < 1)
        out.push(`${i}: ${id} carries no sequence`);
      const seen = sequenceOf.get(id);
      if (seen !== undefined && seen !== sequence && !lostCommits)
        out.push(`${i}: ${id} came with sequences ${seen} and ${sequence}`);
      sequenceOf.set(id, sequence);
      const key = inBlock(of);
      const kind = deliveryKind(j);
      const kinds = first.get(key) ?? new Map();
      first.set(key, kinds);
      if (!kinds.has(kind)) kinds.set(kind, { at, sequence });
    });
    for (const [key, kinds] of first) {
      const order = ['unconfirmed', 'confirmed', 'retraction']
        .filter((k) => kinds.has(k))
        .map((k) => ({ k, ...kinds.get(k)! }));
      for (let n = 1; n < order.length; n++) {
        const [a, b] = [order[n - 1]!, order[n]!];
        if (a.at > b.at) out.push(`${i}: ${key}: ${b.k} arrived before ${a.k}`);
        if (a.sequence >= b.sequence && !lostCommits)
          out.push(
            `${i}: ${key}: ${b.k} has sequence ${b.sequence}, not above ${a.k}'s ${a.sequence}`,
          );
      }
    }
  }
  return out;
}

/** For a failing run: what the database says about the events that did not arrive, and their jobs. */
async function printEvents(sql: Sql, keys: string[]): Promise<void> {
  const hashes = keys.map((k) => k.split('|')[1]!);
  const rows = await sql`
    select e.tx_hash, e.address, e.confirmed, e.removed, e.status, e.attempts, e.sequence, e.block_number::text, e.next_attempt_at,
      e.lease_until, e.sent_at, (select error from webhook_deliveries d where d.event_id = e.id order by d.id desc limit 1) as last_error
    from webhook_events e
    where e.tx_hash = any(${hashes}) order by e.block_number limit 20`;
  console.log(
    `[faults] ${keys.length} deliveries missing; their events (first 20):\n${rows.map((r) => JSON.stringify(r)).join('\n')}`,
  );
}

/** A live AML tracking in a scenario: its receiver, and the labelled address that pays it. */
export interface LiveAmlWatch {
  endpoint: Endpoint;
  /** The address tracked for live AML. */
  tracked: string;
  /** An address labelled `mixer`: a transaction between it and `tracked` is `direct_mixer`. */
  labelled: string;
}

/**
 * Transactions on the canonical chain in which the labelled address is a counterparty of the
 * tracked one (sender and recipient, or parties of a token Transfer): each must raise a live AML
 * event. (Others may too, e.g. a mint or an approval sent by the labelled wallet.)
 */
export function expectedLiveAml(c: Canonical, watch: LiveAmlWatch): Set<string> {
  const [t, l] = [watch.tracked.toLowerCase(), watch.labelled.toLowerCase()];
  const out = new Set<string>();
  for (const tx of c.txs.values())
    if (tx.pairs?.some(([a, b]) => (a === t && b === l) || (a === l && b === t))) out.add(tx.hash);
  return out;
}

const liveAmlDelivered = (c: Canonical, watch: LiveAmlWatch): Set<string> =>
  new Set(
    watch.endpoint.receiver.received
      .filter(
        (d) =>
          d.json?.removed === undefined &&
          c.txs.get(String(d.json?.hash).toLowerCase())?.blockNumber ===
            Number(d.json?.block_number),
      )
      .map((d) => String(d.json.hash).toLowerCase()),
  );

/** Waits (bounded) until every expected live AML webhook arrived and no check is left to run. */
export async function waitForLiveAml(
  sql: Sql,
  c: Canonical,
  watch: LiveAmlWatch,
  timeoutMs: number,
): Promise<void> {
  const expected = expectedLiveAml(c, watch);
  let left: { attempts: number; run_at: string; locked: boolean; last_error: string | null }[] = [];
  await eventually(
    async () => {
      const got = liveAmlDelivered(c, watch);
      left = await sql<typeof left>`
        select attempts, run_at::text, locked_at is not null as locked, left(last_error, 300) as last_error
        from graphile_worker.jobs where task_identifier = 'liveaml_check' order by run_at`;
      return [...expected].every((h) => got.has(h)) && left.length === 0;
    },
    (done) => done,
    timeoutMs,
  );
  // Not settled: say what the checks left are doing (the assertions that follow say what is missing).
  if (left.length)
    console.log(
      `[faults] liveaml_check jobs left after the wait (now ${new Date().toISOString()}):\n${left
        .map(
          (j) =>
            `  attempts ${j.attempts}, run_at ${j.run_at}${j.locked ? ', locked' : ''}: ${j.last_error ?? ''}`,
        )
        .join('\n')}`,
    );
}

/**
 * Live AML after the faults: every expected event recorded once and delivered; every event the
 * database holds for a canonical transaction delivered; no delivery of a transaction that is not
 * canonical unless retracted; one body per webhook-id, signed; one event (one webhook-id) per
 * transaction and block, however often its check ran.
 */
export async function assertLiveAml(
  sql: Sql,
  c: Canonical,
  watch: LiveAmlWatch,
): Promise<{ events: number; deliveries: number }> {
  const deliveries = watch.endpoint.receiver.received;
  const wh = new Webhook(watch.endpoint.secret);
  const bodies = new Map<string, string>();
  const idsPerEvent = new Map<string, Set<string>>();
  const retracted = new Set<string>();
  const offChain: string[] = [];
  const labelChanges: string[] = [];
  for (const d of deliveries) {
    const id = d.headers['webhook-id']!;
    expect(() => wh.verify(d.body, d.headers), `signature of live AML ${id}`).not.toThrow();
    const seen = bodies.get(id);
    expect(seen === undefined || seen === d.body, `live AML ${id} came with two bodies`).toBe(true);
    bodies.set(id, d.body);
    expect(String(d.json?.address).toLowerCase(), `live AML ${id} is for the tracked address`).toBe(
      watch.tracked.toLowerCase(),
    );
    const event = `${String(d.json.hash).toLowerCase()}|${d.json.block_number}`;
    // An alert of a label change names no transaction (hash "", block 0; README, Live AML
    // webhooks). The only label change of a scenario is the shipped OFAC import at the first
    // start, which brings the tracked address nothing: none is expected (one came when a rescan
    // announced every newly true tag, a transaction's whose check had not run yet included).
    if (d.json.hash === '' && Number(d.json.block_number) === 0) {
      labelChanges.push(d.body);
      continue;
    }
    if (d.json.removed === true) {
      retracted.add(event);
      continue;
    }
    idsPerEvent.set(event, (idsPerEvent.get(event) ?? new Set()).add(id));
    if (c.txs.get(String(d.json.hash).toLowerCase())?.blockNumber !== Number(d.json.block_number))
      offChain.push(event);
  }
  expect(
    offChain.filter((e) => !retracted.has(e)),
    'live AML webhooks of transactions off the canonical chain, never retracted',
  ).toEqual([]);
  expect(
    [...idsPerEvent].filter(([, ids]) => ids.size > 1).map(([e]) => e),
    'live AML events sent under two webhook-ids (tx|block)',
  ).toEqual([]);

  const rows = await sql<{ tx_hash: string; block_number: string; block_hash: string }[]>`
    select tx_hash, block_number::text, block_hash from liveaml_events where not orphaned and tx_hash <> ''`;
  const canonicalRows = rows.filter((r) => c.blocks.get(Number(r.block_number)) === r.block_hash);
  expect(
    rows.filter((r) => !canonicalRows.includes(r)).map((r) => `${r.tx_hash}|${r.block_number}`),
    'live AML events listed for blocks off the canonical chain',
  ).toEqual([]);
  const recorded = new Map<string, number>();
  for (const r of canonicalRows) recorded.set(r.tx_hash, (recorded.get(r.tx_hash) ?? 0) + 1);
  expect(
    [...recorded].filter(([, n]) => n > 1).map(([h]) => h),
    'live AML events recorded twice',
  ).toEqual([]);
  expect(
    [...expectedLiveAml(c, watch)].filter((h) => !recorded.has(h)),
    'expected live AML events never recorded',
  ).toEqual([]);
  const delivered = liveAmlDelivered(c, watch);
  expect(
    [...recorded.keys()].filter((h) => !delivered.has(h.toLowerCase())),
    'recorded live AML events never delivered',
  ).toEqual([]);
  expect(labelChanges, 'live AML alerts of a label change (no label change concerns it)').toEqual(
    [],
  );
  return {
    events: canonicalRows.length,
    deliveries: deliveries.length,
  };
}
