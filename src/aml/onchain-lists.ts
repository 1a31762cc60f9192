import { decodeEventLog, type Hex, parseAbi } from 'viem';
import { networkInfo } from '../config/networks.js';
import { ConfigError } from '../config/index.js';
import type { TransactionSql } from '../db/index.js';
import { queueLiveAmlRescan } from './rescan-queue.js';
import { log } from '../log.js';
import type { LabelCategory } from './labels/types.js';

/**
 * Sanctions lists and blacklists that live on chain, read from the blocks the indexer stores:
 * the Chainalysis sanctions oracle, Tether's USDT blacklist and Circle's USDC blacklist. Their
 * contracts are configured per network (config/networks.json `label_lists`, editable). Each add
 * or remove event becomes rows of onchain_list_events, in the block's transaction; a label of
 * source `onchain:<kind>` exists while the address's latest event of that list adds it, named
 * after that event's transaction. A reorg deletes the events of the blocks it removes and the
 * labels follow. Nothing here calls out of the building: the events come from the VASP's node.
 */

interface ListKind {
  /** What the label's name says. */
  title: string;
  category: LabelCategory;
  abi: ReturnType<typeof parseAbi>;
  /** Event name → whether it adds (true) or removes (false) the addresses it carries. */
  events: Record<string, boolean>;
}

export const LIST_KINDS: Record<string, ListKind> = {
  chainalysis_sanctions_oracle: {
    title: 'Chainalysis sanctions oracle',
    category: 'sanctioned',
    abi: parseAbi([
      'event SanctionedAddressesAdded(address[] addrs)',
      'event SanctionedAddressesRemoved(address[] addrs)',
    ]),
    events: { SanctionedAddressesAdded: true, SanctionedAddressesRemoved: false },
  },
  tether_blacklist: {
    title: 'Tether USDT blacklist',
    category: 'blacklisted_accounts',
    abi: parseAbi(['event AddedBlackList(address _user)', 'event RemovedBlackList(address _user)']),
    events: { AddedBlackList: true, RemovedBlackList: false },
  },
  circle_blacklist: {
    title: 'Circle USDC blacklist',
    category: 'blacklisted_accounts',
    abi: parseAbi([
      'event Blacklisted(address indexed _account)',
      'event UnBlacklisted(address indexed _account)',
    ]),
    events: { Blacklisted: true, UnBlacklisted: false },
  },
};

export const ONCHAIN_SOURCE_PREFIX = 'onchain:';

export interface ListContract {
  kind: string;
  /** Lower-case, as the indexer stores log addresses. */
  address: string;
}

const EVM_ADDRESS = /^0x[0-9a-f]{40}$/;

/**
 * The list contracts of a network, checked: a kind this module reads and an EVM address each.
 * Throws ConfigError naming config/networks.json and the entry.
 */
export function listContracts(network: string): ListContract[] {
  const entries = networkInfo(network)?.label_lists ?? [];
  return entries.map((entry, i) => {
    const at = `config/networks.json: ${network}.label_lists[${i}]`;
    if (!entry || typeof entry !== 'object' || !Object.hasOwn(LIST_KINDS, entry.kind))
      throw new ConfigError(`${at}.kind: must be one of ${Object.keys(LIST_KINDS).join(', ')}`);
    const address = String(entry.address ?? '').toLowerCase();
    if (!EVM_ADDRESS.test(address)) throw new ConfigError(`${at}.address: must be an EVM address`);
    return { kind: entry.kind, address };
  });
}

/** One listed or de-listed address, as an event of a block says. */
export interface ListChange {
  blockNumber: bigint;
  logIndex: number;
  item: number;
  txHash: string;
  kind: string;
  contract: string;
  address: string;
  listed: boolean;
}

export interface ListLog {
  blockNumber: bigint;
  txHash: string;
  logIndex: number;
  address: string;
  topics: readonly string[];
  data: string;
}

