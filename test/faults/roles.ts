import { runCli, type CliRun } from '../helpers/cli.js';

export type RoleName = 'indexer' | 'worker' | 'api';

/**
 * One role of the appliance as a real child process (`node --import tsx src/cli.ts <role>`),
 * which can be killed with SIGKILL and started again. A process that exits on its own (a crash)
 * is recorded: the suite fails on it (no scenario relies on a supervisor to start a role again).
 */
export class RoleProcess {
  private run: CliRun | undefined;
  private last: CliRun | undefined;
  /** Every process started, for what they all wrote (output()). */
  private readonly runs: CliRun[] = [];
  private expectingExit = false;
  readonly crashes: string[] = [];
  starts = 0;

  constructor(
    readonly role: RoleName,
    private readonly databaseUrl: () => string,
    private readonly env: Record<string, string>,
  ) {}

  start(): void {
    if (this.run) throw new Error(`${this.role} is already running`);
    this.expectingExit = false;
    const run = runCli(
      this.databaseUrl(),
      [this.role],
      this.env,
      process.env.TEST_LOG_LEVEL ?? 'warn',
    );
    this.run = run;
    this.last = run;
    this.runs.push(run);
    this.starts++;
    void run.exited.then((code) => {
      if (this.run === run) this.run = undefined;
      if (this.expectingExit) return;
      this.crashes.push(
        `${this.role} exited on its own with code ${code}: ${run.err().slice(-1500)}${run.out().slice(-3000)}`,
      );
    });
  }

  /** What the last process started wrote to stderr (its log lines), running or not. */
  stderr(): string {
    return this.last?.err() ?? '';
  }

  /** What every process of this role wrote (stdout and stderr), oldest first. */
  output(): string {
    return this.runs.map((r) => r.out() + r.err()).join('\n');
  }

  get running(): boolean {
    return this.run !== undefined;
  }

  /**
   * SIGSTOP for `ms`, then SIGCONT: the process neither answers nor sends meanwhile, and its
   * connections stay open (a paused VM or a long stall), then it goes on with what it was doing.
   */
  async freeze(ms: number): Promise<void> {
    const pid = this.run?.child.pid;
    if (pid === undefined) return;
    process.kill(pid, 'SIGSTOP');
    try {
      await new Promise((r) => setTimeout(r, ms));
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  }

  /**
   * SIGSTOP while `fn` runs, then SIGCONT (whatever `fn` did): what happens meanwhile to its
   * connections (a cut, say) it meets once it goes on, as if it had all happened at once.
   */
  async frozenWhile<T>(fn: () => Promise<T>): Promise<T> {
    const pid = this.run?.child.pid;
    if (pid !== undefined) process.kill(pid, 'SIGSTOP');
    try {
      return await fn();
    } finally {
      // A process that exited meanwhile (killed, say) has nothing to wake.
      if (pid !== undefined && this.run?.child.pid === pid) process.kill(pid, 'SIGCONT');
    }
  }

  /** kill -9: no shutdown code runs. */
  async kill(): Promise<void> {
    const run = this.run;
    if (!run) return;
    this.expectingExit = true;
    run.child.kill('SIGKILL');
    await run.exited;
    this.run = undefined;
  }

  /** SIGTERM: the orderly stop (finishes work in hand), which must exit 0; SIGKILL after 20 s. */
  async stop(): Promise<void> {
    const run = this.run;
    if (!run) return;
    // A process started a moment ago may still be loading, before it handles SIGTERM (Node's
    // default then ends it without its stop). With a health listener, wait (bounded) for it.
    const health = this.env.TOLLGATE_HEALTH_PORT;
    if (health) await answering(`http://127.0.0.1:${health}/healthz`, run, 30_000);
    this.expectingExit = true;
    run.child.kill('SIGTERM');
    const timer = setTimeout(() => run.child.kill('SIGKILL'), 20_000);
    const code = await run.exited;
    clearTimeout(timer);
    // A stop that waited on a step (or went on without one) passes, but says which: a rare slow
    // stop is found from the suite's output.
    const slow = run
      .out()
      .split('\n')
      .filter((line) => /stopping: (still waiting|gave up)/.test(line));
    if (slow.length > 0) console.warn(`${this.role}: a slow stop:\n${slow.join('\n')}`);
    // Every role stops with exit code 0 on SIGTERM, whatever happened before.
    if (code !== 0)
      this.crashes.push(
        `${this.role} exited with code ${code} on SIGTERM: ${run.err().slice(-1500)}${run.out().slice(-3000)}`,
      );
    this.run = undefined;
  }
}

/** Resolves once `url` answers 200, the process has exited, or `timeoutMs` passed. */
async function answering(url: string, run: CliRun, timeoutMs: number): Promise<void> {
  let exited = false;
  void run.exited.then(() => (exited = true));
  const deadline = Date.now() + timeoutMs;
  while (!exited && Date.now() < deadline) {
    const up = await fetch(url, { signal: AbortSignal.timeout(2000) })
      .then((r) => r.ok)
      .catch(() => false);
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}
