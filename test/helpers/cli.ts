import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';

export interface CliRun {
  child: ChildProcess & { stdin: NonNullable<ChildProcess['stdin']> };
  exited: Promise<number | null>;
  out(): string;
  err(): string;
  /** The last line of stdout (commands print their result there). */
  lastLine(): string;
  lastJson(): any;
}

/** A log line as pino writes it (JSON), with the fields the tests read. */
export interface LogLine {
  level: number;
  time: number;
  msg: string;
  [field: string]: unknown;
}

/** The pino lines of a process's output (stderr), parsed; other lines left out. */
export function logLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as LogLine);
}

/**
 * Runs the real CLI (`tollgate …`) from source in a child process against `databaseUrl`, with a
 * data dir of its own. stdin is a pipe (commands that read a password from it).
 */
export function runCli(
  databaseUrl: string,
  args: string[],
  env: Record<string, string> = {},
  logLevel = 'warn',
): CliRun {
  // ROLE_PRELOAD: a module every such process imports first (a debugging aid, e.g.
  // test/helpers/trace-promises.mjs).
  const preload = process.env.ROLE_PRELOAD
    ? ['--import', resolvePath(process.env.ROLE_PRELOAD)]
    : [];
  const child = spawn(process.execPath, [...preload, '--import', 'tsx', 'src/cli.ts', ...args], {
    env: {
      PATH: process.env.PATH!,
      HOME: process.env.HOME ?? '/tmp',
      DATABASE_URL: databaseUrl,
      TOLLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'tollgate-cli-')),
      TOLLGATE_LOG_LEVEL: logLevel,
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  // TEST_CLI_LOG_DIR: each process's output also goes to <dir>/<command>-<pid>.log (a debugging
  // aid: the fault suite's roles keep theirs in memory only).
  const logDir = process.env.TEST_CLI_LOG_DIR;
  if (logDir) {
    const file = join(logDir, `${args[0] ?? 'cli'}-${child.pid}.log`);
    child.stdout.on('data', (d) => appendFileSync(file, d));
    child.stderr.on('data', (d) => appendFileSync(file, d));
  }
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const lastLine = () => stdout.trim().split('\n').pop()!;
  return {
    child: child as CliRun['child'],
    exited,
    out: () => stdout,
    err: () => stderr,
    lastLine,
    lastJson: () => JSON.parse(lastLine()),
  };
}
