import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.js';
import { openPool } from '../../src/db/index.js';
import { migrate } from '../../src/db/migrate.js';
import { setDatabaseDefaults } from '../helpers/db.js';
import { freePort } from '../../support/ports.js';
import { afterAll } from 'vitest';
import { sleep, startScenario, type Scenario, type ScenarioOptions } from './harness.js';
import type { Rng } from './seed.js';
import { ConnectionHog, HOG_APPLICATION } from './connection-hog.js';

/**
 * 2-3 times, each 1.5-5 s after the last, `fault` for a length drawn from `lengthMs`; then 1-3 s
 * more of the run. The draws come in that order (a seed replays the same faults).
 */
async function atRandom(
  rng: Rng,
  lengthMs: [number, number],
  fault: (ms: number) => Promise<void>,
): Promise<void> {
  const times = rng.int(2, 3);
  for (let i = 0; i < times; i++) {
    await sleep(rng.int(1500, 5000));
    await fault(rng.int(...lengthMs));
  }
  await sleep(rng.int(1000, 3000));
}

/** The application_name of the scenario's own connections. */
const HARNESS_APPLICATION = 'tollgate-faults-harness';

/**
 * A Postgres of one scenario's own, which it can stop and start again on the same port and data
 * directory (restarting the suite's shared one would disturb the other scenarios).
 */
