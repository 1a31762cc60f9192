import postgres from 'postgres';
import { databaseConnection } from '../config/database-url.js';
import { assertPatchedDriver } from './patched-driver.js';

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

/**
 * Blocks an indexer has just stored in the caller's transaction, in order, with the address table
 * of their family (tracked_addresses.family): what stream events and live AML checks are read
 * from, one statement for the whole run.
 */
export interface StoredBlocks {
  table: AddressTable;
  family: 'evm' | 'utxo';
  network: string;
  blocks: readonly { number: bigint; hash: string }[];
}

/** Seconds a pooled connection may stay idle before the pool closes it (src/db/idle-sessions.ts). */
export const POOL_IDLE_TIMEOUT_S = 60;

/**
 * The shortest pause (seconds) between a connection's close and its next connect (a connection
 * opened again later waits for nothing). postgres.js pauses by its count of connection errors in
 * a row, 0.5-1 × 3^n / 100 s (up to 20 s); but a connection the server refuses at its start
 * (53300: no free slot, or a role's CONNECTION LIMIT) closes cleanly and is not counted, and the
 * LISTEN connection is opened again whenever it closes: it was tried every 5-10 ms, about a
 * hundred connections a second for as long as the server refused it
 * (test/db-listen-refused.test.ts).
 */
export const RECONNECT_MIN_PAUSE_S = 0.25;

/**
 * postgres.js's `backoff`: its own pause after `errors` connection errors in a row, but at least
 * 1-2 × RECONNECT_MIN_PAUSE_S (spread, so that connections closed together do not come back
 * together). The driver takes it when a connection closes; patched, it asks again when another
 * connection of the pool has reached the server since (README "Patched dependency").
 */
export function reconnectPauseS(errors: number): number {
  const own = (0.5 + Math.random() / 2) * Math.min(3 ** errors / 100, 20);
  return Math.max(own, (1 + Math.random()) * RECONNECT_MIN_PAUSE_S);
}

/**
 * The session settings Tollgate's code is written for, asked for at every connection's start so
 * that they hold whatever a DBA set for the server, the database or Tollgate's role (for
 * Tollgate's own sessions only):
 * - output formats its drivers parse: dates and times in ISO (under DateStyle 'SQL, DMY' a
 *   timestamptz came back as an Invalid Date, a travel rule transaction could not be stored, and a
 *   date had its day and month swapped), bytea in hex (as 'escape', a sealed value came back cut
 *   short), intervals in Postgres's style;
 * - READ COMMITTED as the default isolation (statements that need more ask for it): under a
 *   default of SERIALIZABLE, live AML checks failed again and again on "could not serialize
 *   access due to concurrent update" while blocks were written, and were retried for minutes.
 * Not `default_transaction_read_only`: a read-only session is how a standby or a failover shows.
 */
export const SESSION_SETTINGS = {
  DateStyle: 'ISO, MDY',
  IntervalStyle: 'postgres',
  bytea_output: 'hex',
  default_transaction_isolation: 'read committed',
} as const;

/** SESSION_SETTINGS as node-postgres's startup `options` (a space in a value escaped). */
export const SESSION_SETTING_OPTIONS = Object.entries(SESSION_SETTINGS)
  .map(([name, value]) => `-c ${name}=${value.replace(/ /g, '\\ ')}`)
  .join(' ');

/**
 * The startup `options` of a node-postgres pool: SESSION_SETTING_OPTIONS, and each of `off` set
 * to 0 for the pool's sessions from their start (a DBA's timeout the pool must not have). A
 * setting the server lacks is left out (asked of `sql`): an unknown one would refuse the
 * connection. In the options rather than a statement after connecting: node-postgres deprecates a
 * statement sent beside the pool user's first one.
 */
export async function nodePgOptions(sql: Sql, off: readonly string[]): Promise<string> {
  const [{ zeroed }] = await sql<[{ zeroed: string }]>`
    select coalesce(string_agg('-c ' || name || '=0', ' '), '') as zeroed
    from pg_settings where name = any(${off}::text[])`;
  return `${SESSION_SETTING_OPTIONS} ${zeroed}`.trim();
}

/**
 * A time setting of this session in milliseconds (`statement_timeout`, `idle_session_timeout`:
 * their unit), as the server applies it; 0 for none, and for a setting the server lacks.
 */
export async function settingMs(sql: Db, name: string): Promise<number> {
  const [row] = await sql<{ ms: string | null }[]>`
    select setting as ms from pg_settings where name = ${name}`;
  return Number(row?.ms ?? 0) || 0;
}

/**
 * Opens a postgres.js pool. int8 and numeric come back as strings (never lossy JS numbers);
 * callers turn them into bigint where they do arithmetic. Its sessions use SESSION_SETTINGS.
 */
export function openPool(
  url: string,
  options: {
    max?: number;
    application?: string;
    idleTimeoutS?: number;
    /** A `statement_timeout` for this pool's sessions (ms), in place of the database's. */
    statementTimeoutMs?: number;
  } = {},
): Sql {
  assertPatchedDriver();
  // DATABASE_URL's parts, as node-postgres is given them (config/database-url.ts).
  const target = databaseConnection(url);
  return postgres({
    host: target.host,
    port: target.port,
    database: target.database,
    username: target.user,
    password: target.password,
    ssl: target.ssl,
    max: options.max ?? 10,
    onnotice: () => {},
    connection: {
      application_name: options.application ?? 'tollgate',
      ...(target.options ? { options: target.options } : {}),
      ...SESSION_SETTINGS,
      ...(options.statementTimeoutMs !== undefined
        ? { statement_timeout: options.statementTimeoutMs }
        : {}),
    },
    idle_timeout: options.idleTimeoutS ?? POOL_IDLE_TIMEOUT_S,
    connect_timeout: target.connectTimeoutS ?? 10,
    backoff: reconnectPauseS,
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
