import { run, type Runner } from 'graphile-worker';
import { quietGraphileLogger } from '../db/migrate.js';
import { deliverWebhookTask } from '../../workers/deliver_webhook.js';
import { fetchNftMetadataTask } from '../../workers/fetch_nft_metadata.js';
import type { NftMetadataDeps } from '../wallet/fetch-metadata.js';
import type { DeliveryDeps } from '../webhooks/deliver.js';
import { log } from '../log.js';

/**
 * The worker role: graphile-worker running the task files of workers/. Several worker processes
 * against one Postgres are safe (jobs are claimed with SKIP LOCKED). New jobs wake it through
 * LISTEN/NOTIFY, so a delivery starts within milliseconds of the indexer's commit.
 */
export async function startWorker(databaseUrl: string, deps: DeliveryDeps & NftMetadataDeps, concurrency: number): Promise<Runner> {
  const runner = await run({
    connectionString: databaseUrl,
    concurrency,
    noHandleSignals: true,
    pollInterval: 2000,
    logger: quietGraphileLogger,
    taskList: {
      deliver_webhook: deliverWebhookTask(deps),
      fetch_nft_metadata: fetchNftMetadataTask(deps),
    },
  });
  log.info({ concurrency }, 'worker started');
  return runner;
}
