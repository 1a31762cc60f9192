import type { Sql } from '../db/index.js';
import { networkInfo, type NetworkFamily } from '../config/networks.js';

/**
 * Creates a network's partition of each of its family's chain tables, and of address_edges
 * (idempotent; serialised by an advisory lock so that indexers starting together are safe).
 * `<table>_<network>`, e.g. evm_transactions_polygon.
 */
export async function ensurePartitions(
  sql: Sql,
  family: NetworkFamily,
  network: string,
  tables: readonly string[],
): Promise<void> {
  if (networkInfo(network)?.family !== family || !/^[a-z0-9]+$/.test(network))
    throw new Error(`not a ${family} network: ${network}`);
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext('tollgate_partitions'))`;
    for (const table of [...tables, 'address_edges']) {
      await tx.unsafe(
        `create table if not exists ${table}_${network} partition of ${table} for values in ('${network}')`,
      );
    }
  });
}
