import type { Db } from './index.js';

/**
 * How many connections the database lets Tollgate's role open, from what it says of itself:
 * the server's slots for a role like this one (`max_connections` less the slots reserved for
 * superusers and, Postgres 16+, for `pg_use_reserved_connections`), the role's own limit and the
 * database's (`CONNECTION LIMIT`; neither applies to a superuser). Other clients' connections
 * count against the same limits and are not known here.
 */
export interface ConnectionLimits {
  server: number;
  /** null: no limit. */
  role: number | null;
  database: number | null;
  superuser: boolean;
}

export async function connectionLimits(sql: Db): Promise<ConnectionLimits> {
  const [row] = await sql<
    {
      max: number;
      su_reserved: number;
      reserved: number;
      role: number;
      database: number;
      su: boolean;
    }[]
  >`
    select current_setting('max_connections')::int as max,
      current_setting('superuser_reserved_connections')::int as su_reserved,
      coalesce(nullif(current_setting('reserved_connections', true), '')::int, 0) as reserved,
      (select rolconnlimit from pg_roles where rolname = current_user) as role,
      (select datconnlimit from pg_database where datname = current_database()) as database,
      (select rolsuper from pg_roles where rolname = current_user) as su`;
  const r = row!;
  return {
    server: r.su ? r.max : r.max - r.su_reserved - r.reserved,
    role: r.su || r.role < 0 ? null : r.role,
    database: r.su || r.database < 0 ? null : r.database,
    superuser: r.su,
  };
}

/**
 * The start log's warning when a process may open more connections than a limit allows (then,
 * with every one in use, requests are answered 503 and the indexers and the worker wait for a
 * connection); undefined when every limit has room.
 */
export function connectionShortfall(wanted: number, limits: ConnectionLimits): string | undefined {
  const named: [string, number | null][] = [
    ['the server (max_connections less its reserved slots)', limits.server],
    ["Tollgate's role (its CONNECTION LIMIT)", limits.role],
    ['the database (its CONNECTION LIMIT)', limits.database],
  ];
  const tightest = named
    .filter((l): l is [string, number] => l[1] !== null)
    .sort((x, y) => x[1] - y[1])[0]!;
  if (wanted <= tightest[1]) return undefined;
  return `this process may open up to ${wanted} database connections, more than ${tightest[0]} allows (${tightest[1]}): when they are all in use, requests are answered 503 and the indexers and the worker wait; lower TOLLGATE_DATABASE_POOL_MAX, TOLLGATE_API_DATABASE_POOL_MAX or TOLLGATE_WORKER_CONCURRENCY, or raise the limit`;
}
