#!/usr/bin/env node
/**
 * `npm run tollgate` and `npm start` from a checkout: runs the CLI from dist/, compiling it first
 * only when a source is newer than the last compile (an incremental tsc, its output on stderr).
 * Nothing changed: no compile, the CLI starts at once. The image runs dist/src/cli.js directly.
 */
import { execFileSync, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const stamp = join(root, 'dist', '.compiled');

const mtime = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
};

/** The newest modification time under a directory (its files and the directories themselves). */
function newest(dir) {
  let latest = mtime(dir);
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return latest;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    latest = Math.max(latest, e.isDirectory() ? newest(path) : mtime(path));
  }
  return latest;
}

const sources = Math.max(
  newest(join(root, 'src')),
  newest(join(root, 'workers')),
  ...['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'].map((f) => mtime(join(root, f))),
);
if (sources > mtime(stamp) || mtime(join(root, 'dist', 'src', 'cli.js')) === 0) {
  const started = new Date();
  process.stderr.write('tollgate: compiling (sources changed since the last compile)\n');
  try {
    execFileSync(
      process.execPath,
      [
        join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
        '-p',
        'tsconfig.build.json',
        '--incremental',
        '--tsBuildInfoFile',
        join('dist', '.tsbuildinfo'),
      ],
      { cwd: root, stdio: ['ignore', 2, 2] },
    );
  } catch {
    process.stderr.write('tollgate: the compile failed (above)\n');
    process.exit(1);
  }
  // Stamped with the compile's start: a file saved during the compile is compiled next time.
  writeFileSync(stamp, '');
  utimesSync(stamp, started, started);
}
const cli = join(root, 'dist', 'src', 'cli.js');
const [command, ...rest] = process.argv.slice(2);
const serving =
  ['start', 'api', 'worker'].includes(command) ||
  (command === 'indexer' && (rest.length === 0 || rest[0].startsWith('-')));
if (!serving || rest.includes('--help') || rest.includes('-h')) {
  await import(pathToFileURL(cli).href);
} else {
  // A serving role runs in a process group of its own, with the embedded Postgres and the dev
  // chain it starts: Ctrl-C in the terminal signals the terminal's group (this launcher), which
  // passes it to the appliance alone, and the appliance stops its Postgres and dev chain itself,
  // in order, after its own work. (Signalled with the group, they stopped under it: error lines
  // and a slow exit.)
  // An IPC channel, used for nothing but its end: when this launcher dies, even by SIGKILL, the
  // appliance sees it close and stops as on SIGTERM (src/cli.ts), rather than running on orphaned.
  const child = spawn(process.execPath, [cli, command, ...rest], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    detached: true,
  });
  child.channel?.unref();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
    process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1);
  });
}
