import pg from 'pg';
import { nodePgConnection } from '../../src/config/database-url.js';

/** The application_name of the hog's connections: another application on the same server. */
export const HOG_APPLICATION = 'tollgate-faults-other-app';
/** Connections opened side by side while filling the server. */
const FILL_PARALLEL = 8;
/** Pause between two tries at a slot once the server is full. */
const TOP_UP_MS = 20;
/** How long a cut's sessions may take to end (they end at once; a bound, never a figure). */
const SESSIONS_GONE_MS = 10_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Another application on the same Postgres server that takes every connection slot, as a
 * neighbour on a shared managed server may: it opens connections until the server refuses one
 * with 53300 ("sorry, too many clients already"), then keeps trying every TOP_UP_MS, so that a
 * slot freed meanwhile (a session ended, a process killed) is taken too. Connections others have
 * open keep working; every new one is refused until `release()`.
 * It connects as DATABASE_URL's role, which is a superuser on the embedded server: the slots
 * reserved for superusers (superuser_reserved_connections) are taken too, as they would be from
 * Tollgate's role. Its sessions opt out of a DBA's idle_session_timeout (held idle by design).
 */
export class ConnectionHog {
  private readonly held = new Set<pg.Client>();
  /** Connections the server refused for want of a slot. */
  refused = 0;
  private attempts = 0;
  private releasing = false;
  private topUp: Promise<void> | undefined;
  private failure: unknown;
  private readonly waiting: { after: number; resolve: () => void; reject: (e: unknown) => void }[] =
    [];

  constructor(
    private readonly url: string,
    /** Applications whose sessions cutOthers leaves alone (the harness's own). */
    private readonly spared: readonly string[] = [],
  ) {}

  /** How many connections it holds now. */
  get holding(): number {
    return this.held.size;
  }

  /** Takes every free slot; resolves once the server refused one, and keeps taking freed ones. */
  async fill(): Promise<void> {
    await Promise.all(
      Array.from({ length: FILL_PARALLEL }, async () => {
        while (await this.takeOne());
      }),
    );
    this.topUp = (async () => {
      while (!this.releasing) {
        try {
          if (!(await this.takeOne())) await sleep(TOP_UP_MS);
        } catch (err) {
          this.fail(err);
          return;
        }
      }
    })();
  }

  /** Resolves once a connection tried after this call was refused: every slot free now is taken. */
  full(): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) =>
      this.waiting.push({ after: this.attempts, resolve, reject }),
    );
  }

  /**
   * Ends every client session on the database but its own and the spared applications'
   * (pg_terminate_backend, through a connection it holds), and resolves once they are gone and
   * their slots taken: those clients find the server full when they connect again. Returns how
   * many sessions it ended.
   */
  async cutOthers(): Promise<number> {
    const own = this.held.values().next().value;
    if (!own) throw new Error('the hog holds no connection');
    const {
      rows: [cut],
    } = await own.query<{ pids: number[] }>(
      `select coalesce(array_agg(pid), '{}') as pids from (
         select pid from pg_stat_activity
         where datname = current_database() and backend_type = 'client backend'
           and pid <> pg_backend_pid() and application_name <> all($1::text[])
           and pg_terminate_backend(pid)) t`,
      [[HOG_APPLICATION, ...this.spared]],
    );
    const deadline = Date.now() + SESSIONS_GONE_MS;
    for (;;) {
      const {
        rows: [left],
      } = await own.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where pid = any($1::int[])',
        [cut!.pids],
      );
      if (left!.n === 0) break;
      if (Date.now() > deadline)
        throw new Error(`${left!.n} sessions still there ${SESSIONS_GONE_MS} ms after their cut`);
      await sleep(10);
    }
    await this.full();
    return cut!.pids.length;
  }

  /** Closes every connection it holds (the slots are free again); throws what went wrong meanwhile. */
  async release(): Promise<void> {
    this.releasing = true;
    await this.topUp;
    await Promise.all([...this.held].map((c) => c.end().catch(() => {})));
    this.held.clear();
    if (this.failure !== undefined) throw this.failure;
  }

  /** Opens one connection and keeps it; false when the server refused it for want of a slot. */
  private async takeOne(): Promise<boolean> {
    if (this.releasing) return false;
    const attempt = ++this.attempts;
    const client = new pg.Client({
      ...nodePgConnection(this.url, '-c idle_session_timeout=0'),
      application_name: HOG_APPLICATION,
    });
    // A held connection that ends (it should not: nothing here cuts its own) frees its slot,
    // which the next try takes again.
    client.on('error', () => this.held.delete(client));
    client.on('end', () => this.held.delete(client));
    try {
      await client.connect();
    } catch (err) {
      await client.end().catch(() => {});
      if ((err as { code?: unknown }).code !== '53300') throw err;
      this.refused++;
      for (const w of this.waiting.filter((w) => attempt > w.after)) {
        this.waiting.splice(this.waiting.indexOf(w), 1);
        w.resolve();
      }
      return false;
    }
    if (this.releasing) await client.end().catch(() => {});
    else this.held.add(client);
    return true;
  }

  private fail(err: unknown): void {
    this.failure = err;
    for (const w of this.waiting.splice(0)) w.reject(err);
  }
}
