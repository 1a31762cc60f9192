import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { command } from './command.js';
import { withDatabase } from '../db/open.js';
import type { Config } from '../config/index.js';
import type { Sql } from '../db/index.js';
import { formatStatusTable, indexerStatus } from '../indexer/status.js';
import { resumeIndexer } from '../indexer/cursor.js';
import {
  type Backfill,
  backfillProgress,
  cancelBackfill,
  getBackfill,
  listBackfills,
  requestBackfill,
  requestRetrace,
} from '../indexer/backfill.js';

export const INDEXER_USAGE = `Usage:
  tollgate indexer [--network X]...
      the indexers only (all configured networks, or X; repeatable)
  tollgate indexer status [--json]
      per network: head, indexed block, lag, last reorg, halted or running
  tollgate indexer resume --network X [--allow-deep-reorg]
      lift a halt (a reorg past finality, a node contradicting itself); the running indexer goes on
      within seconds. --allow-deep-reorg lets its next reorg pass the depth limit and the node's
      finalized block once: only after checking that the node's chain is the one to follow
  tollgate indexer backfill --network X --from N [--to M] [--wait]
      index blocks N..M (M: just below the indexed history) beside the live follower, as history
      (no stream webhooks); the network's running indexer does it. --wait prints progress until
      it ends (exit 0 done, 1 failed or cancelled)
  tollgate indexer backfill list [--json] | cancel ID
      the backfills and retraces, newest first; cancel a running one (what it stored stays)
  tollgate indexer retrace --network X [--from N] [--to M] [--wait]
      read the call traces of stored blocks N..M (default: all stored) that were stored without
      them (a node without traces, or without the state for old blocks; blocks stored before
      this version) and add their internal transfers, as history (no webhooks); the network's
      running indexer does it, from the top down, one job per network at a time`;

const cmd = command('indexer', INDEXER_USAGE);

/** Who ran a CLI command, for the audit log. */
export function cliActor(): string {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    /* no user name (a container's uid without a passwd entry) */
  }
  return `cli:${user}`;
}

/** `tollgate indexer status|resume …` (the indexer role itself starts in src/cli.ts). */
export async function indexerCommand(config: Config, args: string[]): Promise<void> {
  await cmd.run(() => indexer(config, args));
}

async function indexer(config: Config, args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'status') {
    const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean' } } });
    return withDatabase(config, async (sql) => {
      const rows = await indexerStatus(sql);
      process.stdout.write(values.json ? JSON.stringify(rows) + '\n' : formatStatusTable(rows));
    });
  }
  if (sub === 'resume') {
    const { values } = parseArgs({
      args: rest,
      options: { network: { type: 'string' }, 'allow-deep-reorg': { type: 'boolean' } },
    });
    if (!values.network) return cmd.usage('indexer resume needs --network X');
    const network = values.network.toLowerCase();
    const allow = values['allow-deep-reorg'] ?? false;
    const once = allow
      ? '; its next reorg may pass the depth limit and the finalized block once'
      : '';
    return withDatabase(config, async (sql) => {
      const result = await resumeIndexer(sql, network, allow, cliActor());
      if (!result.found) return cmd.fail(`no indexer has run for ${network} in this database`, 1);
      process.stdout.write(
        result.reason
          ? `Resumed ${network} (it was halted: ${result.reason})${once}.\n`
          : `${network} was not halted${once}.\n`,
      );
    });
  }
  if (sub === 'backfill') return backfill(config, rest);
  if (sub === 'retrace') return retrace(config, rest);
  cmd.usage(sub ? `unknown subcommand "${sub}"` : undefined);
}

function describeBackfill(b: Backfill): string {
  const { total, done, perS, etaS } = backfillProgress(b);
  return [
    `#${b.id}`,
    b.kind === 'traces' ? 'retrace' : 'backfill',
    b.network,
    `${b.from_block}–${b.to_block}`,
    b.status,
    b.kind === 'traces' ? `${b.blocks_done} blocks traced` : `${done}/${total} blocks`,
    `${b.txs_done} tx`,
    perS > 0 ? `${perS.toFixed(1)} blocks/s` : '',
    etaS === undefined ? '' : `ETA ${etaS} s`,
    b.error ? `error: ${b.error}` : '',
  ]
    .filter(Boolean)
    .join('  ');
}

