import postgres from 'postgres';

export type Sql = postgres.Sql;
export type TransactionSql = postgres.TransactionSql;
/** Either: a function that reads or writes with whatever it is given (a pool, or a transaction). */
export type Db = Sql | TransactionSql;
/** A piece of a statement, composed into another one (postgres.js runs the whole as one). */
export type Fragment = postgres.Fragment;

/**
 * Tables that list, per block, every (address, transaction) a chain's indexer saw (columns
 * network, address, block_number, tx_hash).
 */
export type AddressTable = 'evm_tx_addresses' | 'utxo_tx_addresses';

/** Seconds a pooled connection may stay idle before the pool closes it (src/db/idle-sessions.ts). */
export const POOL_IDLE_TIMEOUT_S = 60;

/**
 * Opens a postgres.js pool. int8 and numeric come back as strings (never lossy JS numbers);
 * callers turn them into bigint where they do arithmetic.
 */
export function openPool(
  url: string,
  options: { max?: number; application?: string; idleTimeoutS?: number } = {},
): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    connection: { application_name: options.application ?? 'tollgate' },
    idle_timeout: options.idleTimeoutS ?? POOL_IDLE_TIMEOUT_S,
    connect_timeout: 10,
  });
}

/**
 * A WHERE clause of the conditions given (null ones left out), joined with AND; empty when none.
 * Optional filters are built this way rather than as "$1 is null or col = $1": that catch-all
 * form lets Postgres settle on a generic plan that reads every row instead of using an index.
 */
export function whereAll(
  sql: Sql | TransactionSql,
  conditions: readonly (postgres.PendingQuery<postgres.Row[]> | null)[],
): postgres.PendingQuery<postgres.Row[]> {
  const given = conditions.filter((c) => c !== null);
  return given.length ? given.reduce((acc, c) => sql`${acc} and ${c}`, sql`where true`) : sql``;
}

/**
 * Runs `read` in one read-only transaction at REPEATABLE READ: all of its statements see one
 * snapshot, so an answer put together from several reads cannot mix two states of the database
 * (a label removed, a block stored or reorged away between two of them).
 */
export function inOneSnapshot<T>(sql: Sql, read: (tx: TransactionSql) => Promise<T>): Promise<T> {
  return sql.begin('isolation level repeatable read read only', read) as Promise<T>;
}
