import { EventEmitter } from 'node:events';
import { run, type Runner, type WorkerEvents } from 'graphile-worker';
import { RETRYABLE_ERROR_CODES } from 'graphile-worker/dist/lib.js';
import pg from 'pg';
import { describeError } from '../errors.js';
import { quietGraphileLogger } from '../db/migrate.js';
import { fetchNftMetadataTask } from '../../workers/fetch_nft_metadata.js';
import { liveAmlCheckTask } from '../../workers/liveaml_check.js';
import { liveAmlRescanTask } from '../../workers/liveaml_rescan.js';
import { travelRuleSendTask } from '../../workers/travelrule_send.js';
import type { SenderDeps } from '../travelrule/messages.js';
import type { LiveAmlDeps } from '../aml/live-check.js';
import type { NftMetadataDeps } from '../wallet/fetch-metadata.js';
import type { DeliveryDeps } from '../webhooks/deliver.js';
import { DeliveryDispatcher, type DispatcherOptions } from '../webhooks/dispatcher.js';
import { log } from '../log.js';
import { startStaleLockSweeper, type StaleLockSweeper } from './stale-locks.js';

/**
 * graphile-worker (0.17) records a job's outcome without awaiting it, retrying only the error
 * codes of this table: any other error there is an unhandled rejection that ends the process. A
 * Postgres restart (57P01 admin shutdown, 57P02, connections cut or refused while it is down)
 * must be waited out like the failover (57P03) already in it, not crash the worker.
 */
for (const code of ['57P01', '57P02', '08000', '08001', '08003', '08006', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE']) {
  RETRYABLE_ERROR_CODES[code] ??= { minDelay: 500, maxDelay: 30_000 };
}

/**
 * Jobs the pool fetches (and locks) per query for its workers: one get-jobs round trip serves
 * many deliveries instead of one each. A killed process's queued jobs are freed by the others
 * (stale-locks.ts) like its running ones; a stopping one returns them to the database.
 */
const LOCAL_QUEUE_SIZE_JOBS = 50;
/**
 * Completions recorded together within this delay, one statement for all of them. A crash in
 * the window runs those jobs again (at least once): their events are no longer pending, so the
 * next attempt finds them settled and sends nothing.
 */
const COMPLETE_JOB_BATCH_DELAY_MS = 10;

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
 * Jobs a killed worker process had locked are freed by the others within seconds (stale-locks.ts).
 */
export async function startWorker(databaseUrl: string, deps: DeliveryDeps & NftMetadataDeps & LiveAmlDeps & { travelRule?: SenderDeps }, concurrency: number, delivery: DispatcherOptions): Promise<Worker> {
  const pgPool = new pg.Pool({ connectionString: databaseUrl, max: concurrency + 2, application_name: 'tollgate-worker' });
  pgPool.on('error', (err) => log.warn({ error: describeError(err) }, 'worker database connection lost; reconnecting'));
  // A client checked out when its connection fails raises the error at its next query; this
  // listener only keeps the event from going unhandled.
  pgPool.on('connect', (client) => client.on('error', (err) => log.warn({ error: describeError(err) }, 'worker database connection failed')));
  let runner: Runner;
  let poolId: string | undefined;
  const events = new EventEmitter() as WorkerEvents;
  events.on('pool:create', ({ workerPool }) => { poolId = workerPool.id; });
  try {
    runner = await run({
      pgPool,
      events,
      concurrency,
      noHandleSignals: true,
      pollInterval: 2000,
      logger: quietGraphileLogger,
      preset: {
        worker: {
          localQueue: { size: LOCAL_QUEUE_SIZE_JOBS },
          completeJobBatchDelay: COMPLETE_JOB_BATCH_DELAY_MS,
        },
      },
      taskList: {
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
  const sweeper: StaleLockSweeper | undefined = poolId ? startStaleLockSweeper(pgPool, databaseUrl, poolId) : undefined;
  if (!poolId) log.warn('worker pool id unknown: jobs of dead workers are freed only after graphile-worker\'s 4 hours');
  const dispatcher = new DeliveryDispatcher(deps, delivery);
  dispatcher.start();
  log.info({ concurrency, delivery_concurrency: delivery.concurrency, pool_id: poolId }, 'worker started');
  return {
    stop: async () => {
      await dispatcher.stop();
      await runner.stop();
      await sweeper?.stop();
      await pgPool.end();
    },
  };
}
