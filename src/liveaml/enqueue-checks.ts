import type { TransactionSql } from '../db/index.js';
import { JOBS } from '../db/jobs.js';
import type { AddressTable } from '../db/index.js';

/**
 * The indexer's side of the live AML risk worker: in the block's transaction, one
 * `liveaml_check` job per (address tracked for live AML, transaction of the block touching it).
 * The job (src/liveaml/check.ts) does the analysis later, outside the block's transaction, so
 * indexing never waits for the exposure queries.
 */

/**
 * Adds the checks of one block. The job key `aml:<tracked_id>:<tx_hash>:<block_hash>` makes a
 * replayed block add nothing while the job waits; a check that runs twice records nothing twice
 * (the unique keys of liveaml_events and webhook_events). Returns how many jobs were added.
 */
export async function enqueueLiveAmlChecks(
  tx: TransactionSql,
  opts: {
    table: AddressTable;
    family: 'evm' | 'utxo';
    network: string;
    blockNumber: bigint;
    blockHash: string;
  },
): Promise<number> {
  const rows = await tx`
    with due as (
      select distinct t.id, a.tx_hash
      from ${tx(opts.table)} a
      join tracked_addresses t on t.address = a.address and t.family = ${opts.family} and t.aml_webhook is not null
      join api_keys k on k.id = t.api_key_id and k.revoked_at is null
      where a.network = ${opts.network} and a.block_number = ${opts.blockNumber.toString()}
    )
    select graphile_worker.add_job(${JOBS.liveaml_check.task},
        json_build_object('tracked_id', due.id::text, 'network', ${opts.network}::text, 'tx_hash', due.tx_hash,
          'block_number', ${opts.blockNumber.toString()}::text, 'block_hash', ${opts.blockHash}::text),
        max_attempts => ${JOBS.liveaml_check.maxAttempts}::int,
        job_key => 'aml:' || due.id::text || ':' || due.tx_hash || ':' || ${opts.blockHash}::text,
        job_key_mode => 'preserve_run_at')
    from due`;
  return rows.length;
}
