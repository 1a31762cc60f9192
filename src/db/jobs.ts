import { z } from 'zod';
import type { Sql, TransactionSql } from './index.js';

/**
 * The job contracts: for each graphile-worker task its name, payload schema and options, in one
 * place. Producers enqueue through them (enqueueJob, or `add_job` in set-based SQL with the
 * contract's task and options), the task files of workers/ parse their payload with them, and
 * the operations page lists every task named here.
 */
export interface JobContract<P extends z.ZodType> {
  task: string;
  payload: P;
  maxAttempts: number;
  /** graphile-worker's priority: lower runs first (default 0). */
  priority?: number;
}

const digits = (max: number) => z.string().regex(new RegExp(`^\\d{1,${max}}$`));

export const JOBS = {
  /** Reads one token's URI and fetches its metadata (wallet/). */
  fetch_nft_metadata: {
    task: 'fetch_nft_metadata',
    payload: z.object({
      network: z.string().regex(/^[a-z0-9]+$/),
      token: z.string().regex(/^0x[0-9a-f]{40}$/),
      token_id: digits(78),
      standard: z.enum(['ERC721', 'ERC1155']),
    }),
    // Only RPC failures are retried this way (wallet/fetch-metadata.ts).
    maxAttempts: 5,
    // Below the default 0: the other jobs, which carry events, go first when the worker is busy.
    priority: 10,
  },
  /** The live AML risk check of one transaction of one tracked address (aml/). */
  liveaml_check: {
    task: 'liveaml_check',
    payload: z.object({
      tracked_id: digits(19),
      network: z.string().regex(/^[a-z0-9]+$/),
      tx_hash: z.string().min(1).max(100),
      block_number: digits(19),
      block_hash: z.string().min(1).max(100),
    }),
    // A check only reads the database: a few attempts cover a connection lost on the way.
    maxAttempts: 10,
  },
  /** A live AML tracking created with from_block: its past transactions checked in order (aml/). */
  liveaml_replay: {
    task: 'liveaml_replay',
    payload: z.object({ tracked_id: digits(19) }),
    maxAttempts: 25,
  },
  /** After a label import: tracked addresses it made risky raise events (aml/). */
  liveaml_rescan: {
    task: 'liveaml_rescan',
    payload: z.object({}),
    // graphile-worker's default; imports in a row make one job (its job key is its task name).
    maxAttempts: 25,
  },
  /** Label changes of hubs, queued by the exposure triggers, applied to the counts (aml/). */
  exposure_apply: {
    task: 'exposure_apply',
    payload: z.object({}),
    // One job for the whole queue (its job key is its task name); sql/0027 enqueues it.
    maxAttempts: 25,
  },
  /**
   * The operator's notice of an endpoint the dispatcher disabled (it kept failing): a signed POST
   * to TOLLGATE_OPERATOR_WEBHOOK_URL (webhooks/). Enqueued in the record of attempts that
   * disabled it; its notice_id is the notice's webhook-id on every attempt.
   */
  webhook_endpoint_disabled: {
    task: 'webhook_endpoint_disabled',
    payload: z.object({
      endpoint_id: digits(19),
      notice_id: z.uuid(),
    }),
    // Retried with graphile-worker's backoff for about four days, as webhooks are.
    maxAttempts: 25,
  },
  /** One attempt at one message to another VASP, TRP or e-mail (travelrule/). */
  travelrule_send: {
    task: 'travelrule_send',
    payload: z.object({ message_id: z.union([z.int().positive(), digits(19)]) }),
    // The configured travel rule attempts replace this (travelrule/sending/queue.ts passes them).
    maxAttempts: 25,
  },
} as const satisfies Record<string, JobContract<z.ZodType>>;

export type JobName = keyof typeof JOBS;
export type JobPayload<N extends JobName> = z.infer<(typeof JOBS)[N]['payload']>;

/** Every task the worker runs, in the order the operations page lists them. */
export const JOB_NAMES = Object.keys(JOBS) as JobName[];

/**
 * Adds one job in the caller's transaction: the payload is checked against the contract first,
 * so a producer cannot write a job its task would refuse.
 */
export async function enqueueJob<N extends JobName>(
  sql: Sql | TransactionSql,
  name: N,
  payload: JobPayload<N>,
  opts: {
    jobKey?: string;
    jobKeyMode?: 'replace' | 'preserve_run_at';
    maxAttempts?: number;
    /** Seconds from now (the database's) before the job may run; none: at once. */
    runAfterS?: number;
  } = {},
): Promise<void> {
  const c: JobContract<z.ZodType> = JOBS[name];
  const checked = c.payload.parse(payload);
  // Sent as text and cast: a parameter typed json would be JSON.stringify'd again by postgres.js.
  await sql`select graphile_worker.add_job(${c.task}, ${JSON.stringify(checked)}::text::json,
    max_attempts => ${opts.maxAttempts ?? c.maxAttempts}::int, priority => ${c.priority ?? 0}::int,
    job_key => ${opts.jobKey ?? null}::text, job_key_mode => ${opts.jobKeyMode ?? 'replace'}::text,
    run_at => now() + make_interval(secs => ${opts.runAfterS ?? 0}::float8))`;
}