export async function ownPostgres(
  /** Settings a DBA made for the database (`alter database … set`), after the migrations. */
  databaseSettings: Record<string, string> = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-faults-pg-'));
  chmodSync(dir, 0o711);
  const port = await freePort();
  let pg: EmbeddedDatabase | undefined = await startEmbeddedPostgres(dir, port);
  const url = pg.url;
  // Named, so that a cut of the roles' sessions (cutSessions) leaves the scenario's own alone.
  const sql = openPool(url, { max: 4, application: HARNESS_APPLICATION });
  await migrate(sql, url);
  await setDatabaseDefaults(sql, url, databaseSettings);
  const database: ScenarioOptions['database'] = { url, sql, drop: () => sql.end({ timeout: 5 }) };
  // The processes a freeze stopped (woken by close() too, should a scenario fail mid-freeze).
  let frozen: number[] = [];
  const thaw = () => {
    for (const pid of frozen.splice(0)) process.kill(pid, 'SIGCONT');
  };
  // The hog of an exhaustion under way (released by close() too, should a scenario fail in it).
  let hog: ConnectionHog | undefined;
  return {
    database,
    /** Stops the server (a fast shutdown: every session is cut), waits `downMs`, starts it again. */
    async restart(downMs: number): Promise<void> {
      await pg?.stop();
      pg = undefined;
      await new Promise((r) => setTimeout(r, downMs));
      pg = await startEmbeddedPostgres(dir, port);
    },
    /**
     * 2-3 restarts drawn from `rng`, each 1.5-5 s after the last and down 0.5-5 s (blocks keep
     * coming, deliveries wait), then 1-3 s more of the run.
     */
    async restartAtRandom(rng: Rng): Promise<void> {
      await atRandom(rng, [500, 5000], (ms) => this.restart(ms));
    },
    /**
     * Freezes the server for `frozenMs`: SIGSTOP to the postmaster and every process of it (each
     * session's backend), then SIGCONT. Unlike a restart nothing is closed or refused: statements
     * sent meanwhile wait in open connections, new connections wait until they time out (as with
     * a paused VM or container, or a network path that drops packets).
     */
    async freeze(frozenMs: number): Promise<void> {
      const postmaster = Number(
        readFileSync(join(dir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
      );
      const children = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8')
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
      frozen = [postmaster, ...children];
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
      await new Promise((r) => setTimeout(r, frozenMs));
      thaw();
    },
    /**
     * 2-3 freezes drawn from `rng`, each 1.5-5 s after the last and frozen 1-15 s (past the
     * roles' 10 s connect timeout at times), then 1-3 s more of the run.
     */
    async freezeAtRandom(rng: Rng): Promise<void> {
      await atRandom(rng, [1000, 15_000], (ms) => this.freeze(ms));
    },
    /**
     * Ends every session of the roles at once (pg_terminate_backend) while the server stays up, as
     * a DBA's kill, a connection pooler's failover or a cut network path would: statements in
     * flight fail, transactions roll back, the locks a session held go with it. Returns how many.
     */
    async cutSessions(): Promise<number> {
      const cut = await sql`
        select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and backend_type = 'client backend'
          and pid <> pg_backend_pid()
          and application_name not in (${HARNESS_APPLICATION}, ${HOG_APPLICATION})`;
      return cut.length;
    },
    /** 8-14 cuts drawn from `rng`, each 0.3-1.5 s after the last, then 1-3 s more of the run. */
    async cutAtRandom(rng: Rng): Promise<void> {
      const times = rng.int(8, 14);
      const counts: number[] = [];
      for (let i = 0; i < times; i++) {
        await sleep(rng.int(300, 1500));
        counts.push(await this.cutSessions());
      }
      console.log(`[faults] sessions cut ${times} times: ${counts.join(', ')} sessions`);
      await sleep(rng.int(1000, 3000));
    },
    /**
     * Every connection slot of the server taken for `ms` by another application (ConnectionHog),
     * then given back: every new connection is refused with 53300 meanwhile, those already open
     * keep working. `meanwhile` runs once the server is full, with the hog (which takes the slots
     * freed meanwhile too). The harness's own pool keeps the connections it has open; a new one
     * it would wait for the end like anyone's. Returns how many slots it held at the end.
     */
    async exhaust(ms: number, meanwhile?: (hog: ConnectionHog) => Promise<void>): Promise<number> {
      const until = Date.now() + ms;
      const taking = new ConnectionHog(url, [HARNESS_APPLICATION]);
      hog = taking;
      try {
        await taking.fill();
        await meanwhile?.(taking);
        await sleep(Math.max(0, until - Date.now()));
        return taking.holding;
      } finally {
        hog = undefined;
        await taking.release();
      }
    },
    /**
     * 2-3 exhaustions drawn from `rng`, each 1.5-5 s after the last and 3-12 s long (past the
     * first few retries of a start and of the indexer), each with `meanwhile` (which says what
     * it did), then 1-3 s more of the run.
     */
    async exhaustAtRandom(
      rng: Rng,
      meanwhile?: (hog: ConnectionHog) => Promise<string>,
    ): Promise<void> {
      const rounds: string[] = [];
      await atRandom(rng, [3000, 12_000], async (ms) => {
        let what = '';
        const held = await this.exhaust(ms, async (h) => {
          what = meanwhile ? ` (${await meanwhile(h)})` : '';
        });
        rounds.push(`${held} slots for ${ms} ms${what}`);
      });
      console.log(`[faults] connections exhausted ${rounds.length} times: ${rounds.join('; ')}`);
    },
    async close(): Promise<void> {
      thaw();
      await hog?.release().catch(() => {});
      await pg?.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type OwnPostgres = Awaited<ReturnType<typeof ownPostgres>>;

/**
 * The body of a Hardhat scenario on a Postgres of its own (named `name`, as its file): the
 * indexer and worker started (no supervisor: a role that exits fails the scenario), transactions
 * flowing, and once deliveries arrive, `fault` done to that Postgres (and whatever else of the
 * scenario it takes); then settled and checked. Closes everything after the file's tests.
 */
export function ownPostgresScenario(
  name: string,
  options: Pick<ScenarioOptions, 'liveAml'> & { databaseSettings?: Record<string, string> },
  fault: (pg: OwnPostgres, s: Scenario) => Promise<void>,
  /** More checks of the scenario's own, once everything settled and was checked. */
  check?: (s: Scenario) => void,
): () => Promise<void> {
  let pg: OwnPostgres | undefined;
  let s: Scenario | undefined;
  afterAll(async () => {
    await s?.close();
    await pg?.close();
  });
  return async () => {
    pg = await ownPostgres(options.databaseSettings);
    s = await startScenario(name, {
      confirmations: 3,
      file: name,
      database: pg.database,
      liveAml: options.liveAml,
    });
    s.roles.indexer.start();
    s.roles.worker.start();
    const traffic = s.traffic.run(s.rng.fork('traffic'));
    try {
      await s.working();
      await fault(pg, s);
    } finally {
      await traffic.stop();
    }
    await s.finish();
    check?.(s);
  };
}
