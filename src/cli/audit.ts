import { verifyAuditChain } from '../audit/index.js';
import type { Config } from '../config/index.js';
import { withDatabase } from '../db/open.js';
import { command, parseOptions } from './command.js';

export const AUDIT_USAGE = `Usage:
  tollgate audit verify [--json]
      check the audit log's hash chain: exit 0 when every entry is as written and none is
      missing before the newest; 1 with the entries that were edited or follow a deleted one.
      Prints the newest entry (id and hash): keep it elsewhere to detect a later deletion of
      the newest entries`;

const cmd = command('audit', AUDIT_USAGE);

export async function auditCommand(config: Config, args: string[]): Promise<void> {
  await cmd.run(async () => {
    const { values, positionals } = parseOptions({
      args,
      options: { json: { type: 'boolean' } },
      allowPositionals: true,
    });
    if (positionals[0] !== 'verify' || positionals.length > 1) return cmd.usage();
    await withDatabase(config, async (sql) => {
      const report = await verifyAuditChain(sql);
      if (values.json) process.stdout.write(`${JSON.stringify(report)}\n`);
      else {
        process.stdout.write(
          `${report.entries} audit entries; newest ${report.head ? `#${report.head.id} ${report.head.hash}` : '(none)'}\n`,
        );
        for (const p of report.problems) process.stdout.write(`entry #${p.id}: ${p.problem}\n`);
        process.stdout.write(report.intact ? 'The chain is intact.\n' : 'The chain is BROKEN.\n');
      }
      if (!report.intact) process.exitCode = 1;
    });
  });
}
