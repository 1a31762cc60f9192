import postgres from 'postgres';

export type Sql = postgres.Sql;
export type TransactionSql = postgres.TransactionSql;

/**
 * Opens a postgres.js pool. int8 and numeric come back as strings (never lossy JS numbers);
 * callers turn them into bigint where they do arithmetic.
 */
export function openPool(url: string, options: { max?: number; application?: string } = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    connection: { application_name: options.application ?? 'tollgate' },
    idle_timeout: 60,
    connect_timeout: 10,
  });
}
