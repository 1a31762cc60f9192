import { EventEmitter } from 'node:events';
import { run, type Runner, type Task, type TaskList, type WorkerEvents } from 'graphile-worker';
import type { JobName } from '../db/jobs.js';
import pg from 'pg';
import { nodePgOptions } from '../db/index.js';
import { stopStepWithin } from '../slow-step.js';
import { describeError } from '../errors.js';
import { quietGraphileLogger } from '../db/migrate.js';
import { fetchNftMetadataTask } from '../../workers/fetch_nft_metadata.js';
import { liveAmlCheckTask } from '../../workers/liveaml_check.js';
import { liveAmlRescanTask } from '../../workers/liveaml_rescan.js';
import { liveAmlReplayTask } from '../../workers/liveaml_replay.js';
import { exposureApplyTask } from '../../workers/exposure_apply.js';
import { travelRuleSendTask } from '../../workers/travelrule_send.js';
import { webhookEndpointDisabledTask } from '../../workers/webhook_endpoint_disabled.js';
import { type Keyring, type SenderDeps, travelRuleEvents } from '../travelrule/index.js';
import type { LiveAmlDeps } from '../liveaml/index.js';
import type { NftMetadataDeps } from '../wallet/index.js';
import type { PublicClient } from 'viem';
import type { DeliveryDeps } from '../webhooks/deliver.js';
import { streamEvents } from '../streams/index.js';
import { DeliveryDispatcher, type DispatcherOptions } from '../webhooks/dispatcher.js';
import type { OperatorWebhook } from '../webhooks/operator-notice.js';
import { log } from '../log.js';
import { startStaleLockSweeper, type StaleLockSweeper } from './stale-locks.js';
import { nodePgConnection } from '../config/database-url.js';
import { isDatabaseOutage } from '../db/unavailable.js';

/**
 * Job outcomes recorded together within this delay. graphile-worker 0.17 records an outcome
 * without awaiting it: unbatched, a database error there is an unhandled rejection that ends the
 * process; batched, the first batch that fails makes the worker pool shut itself down (the batch
 * is not retried, graphile/worker#636), which startWorker notices and answers with a new pool.
 * The jobs whose outcome was not recorded stay locked by the old pool until the sweeper frees
 * them, and run again. (Its local queue is not used: after a lost connection it could be left
 * holding jobs it never ran or returned. Webhook deliveries, the volume, are the dispatcher's
 * and not jobs.)
 */
const JOB_OUTCOME_BATCH_DELAY_MS = 10;
/**
 * A worker pool that ended on its own is replaced after this pause, doubling to the maximum. A
 * start that fails (the database still down) costs one refused connection; the maximum is short
 * so that live AML checks run within seconds of the database's return, not half a minute.
 */
const RESTART_MIN_MS = 1_000;
const RESTART_MAX_MS = 5_000;
/**
 * The worker's whole stop ends within this (then the process exits), inside a supervisor's grace
 * period (compose.yaml gives 30 s; the API and indexers stop before the worker). Whatever a step
 * still holds then is left as a kill -9 leaves it: claimed deliveries and locked jobs are taken
 * up again (their lease, the stale-lock sweeper), nothing is lost.
 */
export const WORKER_STOP_MS = 15_000;
/**
 * Jobs in hand get this long: graphile-worker aborts their signal after 5 s, and a job that
 * listens (NFT metadata, exposure chunks) hands its job back then; one that does not is left.
 */
const JOBS_STOP_MS = 10_000;
/** The last steps (the liveness connection, the job pool's connections) get at least this. */
const LAST_STEPS_MIN_MS = 1_000;

export interface Worker {
  /** Finishes the jobs in hand, then closes the worker's pool. */
  stop(): Promise<void>;
}

type WorkerDeps = Omit<DeliveryDeps, 'kinds'> &
  NftMetadataDeps &
  LiveAmlDeps & {
    /** viem clients by network: stream bodies read token metadata through them. */
    evmClients: ReadonlyMap<string, PublicClient>;
    /** Decrypts travel rule payloads: their webhook bodies are built from them at each attempt. */
    keyring?: Keyring;
    /** Travel rule webhook of keys that registered none (config travel_rule.webhook_url). */
    travelRuleWebhookUrl?: string;
    travelRule?: SenderDeps;
    /** Where the operator hears of endpoints disabled (TOLLGATE_OPERATOR_WEBHOOK_URL and its secret). */
    operatorWebhook?: OperatorWebhook;
  };

