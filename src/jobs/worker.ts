import { run, type Runner } from 'graphile-worker';
import pg from 'pg';
import { describeError } from '../errors.js';
import { quietGraphileLogger } from '../db/migrate.js';
import { deliverWebhookTask } from '../../workers/deliver_webhook.js';
import { fetchNftMetadataTask } from '../../workers/fetch_nft_metadata.js';
import { liveAmlCheckTask } from '../../workers/liveaml_check.js';
import { liveAmlRescanTask } from '../../workers/liveaml_rescan.js';
import { travelRuleSendTask } from '../../workers/travelrule_send.js';
import type { SenderDeps } from '../travelrule/messages.js';
import type { LiveAmlDeps } from '../aml/live-check.js';
import type { NftMetadataDeps } from '../wallet/fetch-metadata.js';
import type { DeliveryDeps } from '../webhooks/deliver.js';
import { log } from '../log.js';

export interface Worker {
  /** Finishes the jobs in hand, then closes the worker's pool. */
  stop(): Promise<void>;
}

/**
 * The worker role: graphile-worker running the task files of workers/. Several worker processes
 * against one Postgres are safe (jobs are claimed with SKIP LOCKED). New jobs wake it through
 * LISTEN/NOTIFY, so a delivery starts within milliseconds of the indexer's commit.
 * The pg pool is ours, with an error listener: a connection the server drops while idle (a
 * restart, a failover) is logged and replaced instead of crashing the process.
 */
export async function startWorker(databaseUrl: string, deps: DeliveryDeps & NftMetadataDeps & LiveAmlDeps & { travelRule?: SenderDeps }, concurrency: number): Promise<Worker> {
  const pgPool = new pg.Pool({ connectionString: databaseUrl, max: concurrency + 2, application_name: 'tollgate-worker' });
  pgPool.on('error', (err) => log.warn({ error: describeError(err) }, 'worker database connection lost; reconnecting'));
  // A client checked out when its connection fails raises the error at its next query; this
  // listener only keeps the event from going unhandled.
  pgPool.on('connect', (client) => client.on('error', (err) => log.warn({ error: describeError(err) }, 'worker database connection failed')));
  let runner: Runner;
  try {
    runner = await run({
      pgPool,
      concurrency,
      noHandleSignals: true,
      pollInterval: 2000,
      logger: quietGraphileLogger,
      taskList: {
        deliver_webhook: deliverWebhookTask(deps),
        fetch_nft_metadata: fetchNftMetadataTask(deps),
        liveaml_check: liveAmlCheckTask(deps),
        liveaml_rescan: liveAmlRescanTask(deps),
        ...(deps.travelRule ? { travelrule_send: travelRuleSendTask(deps.travelRule) } : {}),
      },
    });
  } catch (err) {
    await pgPool.end();
    throw err;
  }
  log.info({ concurrency }, 'worker started');
  return {
    stop: async () => {
      await runner.stop();
      await pgPool.end();
    },
  };
}
