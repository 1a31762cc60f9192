import { appendFileSync, chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { openPool } from '../src/db/index.js';

const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-embedded-'));
  chmodSync(dir, 0o711);
  return dir;
};
const whoAmI = async (url: string) => {
  const sql = openPool(url, { max: 1 });
  try {
    const [row] = await sql<{ dir: string }[]>`select current_setting('data_directory') as dir`;
    return row!.dir;
  } finally {
    await sql.end({ timeout: 1 });
  }
};

it('gives each data dir a server of its own on a free port, and joins only its own', async () => {
  const [a, b] = [dataDir(), dataDir()];
  const first = await startEmbeddedPostgres(a);
  const second = await startEmbeddedPostgres(b); // it "joined" the first one's server before
  try {
    expect(new URL(first.url).port).not.toBe(new URL(second.url).port);
    expect(await whoAmI(first.url)).toBe(join(a, 'postgres'));
    expect(await whoAmI(second.url)).toBe(join(b, 'postgres'));
    // Another process on the same data dir (here: another call) joins that dir's server.
    const again = await startEmbeddedPostgres(a);
    expect(again.url).toBe(first.url);
    await again.stop(); // a joiner does not stop the server
    expect(await whoAmI(first.url)).toBe(join(a, 'postgres'));
  } finally {
    await first.stop();
    await second.stop();
  }
}, 120_000);

it('is left running by the process that started it while another process that joined it uses it', async () => {
  const dir = dataDir();
  const starter = await startEmbeddedPostgres(dir); // e.g. `tollgate data-key rotate`
  const joiner = await startEmbeddedPostgres(dir); // e.g. `tollgate start`, beside it
  const sql = openPool(joiner.url, { max: 1 });
  try {
    expect(await sql`select 1 as one`).toEqual([{ one: 1 }]);
    // The starter ends first (a command's end: release): it stopped the server under the
    // joiner, for good (found by an outside probe). Now the server stays up while the joiner's
    // session is open.
    await starter.release();
    expect(await sql`select 2 as two`).toEqual([{ two: 2 }]);
  } finally {
    await sql.end({ timeout: 1 });
  }
  // With nobody left, a release stops it.
  await starter.release();
  const probe = openPool(joiner.url, { max: 1 });
  await expect(probe`select 1`).rejects.toThrow();
  await probe.end({ timeout: 1 });
}, 60_000);

it('is stopped by the last process out, also one that joined it', async () => {
  // With the roles run apart (api, worker, indexer on one data dir), or after the process that
  // started it was killed, the server outlived them all, with no one to stop it (found by an
  // outside fault harness).
  const dir = dataDir();
  const starter = await startEmbeddedPostgres(dir); // e.g. `tollgate api`
  const joiner = await startEmbeddedPostgres(dir); // e.g. `tollgate worker`, beside it
  const sql = openPool(joiner.url, { max: 1 });
  expect(await sql`select 1 as one`).toEqual([{ one: 1 }]);
  await starter.release(); // the api stops first: the worker's session keeps it up
  expect(await sql`select 2 as two`).toEqual([{ two: 2 }]);
  await sql.end({ timeout: 1 });
  await joiner.release(); // the worker, the last one out, stops it
  expect(existsSync(join(dir, 'postgres', 'postmaster.pid'))).toBe(false);
  const probe = openPool(joiner.url, { max: 1 });
  await expect(probe`select 1`).rejects.toThrow();
  await probe.end({ timeout: 1 });
  // The next process starts it again.
  const next = await startEmbeddedPostgres(dir);
  expect(await whoAmI(next.url)).toBe(join(dir, 'postgres'));
  await next.stop();
}, 60_000);

it('starts one server when several processes start on a stopped data dir at once; the others join it', async () => {
  const dir = dataDir();
  // Each was a server of its own before: all but one failed ("lock file postmaster.pid already
  // exists"; found by an outside probe).
  const all = await Promise.all([1, 2, 3].map(() => startEmbeddedPostgres(dir)));
  try {
    expect(new Set(all.map((d) => d.url)).size).toBe(1);
    expect(await whoAmI(all[0]!.url)).toBe(join(dir, 'postgres'));
  } finally {
    for (const d of all) await d.stop();
  }
  // A lock left by a process that died is taken over.
  writeFileSync(join(dir, 'postgres.start.lock'), '999999');
  const after = await startEmbeddedPostgres(dir);
  await after.stop();
}, 120_000);

it('refuses a configured port something else listens on, naming the setting', async () => {
  const squatter = createServer(() => {});
  await new Promise<void>((r) => squatter.listen(0, '127.0.0.1', r));
  const { port } = squatter.address() as AddressInfo;
  try {
    await expect(startEmbeddedPostgres(dataDir(), port)).rejects.toThrow(
      new RegExp(`port ${port} .*in use by something else \\(TOLLGATE_EMBEDDED_POSTGRES_PORT\\)`),
    );
  } finally {
    squatter.close();
  }
});

it('says why the server did not start, in its own words', async () => {
  const dir = dataDir();
  const first = await startEmbeddedPostgres(dir);
  await first.stop();
  // A setting the server refuses: it exits at once, saying so on its output.
  appendFileSync(join(dir, 'postgres', 'postgresql.conf'), '\nshared_buffers = banana\n');
  const err = await startEmbeddedPostgres(dir).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(Error);
  expect((err as Error).message).toMatch(
    new RegExp(
      `^embedded postgres in ${join(dir, 'postgres')} did not start: .*invalid value for parameter "shared_buffers": "banana"`,
    ),
  );
}, 120_000);
