import pg from 'pg';
import { NO_IDLE_SESSION_TIMEOUT } from '../db/idle-sessions.js';
import type { Fragment, Sql, TransactionSql } from '../db/index.js';
import { describeError, RetryableError } from '../errors.js';
import type { Logger } from '../log.js';
import { nodePgConnection } from '../config/database-url.js';

/**
 * One active indexer per network: a session advisory lock (class NETWORK_LOCK_CLASS, key
 * hashtext(network)) held on a connection of its own. Postgres drops the lock with that
 * connection (a restart, a failover, a network cut, a killed process), so holding it is checked
 * where it matters: every transaction that writes a network's chain data first checks, in the
 * same transaction, that this indexer's lock session still holds the lock (`assertNetworkLock`).
 * An indexer that lost it steps down and stands by to take it again; it can never commit a block
 * after another indexer took over.
 * The connection is node-postgres's: an error on an idle connection is an event we listen to,
 * never an exception thrown where nothing can catch it.
 */
const NETWORK_LOCK_CLASS = 0x746c69; // 'tli'

/** This indexer no longer holds its network's lock: it must stop writing and stand by. */
export class LockLostError extends RetryableError {
  constructor(network: string) {
    super(
      `this indexer no longer holds the ${network} lock (its database session ended); standing by`,
    );
    this.name = 'LockLostError';
  }
}

export class NetworkLock {
  /** Set when the lock's connection ended or failed: the lock is gone with it. */
  lost = false;

  private constructor(
    private readonly client: pg.Client,
    readonly network: string,
    readonly pid: number,
  ) {}

  /** Takes the lock if it is free; undefined when another session holds it. Throws when the database is unreachable. */
  static async tryAcquire(
    databaseUrl: string,
    network: string,
    log: Logger,
  ): Promise<NetworkLock | undefined> {
    const client = new pg.Client({
      ...nodePgConnection(databaseUrl),
      application_name: `tollgate-indexer-lock-${network}`,
    });
    let lock: NetworkLock | undefined;
    client.on('error', (err) => {
      if (lock && !lock.lost)
        log.warn({ error: describeError(err) }, 'indexer lock connection lost');
      if (lock) lock.lost = true;
    });
    client.on('end', () => {
      if (lock) lock.lost = true;
    });
    try {
      await client.connect();
      await client.query(NO_IDLE_SESSION_TIMEOUT);
      const {
        rows: [row],
      } = await client.query<{ ok: boolean; pid: number }>(
        'select pg_try_advisory_lock($1::int, hashtext($2)) as ok, pg_backend_pid() as pid',
        [NETWORK_LOCK_CLASS, network],
      );
      if (!row!.ok) {
        await client.end().catch(() => {});
        return undefined;
      }
      lock = new NetworkLock(client, network, row!.pid);
      return lock;
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
  }

  /** Ends the lock's session (Postgres releases the lock with it). Never throws. */
  async release(): Promise<void> {
    this.lost = true;
    await this.client.end().catch(() => {});
  }
}

/**
 * SQL: whether some session holds the indexer lock of the network `network` names (a column, or
 * a value), in this database, now: an indexer follows that network. A killed indexer's session
 * ends with its process, and the lock with it, so this turns false at once where the head it last
 * stored looks fresh for a while.
 */
export function networkFollowed(sql: Sql | TransactionSql, network: Fragment | string): Fragment {
  return sql`exists (
    select 1 from pg_locks
    where ${heldLock(sql, network)}
      and database = (select oid from pg_database where datname = current_database())
  )`;
}

/** SQL over pg_locks: the row is a granted hold of `network`'s indexer lock (of any session). */
function heldLock(sql: Sql | TransactionSql, network: Fragment | string): Fragment {
  return sql`locktype = 'advisory' and granted and objsubid = 2
    and classid = ${NETWORK_LOCK_CLASS}::bigint::oid and objid = (hashtext(${network})::bigint & 4294967295)::oid`;
}

/**
 * Throws LockLostError unless the session `pid` holds `network`'s indexer lock right now. Run in
 * the transaction that writes, before it writes: if the lock session ended, another indexer may
 * already be writing, and this transaction must not commit.
 */
export async function assertNetworkLock(
  tx: TransactionSql,
  network: string,
  pid: number,
): Promise<void> {
  const [row] = await tx<{ held: boolean }[]>`
    select exists (select 1 from pg_locks where ${heldLock(tx, network)} and pid = ${pid}) as held`;
  if (!row!.held) throw new LockLostError(network);
}
