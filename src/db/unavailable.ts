/**
 * Connection-level failures of Postgres (a restart, a failover, a cut): what was asked may be
 * asked again, nothing was changed by halves. The codes of node's sockets, of postgres.js's own
 * connection errors, and Postgres's shutdown and start-up states (57P01–57P03).
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
]);

export function isDatabaseUnavailable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && DB_DOWN_CODES.has(code);
}