/**
 * The kinds of webhook events the dispatcher delivers, each from its own domain. A live AML
 * alert has no builder: its body is written with the event.
 */
function eventKinds(deps: WorkerDeps): DeliveryDeps['kinds'] {
  return new Map([
    ['stream', streamEvents(deps)],
    [
      'travelrule',
      travelRuleEvents({
        sql: deps.sql,
        keyring: deps.keyring,
        defaultUrl: deps.travelRuleWebhookUrl,
        allowHttpLoopback: deps.travelRule?.config.allow_http_loopback ?? false,
      }),
    ],
  ]);
}

/** One graphile-worker pool with the stale-lock sweeper that holds its liveness. */
interface Pool {
  runner: Runner;
  sweeper: StaleLockSweeper | undefined;
  /**
   * Settles (with the error that ended it, if any) once the pool runs no more jobs: when its
   * shutdown has finished with the jobs in hand, or its runner's promise settles. Not the
   * runner's promise alone: graphile-worker 0.17's batcher counts one pending batch too few
   * for each failed outcome batch after the first, so after a few in one pool its shutdown
   * waits for a count of zero that never comes, and the promise never settles (seen in the
   * fault suite when Postgres restarted while jobs ended).
   */
  ended: Promise<unknown>;
}

/** graphile-worker's events that a pool's shutdown is over as far as jobs go. */
const POOL_SHUTDOWN_ENDS = [
  'pool:gracefulShutdown:complete',
  'pool:gracefulShutdown:error',
  'pool:forcefulShutdown:complete',
  'pool:forcefulShutdown:error',
] as const;

/** Connections of graphile-worker's pool: one per job in parallel, and its listener and spare. */
export function jobQueueConnections(concurrency: number): number {
  return concurrency + 2;
}

/**
 * The worker role: the webhook dispatcher (src/webhooks/dispatcher.ts) and graphile-worker
 * running the task files of workers/. Several worker processes against one Postgres are safe
 * (both claim with SKIP LOCKED). New jobs and events wake them through LISTEN/NOTIFY.
 * The pg pool is ours, with an error listener: a connection the server drops (a restart, a
 * failover) is logged and replaced instead of crashing the process. If graphile-worker's pool
 * ends on its own (it shuts itself down when it cannot record outcomes), a new one is started:
 * the old one's jobs are freed by the sweeper within seconds, like a killed process's.
 */
