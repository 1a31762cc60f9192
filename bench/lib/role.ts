/**
 * A Tollgate role (api, worker, indexer) as its own child process, as production runs it:
 * `node --import tsx src/cli.ts <role>`, configured through TOLLGATE_* variables.
 *
 * Peak memory is the kernel's high-water mark of the child's resident set, VmHWM in
 * /proc/<pid>/status, read just before the child is stopped: the peak over the whole run, with
 * no sampling to miss a spike. It includes what tsx costs (the TypeScript transform and its
 * cache, a few tens of MiB over running the built dist/).
 * To profile a role during a benchmark: BENCH_ROLE_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'.
 * To keep its log lines (its stderr): BENCH_ROLE_LOG=/tmp/role.log (appended to; TOLLGATE_LOG_LEVEL
 * sets how many).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RoleProcess {
  pid: number;
  /** Resolves at the first log line whose msg is `msg` (the role must log at info for it). */
  logged(msg: string): Promise<void>;
  /** False once the process has exited. */
  running(): boolean;
  /** VmHWM of the process, MiB. */
  peakRssMb(): number;
  /** SIGTERM, then waits for the exit; returns the peak RSS read just before. */
  stop(): Promise<number>;
}

export function peakRssMbOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return Math.round((kb / 1024) * 10) / 10;
}

export function startRole(
  role: 'api' | 'worker' | 'indexer',
  env: Record<string, string>,
): RoleProcess {
  const nodeArgs = (process.env.BENCH_ROLE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', 'src/cli.ts', role],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const waiting = new Map<string, () => void>();
  const seen = new Set<string>();
  let stderr = '';
  // The role's log lines are on stderr (stdout is a command's output only); anything else there
  // (a crash's message) is kept for the error that reports an early exit. stdout is drained.
  let tail = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
    const lines = (tail + chunk).split('\n');
    tail = lines.pop()!;
    if (process.env.BENCH_ROLE_LOG && lines.length)
      appendFileSync(process.env.BENCH_ROLE_LOG, lines.join('\n') + '\n');
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      try {
        const msg = (JSON.parse(line) as { msg?: string }).msg;
        if (msg) {
          seen.add(msg);
          waiting.get(msg)?.();
        }
      } catch {
        /* not a log line */
      }
    }
  });
  child.stdout!.resume();
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  let stopping = false;
  let running = true;
  exited.then((code) => {
    running = false;
    if (!stopping) process.stderr.write(`${role} exited unexpectedly (${code}):\n${stderr}\n`);
  });
  return {
    pid: child.pid!,
    logged: (msg) =>
      seen.has(msg)
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            waiting.set(msg, resolve);
            exited.then((code) =>
              reject(new Error(`${role} exited with ${code} before "${msg}": ${stderr}`)),
            );
          }),
    running: () => running,
    peakRssMb: () => peakRssMbOf(child.pid!),
    stop: async () => {
      stopping = true;
      const peak = peakRssMbOf(child.pid!);
      child.kill('SIGTERM');
      await exited;
      return peak;
    },
  };
}
