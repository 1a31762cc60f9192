import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/ports.js';
import { NetworkLock } from '../src/indexer/network-lock.js';
import { log } from '../src/log.js';
import { logLines, runCli } from './helpers/cli.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

/** Runs the real CLI (`tollgate …`) from source in a child process. */
const tollgate = (args: string[], env: Record<string, string> = {}) =>
  runCli(db.url, args, env, 'info');

// Most tests here run the CLI as processes one after another, each compiling its modules with
// tsx: a few seconds each, several times that beside other test files; they get minutes.
describe('tollgate CLI', () => {
  it('answers --help on every command with its usage, touching nothing (no database here)', async () => {
    const nowhere = 'postgres://nobody@127.0.0.1:1/none';
    for (const command of [
      'start',
      'api',
      'worker',
      'indexer',
      'migrate',
      'doctor',
      'keys',
      'labels',
      'vasps',
      'operators',
      'travel-address',
      'tls',
      'openapi',
      'audit',
    ]) {
      const run = runCli(nowhere, [command, '--help'], { TOLLGATE_RPC_ETH: 'http://127.0.0.1:1' });
      expect(await run.exited, command).toBe(0);
      expect(run.out(), command).toMatch(new RegExp(`^Usage:\\n  tollgate ${command}`));
      expect(run.err(), command).toBe(''); // nothing started, nothing logged
    }
    const unknown = runCli(nowhere, ['nope', '--help']);
    expect(await unknown.exited).toBe(2);
    expect(unknown.err()).toMatch(/unknown command "nope"/);
    // 13 processes one after another, each compiling the CLI's modules with tsx: about 2 s each,
    // several times that on a loaded machine.
  }, 240_000);

  it('stops within seconds on a DATABASE_URL it cannot use, naming it and the cause, never the password', async () => {
    const url = new URL(db.url);
    const cases: [string, RegExp][] = [
      [
        Object.assign(new URL(db.url), { port: '1' }).toString(),
        /connection refused \(is Postgres running there/,
      ],
      [
        Object.assign(new URL(db.url), { password: 'not-the-password' }).toString(),
        /authentication failed/,
      ],
      [
        Object.assign(new URL(db.url), { pathname: '/no_such_database' }).toString(),
        /database "no_such_database" does not exist/,
      ],
    ];
    for (const [bad, cause] of cases) {
      const run = runCli(bad, ['keys', 'list']);
      expect(await run.exited).toBe(1);
      expect(run.err()).toMatch(/^tollgate: DATABASE_URL \(/);
      expect(run.err()).toMatch(cause);
      expect(run.err() + run.out()).not.toContain('not-the-password');
      if (url.password) expect(run.err()).not.toContain(url.password);
    }
  }, 180_000);

  it('warns about TOLLGATE_* variables it does not read, naming the closest one', async () => {
    const run = tollgate(['keys', 'list'], { TOLLGATE_RCP_ETH: 'http://127.0.0.1:1' });
    expect(await run.exited).toBe(0);
    const warning = logLines(run.err()).find((l) => l.variable === 'TOLLGATE_RCP_ETH');
    expect(warning).toMatchObject({ level: 40, did_you_mean: 'TOLLGATE_RPC_ETH' });
    expect(run.out()).not.toContain('TOLLGATE_RCP_ETH');
  });

  it('keys create prints {apikey, webhook_secret} as its last line; list and revoke work', async () => {
    const run = tollgate(['keys', 'create', '--name', 'backend']);
    expect(await run.exited).toBe(0);
    const last = run.out().trim().split('\n').pop()!;
    const created = JSON.parse(last);
    expect(created.apikey).toMatch(/^tg_/);
    expect(created.webhook_secret).toMatch(/^whsec_/);

    const list = tollgate(['keys', 'list']);
    expect(await list.exited).toBe(0);
    expect(list.out()).toContain('backend');
    expect(list.out()).not.toContain(created.apikey);
    const listJson = tollgate(['keys', 'list', '--json']);
    expect(await listJson.exited).toBe(0);
    expect(JSON.parse(listJson.out())).toEqual([
      {
        id: expect.any(String),
        prefix: created.apikey.slice(0, 8),
        name: 'backend',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        revoked_at: null,
      },
    ]);

    const [row] = await db.sql`select id from api_keys where name = 'backend'`;
    const revoke = tollgate(['keys', 'revoke', String(row!.id)]);
    expect(await revoke.exited).toBe(0);
    const [after] = await db.sql`select revoked_at from api_keys where id = ${row!.id}`;
    expect(after!.revoked_at).not.toBeNull();
  }, 180_000);

  it('keys: bad arguments are usage errors (exit 2, one message, nothing done), as for every command', async () => {
    const before = await db.sql`select id from api_keys`;
    const cases: [string[], RegExp][] = [
      // parseArgs's refusals were a JSON log line and exit 1 (found by an outside probe).
      [['keys', 'create', '--name'], /argument missing/],
      [['keys', 'create', '--name', 'a', '--bogus'], /Unknown option '--bogus'/],
      [['keys', 'list', '--bogus'], /Unknown option '--bogus'/],
      // A second key was ignored: `keys revoke 5 6` revoked 5 only, saying nothing of 6.
      [['keys', 'revoke', '5', '6'], /unexpected argument "6" \(one key a command\)/],
      [['keys', 'create', '--name', 'x', 'stray'], /unexpected argument "stray"/],
      // A name is one line: a tab or a newline forged rows of `keys list`.
      [['keys', 'create', '--name', 'ops\tcreated 2020\n7\ttg_fake'], /control characters/],
      [['keys', 'create', '--name', 'n'.repeat(101)], /1 to 100 characters/],
      // The serving roles and migrate took any argument and ran: `migrate --dry-run` migrated.
      [['migrate', '--dry-run'], /tollgate migrate takes no arguments \(given: --dry-run\)/],
      [['worker', '--concurrency', '1'], /tollgate worker takes no arguments/],
      [['start', 'extra'], /tollgate start takes no arguments/],
      [['indexer', '--netwrk', 'eth'], /tollgate indexer: Unknown option '--netwrk'/],
      // An option given twice took its last value (found by an outside probe).
      [['keys', 'create', '--name', 'a', '--name', 'b'], /Option '--name' is given more than once/],
      [
        ['labels', 'import', '--source', 'a', '--source', 'b', 'x.csv'],
        /Option '--source' is given more than once/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = tollgate(args);
      expect(await run.exited, args.join(' ')).toBe(2);
      expect(run.err()).toMatch(message);
      expect(run.err()).not.toMatch(/"level"|at .*\.ts:\d+/);
    }
    expect(await db.sql`select id from api_keys`).toEqual(before);
    // 14 processes one after another, each compiling the CLI's modules with tsx (a CI run beside
    // other test files took over 60 s).
  }, 240_000);

  it('indexer status reports head, indexed block, lag, last reorg and a halt', async () => {
    // An indexer of eth, as this test's process holds its lock (a running one does).
    let held = await NetworkLock.tryAcquire(db.url, 'eth', log);
    expect(held).toBeDefined();
    await db.sql`insert into indexer_cursors (network, chain_id, block_number, block_hash, head_number, head_seen_at, last_reorg_at, last_reorg_depth)
      values ('eth', 1, 100, '0xabc', 112, now(), '2026-01-02T03:04:05Z', 3), ('polygon', 137, 50, '0xdef', 50, now(), null, null)`;
    await db.sql`update indexer_cursors set halted_reason = 'reorg on polygon deeper than 256 blocks' where network = 'polygon'`;
    const json = tollgate(['indexer', 'status', '--json']);
    expect(await json.exited).toBe(0);
    // stdout is the answer alone (logs go to stderr): `… --json | jq` works.
    const rows = JSON.parse(json.out());
    expect(rows).toEqual([
      expect.objectContaining({
        network: 'eth',
        head_block: '112',
        indexed_block: '100',
        lag_blocks: '12',
        last_reorg_at: '2026-01-02T03:04:05.000Z',
        last_reorg_depth: 3,
        halted_reason: null,
      }),
      expect.objectContaining({
        network: 'polygon',
        lag_blocks: '0',
        halted_reason: 'reorg on polygon deeper than 256 blocks',
      }),
    ]);
    const table = tollgate(['indexer', 'status']);
    expect(await table.exited).toBe(0);
    expect(table.out()).toMatch(/network\s+head\s+indexed\s+lag\s+last reorg\s+state/);
    expect(table.out()).toMatch(
      /eth\s+112\s+100\s+12\s+2026-01-02T03:04:05.000Z \(3 blocks\)\s+running/,
    );
    expect(table.out()).toMatch(/polygon.*HALTED: reorg on polygon deeper than 256 blocks/);
    expect(rows[0]).toMatchObject({ followed: true, head_stale: false });
    expect(rows[1]).toMatchObject({ followed: false });
    // Nobody following: the figures are the last known, and the state says so (it said
    // "running", lag 0, with the appliance stopped; found by an outside probe). The indexer's
    // lock session ends with it: said at once, whatever the head's age.
    await held!.release();
    const gone = tollgate(['indexer', 'status']);
    expect(await gone.exited).toBe(0);
    expect(gone.out()).toMatch(
      /eth\s+112\s+100\s+12\s+.*NOT FOLLOWED: no indexer holds this network \(is its indexer running\?\)/,
    );
    // Held, by an indexer that has not read its node's head for a while.
    held = await NetworkLock.tryAcquire(db.url, 'eth', log);
    await db.sql`update indexer_cursors set head_seen_at = now() - interval '5 minutes' where network = 'eth'`;
    const stale = tollgate(['indexer', 'status']);
    expect(await stale.exited).toBe(0);
    expect(stale.out()).toMatch(
      /eth\s+112\s+100\s+12\s+.*NOT FOLLOWED: its indexer has not read the node's head since \S+ \(can it reach its node\?\)/,
    );
    await held!.release();
    await db.sql`delete from indexer_cursors`;
  }, 180_000);

  it('stops on a bad configuration value, naming the key', async () => {
    const run = tollgate(['api'], { TOLLGATE_PORT: 'eighty' });
    expect(await run.exited).toBe(2);
    expect(run.err()).toContain('TOLLGATE_PORT');
    const bad = tollgate(['api'], { TOLLGATE_WEBHOOK_ALLOW_CIDRS: '10.0.0.0/33' });
    expect(await bad.exited).toBe(2);
    expect(bad.err()).toContain('TOLLGATE_WEBHOOK_ALLOW_CIDRS');
    const rpc = tollgate(['api'], { TOLLGATE_RPC_ETH: 'ftp://node' });
    expect(await rpc.exited).toBe(2);
    expect(rpc.err()).toContain('TOLLGATE_RPC_ETH');
    const unconfigured = tollgate(['indexer', '--network', 'polygon'], {
      TOLLGATE_RPC_ETH: 'http://127.0.0.1:1',
    });
    expect(await unconfigured.exited).toBe(1);
    expect(unconfigured.err()).toContain('TOLLGATE_RPC_POLYGON');
  }, 180_000);

  it('refuses a database a newer version migrated, before anything runs on it', async () => {
    // An older version started after an upgrade (a rollback), or beside the newer one, served on
    // a schema it was not written for with no word; its `migrate` said "applied" (found by an
    // outside probe).
    const newer = await freshDatabase();
    try {
      await newer.sql`insert into tollgate_migrations (id, name) values (9999, '9999_from_the_future.sql')`;
      for (const args of [['migrate'], ['api']]) {
        const run = runCli(newer.url, args, { TOLLGATE_HOST: '127.0.0.1', TOLLGATE_PORT: '0' });
        expect(await run.exited, args.join(' ')).toBe(1);
        expect(run.err()).toMatch(
          /the database was migrated by a newer Tollgate \(its newest migration is 9999_from_the_future\.sql; this version knows up to \d{4}_[\w-]+\.sql\)/,
        );
        expect(run.err()).not.toContain('api listening');
      }
    } finally {
      await newer.drop();
    }
  }, 180_000);

  it('stops on a port, host or data dir it cannot use as a configuration error, naming the setting', async () => {
    // Each was a crash line ("tollgate failed", EADDRINUSE or ENOTDIR) and exit 1 (found by an
    // outside probe).
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = String((taken.address() as AddressInfo).port);
    try {
      const inUse = tollgate(['api'], { TOLLGATE_HOST: '127.0.0.1', TOLLGATE_PORT: port });
      expect(await inUse.exited).toBe(2);
      expect(inUse.err()).toContain(
        `TOLLGATE_PORT=${port}: another process listens on 127.0.0.1:${port}`,
      );
      // Said before the database is opened (and migrated): here one that cannot be reached.
      const first = runCli('postgres://tollgate:x@127.0.0.1:1/none', ['api'], {
        TOLLGATE_HOST: '127.0.0.1',
        TOLLGATE_PORT: port,
      });
      expect(await first.exited).toBe(2);
      expect(first.err()).toContain(`TOLLGATE_PORT=${port}: another process listens`);
      const health = tollgate(['worker'], {
        TOLLGATE_HOST: '127.0.0.1',
        TOLLGATE_HEALTH_PORT: port,
      });
      expect(await health.exited).toBe(2);
      expect(health.err()).toContain(`TOLLGATE_HEALTH_PORT=${port}`);
    } finally {
      taken.close();
    }
    const host = tollgate(['api'], { TOLLGATE_HOST: 'no-such-host.invalid', TOLLGATE_PORT: '0' });
    expect(await host.exited).toBe(2);
    expect(host.err()).toContain('TOLLGATE_HOST=no-such-host.invalid: the name does not resolve');
    const file = join(mkdtempSync(join(tmpdir(), 'tollgate-cli-')), 'data');
    writeFileSync(file, '');
    const dataDir = tollgate(['api'], { TOLLGATE_DATA_DIR: file });
    expect(await dataDir.exited).toBe(2);
    expect(dataDir.err()).toContain(`TOLLGATE_DATA_DIR: ${file} is not a directory`);
    for (const run of [host, dataDir]) expect(run.err()).not.toContain('tollgate failed');
  }, 180_000);

  it('serves with the bootstrap key, and exits 0 on SIGTERM', async () => {
    const bootstrap = 'tg_bootstrap_key_for_the_cli_test_0123456789';
    const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-bootstrap-'));
    const run = tollgate(['api'], {
      TOLLGATE_PORT: '0',
      TOLLGATE_HOST: '127.0.0.1',
      TOLLGATE_BOOTSTRAP_API_KEY: bootstrap,
      TOLLGATE_DATA_DIR: dataDir,
    });
    let port: number | undefined;
    for (let i = 0; i < 300 && !port; i++) {
      const m = /"port":(\d+),"tls"/.exec(run.err());
      if (m) port = Number(m[1]);
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(port).toBeDefined();
    // The bootstrap key is created at start; wait for the line that says so.
    for (let i = 0; i < 100 && !run.out().includes('Bootstrap API key created'); i++)
      await new Promise((r) => setTimeout(r, 100));
    const res = await call(`https://127.0.0.1:${port}`, 'GET', '/v2/stream/list', {
      headers: { apikey: bootstrap },
    });
    expect(res.json).toMatchObject({ code: 0, data: [] });
    expect(run.out() + run.err()).not.toContain(bootstrap); // the key is never printed or logged
    // Not a terminal (as in a container): the webhook secret is in a file only its owner reads,
    // not in the output.
    const file = join(dataDir, 'initial-credentials.json');
    expect(run.out()).toContain(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const { webhook_secret } = JSON.parse(readFileSync(file, 'utf8')) as { webhook_secret: string };
    expect(webhook_secret).toMatch(/^whsec_/);
    expect(run.out() + run.err()).not.toContain(webhook_secret);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.err()).toContain('"msg":"stopped"');
  });
});

describe('Ctrl-C on a serving start (bin/tollgate.mjs, what npm start runs)', () => {
  it('stops everything in order: exit 0, no warning or error line, nothing left running', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-ctrlc-'));
    chmodSync(dir, 0o711);
    // A dev chain of its own: one already answering on its port would be used, and left running.
    const chainPort = await freePort();
    // A terminal's Ctrl-C signals the whole foreground process group: the launcher leads one here.
    const child = spawn(process.execPath, ['bin/tollgate.mjs', 'start'], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH!,
        HOME: process.env.HOME ?? '/tmp',
        TOLLGATE_DATA_DIR: dir,
        TOLLGATE_PORT: '0',
        TOLLGATE_HOST: '127.0.0.1',
        TOLLGATE_DEV_CHAIN_PORT: String(chainPort),
      },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    for (let i = 0; i < 1200 && !out.includes('Tollgate is running'); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(out).toContain('Tollgate is running');
    process.kill(-child.pid!, 'SIGINT');
    expect(await exited).toBe(0);
    const lines = logLines(err);
    // Whole lines, so that a failure says what was logged (not "{ level: 40, …(4) }").
    expect(lines.filter((l) => l.level >= 40).map((l) => JSON.stringify(l))).toEqual([]);
    expect(lines.map((l) => l.msg)).toEqual(
      expect.arrayContaining(['embedded postgres stopped', 'dev chain stopped', 'stopped']),
    );
    expect(lines.find((l) => l.msg.startsWith('dev chain started'))).toMatchObject({
      url: `http://127.0.0.1:${chainPort}`,
    });
    // The data dir's Postgres is gone: its postmaster.pid with it.
    expect(existsSync(join(dir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 240_000);
});

describe('Ctrl-C on a one-shot command with the embedded Postgres', () => {
  it('leaves no process of the data dir behind, and the next run finds the database whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-ctrlc-once-'));
    chmodSync(dir, 0o711);
    const env = {
      PATH: process.env.PATH!,
      HOME: process.env.HOME ?? '/tmp',
      TOLLGATE_DATA_DIR: dir,
      TOLLGATE_LOG_LEVEL: 'info',
    };
    // A terminal's Ctrl-C signals the foreground process group: the launcher leads one here.
    const child = spawn(process.execPath, ['bin/tollgate.mjs', 'migrate'], {
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env,
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<NodeJS.Signals | number | null>((r) =>
      child.on('exit', (code, signal) => r(signal ?? code)),
    );
    // Interrupted while the migrations run, the Postgres just started.
    for (let i = 0; i < 1200 && !err.includes('embedded postgres started'); i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(err).toContain('embedded postgres started');
    process.kill(-child.pid!, 'SIGINT');
    expect(await exited).not.toBe(0);
    const pidFile = join(dir, 'postgres', 'postmaster.pid');
    for (let i = 0; i < 200 && existsSync(pidFile); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(pidFile)).toBe(false);
    // The next run starts the data dir's Postgres again and completes what was interrupted.
    const again = spawn(process.execPath, ['bin/tollgate.mjs', 'migrate'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env,
    });
    let out = '';
    again.stdout.on('data', (d) => (out += d));
    expect(await new Promise((r) => again.on('exit', r))).toBe(0);
    expect(out).toContain('Migrations applied.');
    expect(existsSync(pidFile)).toBe(false);
  }, 240_000);
});

describe('npm run tollgate (bin/tollgate.mjs)', () => {
  it('compiles only when a source changed: a second run compiles nothing', async () => {
    const launch = () => {
      const child = spawn(process.execPath, ['bin/tollgate.mjs', '--help'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      return new Promise<{ code: number | null; out: string; err: string }>((r) =>
        child.on('exit', (code) => r({ code, out, err })),
      );
    };
    const first = await launch(); // compiles if this checkout's dist/ is older than its sources
    expect(first.code).toBe(0);
    const second = await launch();
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/^Usage: tollgate <command>/);
    expect(second.err).toBe('');
  }, 120_000);
  /** `api` on this file's database, started as a user would (`file args`); its log is on stderr. */
  async function startApi(file: string, args: string[]) {
    const child = spawn(file, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH!,
        HOME: process.env.HOME ?? '/tmp',
        DATABASE_URL: db.url,
        TOLLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'tollgate-launch-')),
        TOLLGATE_HOST: '127.0.0.1',
        TOLLGATE_PORT: '0',
        TOLLGATE_LOG_LEVEL: 'info',
      },
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    for (let i = 0; i < 1200 && !err.includes('api listening'); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(err).toContain('api listening');
    return { child, exited, err: () => err };
  }

  /** Waits for the appliance's stop (its log's last line), which a signal began. */
  async function expectStopped(err: () => string) {
    for (let i = 0; i < 300 && !err().includes('"msg":"stopped"'); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(logLines(err()).map((l) => l.msg)).toEqual(
      expect.arrayContaining(['signal received', 'stopped']),
    );
  }

  it('stops the appliance on a SIGTERM to npm, as a supervisor of `npm run tollgate` or `npm start` sends it', async () => {
    // npm passes the signal to its script's shell, which passed it to no one: npm exited and the
    // appliance ran on, orphaned, still serving (found by an outside probe). The scripts exec.
    const npm = await startApi('npm', ['run', '-s', 'tollgate', '--', 'api']);
    npm.child.kill('SIGTERM');
    await npm.exited;
    await expectStopped(npm.err);
  }, 120_000);

  it('stops the appliance when the launcher is killed with SIGKILL, which it cannot pass on', async () => {
    // The appliance ran on orphaned, still serving; a supervisor restarting the launcher's pid
    // got a second one that found the port taken (found by an outside fault harness).
    const launcher = await startApi(process.execPath, ['bin/tollgate.mjs', 'api']);
    const appliance = Number(
      execFileSync('ps', ['-o', 'pid=', '--ppid', String(launcher.child.pid)])
        .toString()
        .trim(),
    );
    expect(appliance).toBeGreaterThan(0);
    launcher.child.kill('SIGKILL');
    const alive = () => {
      try {
        process.kill(appliance, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 300 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive()).toBe(false);
    await expectStopped(launcher.err);
  }, 120_000);
});