const BLOCK_NUMBER = /^\d{1,18}$/;

/** The flags of a backfill or retrace request; undefined once a bad one is told (usage). */
function jobArgs(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      network: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      wait: { type: 'boolean' },
    },
  });
  for (const [flag, raw] of [
    ['--from', values.from],
    ['--to', values.to],
  ] as const)
    if (raw !== undefined && !BLOCK_NUMBER.test(raw)) {
      cmd.usage(`${flag} must be a block number, got "${raw}"`);
      return undefined;
    }
  return values;
}

async function backfill(config: Config, args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'list') {
    const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean' } } });
    return withDatabase(config, async (sql) => {
      const rows = await listBackfills(sql);
      if (values.json) process.stdout.write(JSON.stringify(rows) + '\n');
      else if (rows.length === 0) process.stdout.write('No backfills.\n');
      else for (const b of rows) process.stdout.write(describeBackfill(b) + '\n');
    });
  }
  if (sub === 'cancel') {
    const { positionals } = parseArgs({ args: rest, allowPositionals: true });
    if (positionals.length !== 1) return cmd.usage('indexer backfill cancel needs the backfill id');
    return withDatabase(config, async (sql) => {
      const b = await cancelBackfill(sql, positionals[0]!.replace(/^#/, ''), cliActor());
      if (!b) return cmd.fail(`no running backfill #${positionals[0]}`, 1);
      process.stdout.write(`Cancelled ${describeBackfill(b)} (what it stored stays).\n`);
    });
  }
  const values = jobArgs(args);
  if (!values) return;
  if (!values.network || values.from === undefined)
    return cmd.usage('indexer backfill needs --network X and --from N');
  const network = values.network.toLowerCase();
  const from = BigInt(values.from);
  const to = values.to === undefined ? undefined : BigInt(values.to);
  return withDatabase(config, async (sql) => {
    const { backfill: b, note } = await requestBackfill(sql, {
      network,
      from,
      to,
      requestedBy: cliActor(),
    });
    if (note) process.stdout.write(`note: ${note}\n`);
    process.stdout.write(
      `Backfill #${b.id} of ${network}, blocks ${b.from_block}–${b.to_block}, queued for the running ${network} indexer.\n`,
    );
    await followJob(sql, b, values.wait ?? false);
  });
}

async function retrace(config: Config, args: string[]): Promise<void> {
  const values = jobArgs(args);
  if (!values) return;
  if (!values.network) return cmd.usage('indexer retrace needs --network X');
  const network = values.network.toLowerCase();
  return withDatabase(config, async (sql) => {
    const { backfill: b, note } = await requestRetrace(sql, {
      network,
      from: values.from === undefined ? undefined : BigInt(values.from),
      to: values.to === undefined ? undefined : BigInt(values.to),
      requestedBy: cliActor(),
    });
    if (note) process.stdout.write(`note: ${note}\n`);
    process.stdout.write(
      `Retrace #${b.id} of ${network}, stored blocks ${b.from_block}–${b.to_block} without their call traces (from ${b.next_block} down), queued for the running ${network} indexer.\n`,
    );
    await followJob(sql, b, values.wait ?? false);
  });
}

/**
 * With `wait`, a line each time a job's progress changes until it ends (exit code 1 when it
 * failed or was cancelled); then the job as JSON.
 */
async function followJob(sql: Sql, b: Backfill, wait: boolean): Promise<void> {
  if (wait) {
    let last = '';
    for (;;) {
      const now = (await getBackfill(sql, b.id))!;
      const line = describeBackfill(now);
      if (line !== last) process.stdout.write(line + '\n');
      last = line;
      if (now.status !== 'running') {
        if (now.status !== 'done') process.exitCode = 1;
        break;
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  process.stdout.write(JSON.stringify((await getBackfill(sql, b.id)) ?? b) + '\n');
}