/**
 * The list changes among a batch's logs. A log of a list contract that is one of its list events
 * but does not decode (a malformed payload) is skipped and returned in `skipped` (block, tx, log
 * index); the contracts' other events (transfers, approvals) are not list events and are ignored.
 */
export function decodeListChanges(
  contracts: readonly ListContract[],
  logs: readonly ListLog[],
): { changes: ListChange[]; skipped: { blockNumber: bigint; txHash: string; logIndex: number }[] } {
  const byAddress = new Map(contracts.map((c) => [c.address, c]));
  const changes: ListChange[] = [];
  const skipped: { blockNumber: bigint; txHash: string; logIndex: number }[] = [];
  for (const log of logs) {
    const contract = byAddress.get(log.address);
    if (!contract || log.topics.length === 0) continue;
    const kind = LIST_KINDS[contract.kind]!;
    let decoded: { eventName: string; args: Record<string, unknown> };
    try {
      decoded = decodeEventLog({
        abi: kind.abi,
        topics: log.topics as [Hex, ...Hex[]],
        data: log.data as Hex,
        strict: true,
      }) as unknown as typeof decoded;
    } catch (err) {
      // Not one of the list's events at all: another event of the contract (a token transfer).
      if ((err as Error).name === 'AbiEventSignatureNotFoundError') continue;
      skipped.push({ blockNumber: log.blockNumber, txHash: log.txHash, logIndex: log.logIndex });
      continue;
    }
    const listed = kind.events[decoded.eventName];
    if (listed === undefined) continue;
    const value = Object.values(decoded.args)[0];
    const addresses = (Array.isArray(value) ? value : [value]) as string[];
    for (const [item, address] of addresses.entries())
      changes.push({
        blockNumber: log.blockNumber,
        logIndex: log.logIndex,
        item,
        txHash: log.txHash,
        kind: contract.kind,
        contract: contract.address,
        address: address.toLowerCase(),
        listed,
      });
  }
  return { changes, skipped };
}

/**
 * Brings the labels of the given (kind, address) pairs in line with their latest stored event:
 * listed → the label (named after that event's list, transaction and block), else none.
 * Returns how many labels were added, renamed or removed.
 */
async function syncLabels(
  tx: TransactionSql,
  network: string,
  pairs: readonly { kind: string; address: string }[],
): Promise<number> {
  if (pairs.length === 0) return 0;
  const kinds = pairs.map((p) => p.kind);
  const addresses = pairs.map((p) => p.address);
  const titles = pairs.map((p) => LIST_KINDS[p.kind]!.title);
  const categories = pairs.map((p) => LIST_KINDS[p.kind]!.category);
  const [row] = await tx<{ changed: number }[]>`
    with pairs as (
      select distinct * from unnest(${kinds}::text[], ${addresses}::text[], ${titles}::text[], ${categories}::text[])
        as p(kind, address, title, category)
    ), latest as (
      select p.kind, p.address, p.title, p.category, e.listed, e.tx_hash, e.block_number
      from pairs p left join lateral (
        select listed, tx_hash, block_number from onchain_list_events e
        where e.network = ${network} and e.kind = p.kind and e.address = p.address
        order by block_number desc, log_index desc, item desc limit 1
      ) e on true
    ), removed as (
      delete from labels l using latest x
      where coalesce(x.listed, false) = false and l.network = ${network} and l.address = x.address
        and l.category = x.category and l.source = ${ONCHAIN_SOURCE_PREFIX} || x.kind
      returning 1
    ), written as (
      insert into labels as l (network, address, category, source, name, lists)
      select ${network}, x.address, x.category, ${ONCHAIN_SOURCE_PREFIX} || x.kind,
        x.title || ': tx ' || x.tx_hash || ' (block ' || x.block_number || ')', array[x.kind]
      from latest x where x.listed
      on conflict (network, address, category, source) do update set name = excluded.name, updated_at = now()
        where l.name is distinct from excluded.name
      returning 1
    )
    select ((select count(*) from removed) + (select count(*) from written))::int as changed`;
  return row!.changed;
}

