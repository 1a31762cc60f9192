/**
 * Connection-level failures of Postgres (a restart, a failover, a cut): what was asked may be
 * asked again, nothing was changed by halves. The codes of node's sockets, of postgres.js's own
 * connection errors, Postgres's shutdown and start-up states (57P01–57P03), and a session it
 * ended for its timeouts (57P05 idle_session_timeout, 25P03 idle_in_transaction_session_timeout,
 * 25P04 transaction_timeout: the transaction rolled back with it).
 */
const DB_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  '57P01',
  '57P02',
  '57P03',
  '57P05',
  '25P03',
  '25P04',
]);

export function isDatabaseUnavailable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && DB_DOWN_CODES.has(code);
}

/**
 * A reachable Postgres that cannot take the request now, and why (for the operator's log): out of
 * connections or another resource (class 53: `max_connections`, a role's or database's limit,
 * disk, memory), read-only (25006: a standby, or a primary during a failover), a connection it
 * refused while starting (class 08), a conflict that passes when retried (40001, 40P01), or a
 * statement it cancelled: at its `statement_timeout` or `lock_timeout` (set by a DBA for the
 * server, the database or Tollgate's role), or by its operator (57014, 55P03). Asked again
 * later, the request may well succeed; nothing was changed by halves (the statement or its
 * transaction failed whole). Undefined for everything else.
 */
export function databaseBusy(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return undefined;
  if (code === '53300')
    return 'no free database connection (max_connections or a connection limit)';
  if (code.startsWith('53')) return 'the database server is out of a resource (disk, memory)';
  if (code === '25006') return 'the database is read-only (a standby, or a failover under way)';
  if (code.startsWith('08') && code !== '08P01') return 'the database refused the connection';
  if (code === '40001' || code === '40P01') return 'a conflicting transaction (retry)';
  if (code === '57014')
    return 'the database cancelled the statement (its statement_timeout, or its operator)';
  if (code === '55P03') return "a lock was not granted within the database's lock_timeout";
  return undefined;
}

/**
 * Why the database cannot serve a request now (out of reach, or busy: databaseBusy), for a 503
 * and the operator's log; undefined when the failure is something else.
 */
export function databaseCannotServe(err: unknown): string | undefined {
  return isDatabaseUnavailable(err) ? 'database unreachable' : databaseBusy(err);
}

/**
 * The database out of reach or unable to serve now (databaseCannotServe), as either driver says
 * it: node-postgres's lost connection carries no code.
 */
export function isDatabaseOutage(err: unknown): boolean {
  if (databaseCannotServe(err) !== undefined) return true;
  const message = err instanceof Error ? err.message : '';
  return (
    message.startsWith('Connection terminated') ||
    message === 'Client has encountered a connection error and is not queryable'
  );
}
