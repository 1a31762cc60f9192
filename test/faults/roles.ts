import { runCli, type CliRun } from '../helpers/cli.js';

export type RoleName = 'indexer' | 'worker';

/**
 * One role of the appliance as a real child process (`node --import tsx src/cli.ts <role>`),
 * which can be killed with SIGKILL and started again. A process that exits on its own (a crash)
 * is recorded: the suite fails on it (no scenario relies on a supervisor to start a role again).
 */
export class RoleProcess {
  private run: CliRun | undefined;
  private last: CliRun | undefined;
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

  get running(): boolean {
    return this.run !== undefined;
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