/**
 * Stores a batch's list changes and updates the labels they touch; counts the skipped events on
 * the network's cursor. Returns how many labels changed (the caller enqueues the live AML
 * rescan when any did).
 */
export async function applyListChanges(
  tx: TransactionSql,
  network: string,
  changes: readonly ListChange[],
  skipped: number,
): Promise<number> {
  if (skipped > 0)
    await tx`update indexer_cursors set list_events_skipped = list_events_skipped + ${skipped} where network = ${network}`;
  if (changes.length === 0) return 0;
  await tx`insert into onchain_list_events (network, block_number, log_index, item, tx_hash, kind, contract, address, listed)
    select ${network}, u.block_number, u.log_index, u.item, u.tx_hash, u.kind, u.contract, u.address, u.listed::boolean
    from unnest(${changes.map((c) => c.blockNumber.toString())}::bigint[], ${changes.map((c) => c.logIndex)}::int[],
      ${changes.map((c) => c.item)}::int[], ${changes.map((c) => c.txHash)}::text[], ${changes.map((c) => c.kind)}::text[],
      ${changes.map((c) => c.contract)}::text[], ${changes.map((c) => c.address)}::text[], ${changes.map((c) => (c.listed ? 'true' : 'false'))}::text[])
      as u(block_number, log_index, item, tx_hash, kind, contract, address, listed)`;
  return syncLabels(tx, network, changes);
}

/** Reorg: forgets the list events above `ancestor` and puts the labels back as they were. */
export async function revertListChangesAbove(
  tx: TransactionSql,
  network: string,
  ancestor: bigint,
): Promise<number> {
  const gone = await tx<{ kind: string; address: string }[]>`
    delete from onchain_list_events where network = ${network} and block_number > ${ancestor.toString()}
    returning kind, address`;
  return syncLabels(tx, network, gone);
}

/**
 * Labels changed: tracked addresses they make risky (or no longer risky) are analysed again by
 * the live AML rescan (src/liveaml/rescan.ts), enqueued in the same transaction; changes in a row
 * make one job.
 */
async function rescanTracked(tx: TransactionSql): Promise<void> {
  await queueLiveAmlRescan(
    tx,
    Object.values(LIST_KINDS).map((k) => k.category),
  );
}

/**
 * The indexer's step for a batch of blocks, in their transaction: the list events among their
 * logs become labels; an event that does not decode is logged, counted and skipped (the block is
 * still indexed).
 */
export async function indexListEvents(
  tx: TransactionSql,
  network: string,
  contracts: readonly ListContract[],
  logs: readonly ListLog[],
): Promise<void> {
  if (contracts.length === 0) return;
  const { changes, skipped } = decodeListChanges(contracts, logs);
  for (const s of skipped)
    log.warn(
      {
        network,
        block_number: s.blockNumber.toString(),
        tx_hash: s.txHash,
        log_index: s.logIndex,
      },
      'on-chain list event not readable: skipped',
    );
  const changed = await applyListChanges(tx, network, changes, skipped.length);
  if (changed > 0) {
    log.info({ network, labels_changed: changed }, 'on-chain list events changed labels');
    await rescanTracked(tx);
  }
}

/** The indexer's step for a reorg, in its transaction: revertListChangesAbove, then the rescan. */
export async function revertListEvents(
  tx: TransactionSql,
  network: string,
  ancestor: bigint,
): Promise<void> {
  if ((await revertListChangesAbove(tx, network, ancestor)) > 0) await rescanTracked(tx);
}

/** Forgets a network's list events and the labels they made (the dev chain's fresh start). */
export async function forgetListChanges(tx: TransactionSql, network: string): Promise<void> {
  await tx`delete from onchain_list_events where network = ${network}`;
  await tx`delete from labels where network = ${network} and source like ${`${ONCHAIN_SOURCE_PREFIX}%`}`;
}
