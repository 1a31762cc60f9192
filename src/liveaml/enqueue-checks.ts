import type { StoredBlocks, TransactionSql } from '../db/index.js';
import { JOBS } from '../db/jobs.js';

/**
 * The indexer's side of the live AML risk worker: in the block's transaction, one
 * `liveaml_check` job per (address tracked for live AML, transaction of the block touching it).
 * The job (src/liveaml/check.ts) does the analysis later, outside the block's transaction, so
 * indexing never waits for the exposure queries.
 */

/**
 * Adds the checks of a run of blocks, in one statement. The job key
 * `aml:<tracked_id>:<tx_hash>:<block_hash>` makes a replayed block add nothing while the job
 * waits; a check that runs twice records nothing twice (the unique keys of liveaml_events and
 * webhook_events). Returns how many jobs were added.
 */
export async function enqueueLiveAmlChecks(
  tx: TransactionSql,
  opts: StoredBlocks,
): Promise<number> {
  if (opts.blocks.length === 0) return 0;
  const rows = await tx`
    with due as (
      select distinct t.id, a.tx_hash, a.block_number, b.hash as block_hash
      from unnest(${opts.blocks.map((b) => b.number.toString())}::bigint[], ${opts.blocks.map((b) => b.hash)}::text[]) as b(number, hash)
      join ${tx(opts.table)} a on a.network = ${opts.network} and a.block_number = b.number
      join tracked_addresses t on t.address = a.address and t.family = ${opts.family} and t.aml_webhook is not null
      join api_keys k on k.id = t.api_key_id and k.revoked_at is null
    )
    select graphile_worker.add_job(${JOBS.liveaml_check.task},
        json_build_object('tracked_id', due.id::text, 'network', ${opts.network}::text, 'tx_hash', due.tx_hash,
          'block_number', due.block_number::text, 'block_hash', due.block_hash),
        max_attempts => ${JOBS.liveaml_check.maxAttempts}::int,
        job_key => 'aml:' || due.id::text || ':' || due.tx_hash || ':' || due.block_hash,
        job_key_mode => 'preserve_run_at')
    from due
    order by due.block_number`;
  return rows.length;
}
