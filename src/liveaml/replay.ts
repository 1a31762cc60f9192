import type { Sql, TransactionSql } from '../db/index.js';
import { enqueueJob } from '../db/jobs.js';
import { networkInfo } from '../config/networks.js';
import { log } from '../log.js';
import {
  addressHistory,
  NO_SUBSCRIPTION_LIMITS,
  subscribe,
  type SubscriptionLimits,
} from '../streams/index.js';
import { type LiveAmlDeps, runLiveAmlCheck } from './check.js';

/**
 * Live AML from a past block (liveaml/create with from_block): the tracking is made with
 * `aml_replay_from` set and a liveaml_replay job queued, in one transaction. The job checks the
 * address's past transactions in the indexed blocks from that block on, in chain order (network,
 * block, position), one after another, so their alerts are numbered in that order, marked
 * "replay": true. While it runs, the live checks of the address leave their transactions to it
 * (src/liveaml/check.ts); it reads up to the cursors again until nothing new is left, then ends
 * the replay in a transaction that holds the cursors for share: a block stored after that is
 * checked live, one stored before by the replay. A transaction checked by both records nothing
 * twice (runLiveAmlCheck's events are unique per tracking, transaction and block).
 */
export async function startTrackingWithReplay(
  sql: Sql,
  tracking: {
    apiKeyId: string;
    address: string;
    family: 'evm' | 'utxo';
    amlWebhook: string;
    streamWebhook?: string;
  },
  fromBlock: bigint,
  limits: SubscriptionLimits = NO_SUBSCRIPTION_LIMITS,
): Promise<void> {
  await sql.begin(async (tx) => {
    const id = await subscribe(
      tx,
      tracking.apiKeyId,
      tracking.address,
      tracking.family,
      {
        aml: tracking.amlWebhook,
        ...(tracking.streamWebhook ? { stream: tracking.streamWebhook } : {}),
      },
      limits,
    );
    await tx`update tracked_addresses set aml_replay_from = ${fromBlock.toString()} where id = ${id}`;
    await enqueueJob(tx, 'liveaml_replay', { tracked_id: id }, { jobKey: `liveaml_replay:${id}` });
  });
}

interface PastTx {
  network: string;
  block_number: string;
  block_hash: string;
  tx_hash: string;
}

/** The address's transactions in blocks above `after` (per network) up to each cursor, in chain order. */
async function pastTransactions(
  sql: Sql | TransactionSql,
  family: 'evm' | 'utxo',
  address: string,
  after: ReadonlyMap<string, bigint>,
): Promise<PastTx[]> {
  const networks = [...after.keys()];
  const floors = networks.map((n) => after.get(n)!.toString());
  return sql<PastTx[]>`
    select h.network, h.block_number::text, h.block_hash, h.tx_hash
    from (${addressHistory(sql, family, address)}) h
    join unnest(${networks}::text[], ${floors}::bigint[]) as f(network, after) on f.network = h.network
    join indexer_cursors c on c.network = h.network
    where h.block_number > f.after and h.block_number <= c.block_number
    order by h.network, h.block_number, h.tx_index`;
}

/** The liveaml_replay job. Returns how many past transactions were checked. */
export async function runLiveAmlReplay(deps: LiveAmlDeps, trackedId: string): Promise<number> {
  const { sql } = deps;
  const [t] = await sql<{ address: string; family: string; from: string | null }[]>`
    select address, family, aml_replay_from::text as from from tracked_addresses where id = ${trackedId}`;
  if (!t || t.from === null) return 0;
  const family = t.family as 'evm' | 'utxo';
  const networks = (await sql<{ network: string }[]>`select network from indexer_cursors`)
    .map((r) => r.network)
    .filter((n) => networkInfo(n)?.family === family);
  // Checked up to here, per network (a block below from_block counts as checked).
  const after = new Map(networks.map((n) => [n, BigInt(t.from!) - 1n]));
  let checked = 0;
  for (;;) {
    const due = await pastTransactions(sql, family, t.address, after);
    if (due.length === 0) {
      // Caught up: end the replay while no block can be stored (live checks take over).
      const ended = await sql.begin(async (tx) => {
        await tx`select 1 from indexer_cursors where network = any(${networks}::text[]) for share`;
        const [more] = await tx`select 1 from tracked_addresses where id = ${trackedId}`;
        if (!more) return true;
        if ((await pastTransactions(tx, family, t.address, after)).length) return false;
        await tx`update tracked_addresses set aml_replay_from = null where id = ${trackedId}`;
        return true;
      });
      if (ended) break;
      continue;
    }
    for (const p of due) {
      await runLiveAmlCheck(deps, {
        trackedId,
        network: p.network,
        txHash: p.tx_hash,
        blockNumber: BigInt(p.block_number),
        blockHash: p.block_hash,
        replay: true,
      });
      checked++;
    }
    // Every transaction of the blocks reached is checked: go on above them.
    for (const p of due) after.set(p.network, BigInt(p.block_number));
  }
  log.info({ tracked_id: trackedId, checked }, 'live AML replay done');
  return checked;
}
