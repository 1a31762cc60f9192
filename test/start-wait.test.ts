import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../src/db/embedded.js';
import { freePort } from '../support/ports.js';
import { type CliRun, logLines, runCli } from './helpers/cli.js';
import { eventually } from './helpers/eventually.js';

/**
 * A serving role started while its Postgres cannot serve (stopped, restarting, failing over,
 * starting beside it) keeps trying for TOLLGATE_DATABASE_START_WAIT_S and comes up once the
 * database does; what no wait mends (a database name refused) and a wait of 0 fail at once, as
 * before; a signal during the wait stops it. A Postgres of this file's own, stopped and started
 * on the same port.
 */

const dir = mkdtempSync(join(tmpdir(), 'tollgate-start-wait-pg-'));
chmodSync(dir, 0o711);
let port = 0;
let pg: EmbeddedDatabase | undefined;
let url = '';
const runs: CliRun[] = [];

beforeAll(async () => {
  port = await freePort();
  pg = await startEmbeddedPostgres(dir, port);
  url = pg.url;
  await pg.stop();
  pg = undefined;
}, 120_000);

afterAll(async () => {
  for (const r of runs) r.child.kill('SIGKILL');
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function worker(env: Record<string, string>, databaseUrl = url): CliRun {
  const run = runCli(databaseUrl, ['worker'], env, 'info');
  runs.push(run);
  return run;
}

const waiting = (run: CliRun) =>
  logLines(run.err()).filter((l) => l.msg.startsWith('the database cannot serve the start yet'));

describe('a serving start on a database that cannot serve yet', () => {
  it('keeps trying, says why, and comes up once Postgres does; exits 0 on SIGTERM', async () => {
    const health = await freePort();
    const run = worker({ TOLLGATE_HEALTH_PORT: String(health) });
    await eventually(
      async () => waiting(run).length,
      (n) => n >= 2,
      60_000,
    );
    const [first] = waiting(run);
    expect(first).toMatchObject({ level: 40, attempt: 1 });
    expect(first!.reason).toMatch(/^DATABASE_URL \(.*\): connection refused/);
    const password = new URL(url).password;
    if (password) expect(run.err()).not.toContain(password);
    pg = await startEmbeddedPostgres(dir, port);
    const up = await eventually(
      () =>
        fetch(`http://127.0.0.1:${health}/healthz`)
          .then((r) => r.status)
          .catch(() => 0),
      (s) => s === 200,
      60_000,
    );
    expect(up).toBe(200);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 180_000);

  it('fails at once with a wait of 0, and for a database name no wait mends', async () => {
    await pg?.stop();
    pg = undefined;
    const now = worker({ TOLLGATE_DATABASE_START_WAIT_S: '0' });
    expect(await now.exited).toBe(1);
    expect(now.err()).toMatch(/^tollgate: DATABASE_URL \(.*\): connection refused/);
    expect(waiting(now)).toEqual([]);

    pg = await startEmbeddedPostgres(dir, port);
    const wrong = worker({}, Object.assign(new URL(url), { pathname: '/no_such_db' }).toString());
    expect(await wrong.exited).toBe(1);
    expect(wrong.err()).toMatch(/database "no_such_db" does not exist/);
    expect(waiting(wrong)).toEqual([]);
  }, 120_000);

  it('stops while it waits on a signal, exit 0', async () => {
    await pg?.stop();
    pg = undefined;
    const run = worker({});
    await eventually(
      async () => waiting(run).length,
      (n) => n >= 1,
      60_000,
    );
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 120_000);
});
