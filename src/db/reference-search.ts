import { log } from '../log.js';
import type { Sql } from './index.js';
import { withoutTimeLimits } from './time-limits.js';

/** The trigram index that serves the dashboard's search by part of a reference (sql/0047). */
export const REFERENCE_SEARCH_INDEX = 'travelrule_transactions_ref_trgm';

/**
 * The index of sql/0047, made at a start when the migration could not make it (pg_trgm was not
 * installed then, or Tollgate's user may not create it) and it can be made now: a DBA who
 * installs the extension afterwards needs only a restart. Where it still cannot, the start log
 * says so once, with what to do; the search works without it, reading every transaction.
 * Under the migrations' lock, so that roles starting together make it once. Never throws for
 * the index: a failure is logged, and the start goes on.
 */
export async function ensureReferenceSearchIndex(sql: Sql): Promise<boolean> {
  const present = async () =>
    (await sql`select 1 from pg_indexes where indexname = ${REFERENCE_SEARCH_INDEX}`).length > 0;
  if (await present()) return true;
  let why = 'pg_trgm is not installed, or this user may not create it';
  try {
    await sql.begin(async (tx) => {
      await withoutTimeLimits(tx); // as a migration's (an index on every transaction)
      await tx`select pg_advisory_xact_lock(hashtext('tollgate_migrate'))`;
      await tx`create extension if not exists pg_trgm`;
      await tx.unsafe(
        `create index if not exists ${REFERENCE_SEARCH_INDEX} on travelrule_transactions using gin (lower(transaction_ref) gin_trgm_ops)`,
      );
    });
  } catch (err) {
    why = (err as Error).message ?? why;
  }
  if (await present()) {
    log.info({ index: REFERENCE_SEARCH_INDEX }, 'index for the search by reference created');
    return true;
  }
  log.warn(
    { index: REFERENCE_SEARCH_INDEX, reason: why },
    "the dashboard's search by reference reads every travel rule transaction: no trigram index (as the database's owner or a superuser: create extension pg_trgm; the next start adds the index)",
  );
  return false;
}