export async function startWorker(
  databaseUrl: string,
  deps: WorkerDeps,
  concurrency: number,
  delivery: DispatcherOptions,
): Promise<Worker> {
  const pgPool = new pg.Pool({
    // Each connection opts out of the server's idle_session_timeout (idle-sessions.ts):
    // graphile-worker's listener is idle by design.
    ...nodePgConnection(databaseUrl, await nodePgOptions(deps.sql, ['idle_session_timeout'])),
    max: jobQueueConnections(concurrency),
    application_name: 'tollgate-worker',
  });
  pgPool.on('error', (err) =>
    log.warn({ error: describeError(err) }, 'worker database connection lost; reconnecting'),
  );
  // Its connections until each has closed: pg's Pool.end() resolves once it has told them to end,
  // before their sockets close; the stop waits for those (see `closed` below).
  const open = new Set<pg.ClientBase>();
  // A client checked out when its connection fails raises the error at its next query; its
  // 'error' listener only keeps the event from going unhandled.
  pgPool.on('connect', (client) => {
    open.add(client);
    client.once('end', () => open.delete(client));
    client.on('error', (err) =>
      log.warn({ error: describeError(err) }, 'worker database connection failed'),
    );
  });
  /**
   * The pool ended and every connection of it closed. Without the wait, the database closed next
   * (the embedded Postgres stopped by the same stop) could terminate sessions still ending, each
   * logged as a lost connection (seen in CI, under load, on Ctrl-C).
   */
  const closed = async () => {
    await pgPool.end();
    await Promise.all(
      [...open].map((c) => new Promise<void>((resolve) => c.once('end', () => resolve()))),
    );
  };
  const tasks: Partial<Record<JobName, Task>> = {
    fetch_nft_metadata: fetchNftMetadataTask(deps),
    liveaml_check: liveAmlCheckTask(deps),
    liveaml_replay: liveAmlReplayTask(deps),
    liveaml_rescan: liveAmlRescanTask(deps),
    exposure_apply: exposureApplyTask(deps),
    ...(deps.travelRule ? { travelrule_send: travelRuleSendTask(deps.travelRule) } : {}),
    ...(deps.operatorWebhook
      ? {
          webhook_endpoint_disabled: webhookEndpointDisabledTask({
            ...deps,
            operatorWebhook: deps.operatorWebhook,
          }),
        }
      : {}),
  };
  const taskList = tasks as TaskList;

  const startPool = async (): Promise<Pool> => {
    let poolId: string | undefined;
    const events = new EventEmitter() as WorkerEvents;
    events.on('pool:create', ({ workerPool }) => {
      poolId = workerPool.id;
    });
    let cause: unknown;
    events.on('pool:fatalError', ({ error }) => {
      cause ??= error;
    });
    const shutdownOver = new Promise<void>((resolve) => {
      for (const name of POOL_SHUTDOWN_ENDS) events.on(name, () => resolve());
    });
    const runner = await run({
      pgPool,
      events,
      concurrency,
      noHandleSignals: true,
      pollInterval: 2000,
      logger: quietGraphileLogger,
      preset: {
        worker: {
          completeJobBatchDelay: JOB_OUTCOME_BATCH_DELAY_MS,
          failJobBatchDelay: JOB_OUTCOME_BATCH_DELAY_MS,
        },
      },
      taskList,
    });
    if (!poolId)
      log.warn(
        "worker pool id unknown: jobs of dead workers are freed only after graphile-worker's 4 hours",
      );
    const ended = Promise.race([
      shutdownOver.then(() => cause),
      runner.promise.then(
        () => cause,
        (err: unknown) => cause ?? err,
      ),
    ]);
    return {
      runner,
      sweeper: poolId ? startStaleLockSweeper(pgPool, databaseUrl, poolId) : undefined,
      ended,
    };
  };

  let stopping = false;
  let current: Pool;
  try {
    current = await startPool();
  } catch (err) {
    await pgPool.end();
    throw err;
  }
  let wake: (() => void) | undefined;
  const supervise = (async () => {
    for (let failures = 0; !stopping; ) {
      const ended = await current.ended;
      if (stopping) return;
      // The database's outage is waited out like everywhere else (a warning); anything else is
      // a failure someone should look at.
      log[isDatabaseOutage(ended) ? 'warn' : 'error'](
        { error: ended === undefined ? 'ended' : describeError(ended) },
        'job worker pool ended on its own; starting a new one',
      );
      await current.sweeper?.stop(); // its liveness lock goes: the new pool's sweeper frees its jobs
      for (;;) {
        const delay = Math.min(RESTART_MAX_MS, RESTART_MIN_MS * 2 ** failures++);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, delay);
          wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
        if (stopping) return;
        try {
          current = await startPool();
          failures = 0;
          log.info('job worker pool started again');
          break;
        } catch (err) {
          log.warn(
            { error: describeError(err) },
            'could not start a job worker pool yet; trying again',
          );
        }
      }
    }
  })();

  const dispatcher = new DeliveryDispatcher(
    { ...deps, kinds: eventKinds(deps) },
    { ...delivery, notifyOperator: deps.operatorWebhook !== undefined },
  );
  dispatcher.start();
  log.info({ concurrency, delivery_concurrency: delivery.concurrency }, 'worker started');
  return {
    stop: async () => {
      stopping = true;
      wake?.();
      const until = performance.now() + WORKER_STOP_MS;
      const left = (atLeast = 0) => Math.max(atLeast, until - performance.now());
      // Deliveries and jobs are independent: they stop side by side.
      await Promise.all([
        stopStepWithin('worker: webhook deliveries in hand', left(), () => dispatcher.stop()),
        (async () => {
          await stopStepWithin('worker: jobs in hand', Math.min(JOBS_STOP_MS, left()), () =>
            current.runner
              .stop()
              .catch((err) =>
                log.warn({ error: describeError(err) }, 'job worker pool did not stop cleanly'),
              ),
          );
          await stopStepWithin('worker: job pool supervisor', left(), () => supervise);
        })(),
      ]);
      await stopStepWithin('worker: stale lock sweeper', left(LAST_STEPS_MIN_MS), () =>
        current.sweeper?.stop(),
      );
      await stopStepWithin('worker: job database connections', left(LAST_STEPS_MIN_MS), closed);
    },
  };
}
