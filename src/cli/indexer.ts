import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { command } from './command.js';
import { openDatabase } from '../db/open.js';
import type { Config } from '../config/index.js';
import { recordAudit } from '../audit/index.js';
import { formatStatusTable, indexerStatus } from '../indexer/status.js';
import { resumeIndexer } from '../indexer/cursor.js';

export const INDEXER_USAGE = `Usage:
  tollgate indexer [--network X]...
      the indexers only (all configured networks, or X; repeatable)
  tollgate indexer status [--json]
      per network: head, indexed block, lag, last reorg, halted or running
  tollgate indexer resume --network X [--allow-deep-reorg]
      lift a halt (a reorg past finality, a node contradicting itself); the running indexer goes on
      within seconds. --allow-deep-reorg lets its next reorg pass the depth limit and the node's
      finalized block once: only after checking that the node's chain is the one to follow`;

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
    const db = await openDatabase(config);
    try {
      const rows = await indexerStatus(db.sql);
      process.stdout.write(values.json ? JSON.stringify(rows) + '\n' : formatStatusTable(rows));
    } finally {
      await db.close();
    }
    return;
  }
  if (sub === 'resume') {
    const { values } = parseArgs({
      args: rest,
      options: { network: { type: 'string' }, 'allow-deep-reorg': { type: 'boolean' } },
    });
    if (!values.network) return cmd.usage('indexer resume needs --network X');
    const network = values.network.toLowerCase();
    const allow = values['allow-deep-reorg'] ?? false;
    const db = await openDatabase(config);
    try {
      const result = await resumeIndexer(db.sql, network, allow);
      if (!result.found) return cmd.fail(`no indexer has run for ${network} in this database`, 1);
      await recordAudit(db.sql, {
        actor: cliActor(),
        action: 'indexer_resume',
        target: network,
        details: { was_halted: result.reason !== undefined, allow_deep_reorg: allow },
      });
      process.stdout.write(
        result.reason
          ? `Resumed ${network} (it was halted: ${result.reason})${allow ? '; its next reorg may pass the depth limit and the finalized block once' : ''}.\n`
          : `${network} was not halted${allow ? '; its next reorg may pass the depth limit and the finalized block once' : ''}.\n`,
      );
    } finally {
      await db.close();
    }
    return;
  }
  cmd.usage(sub ? `unknown subcommand "${sub}"` : undefined);
}
