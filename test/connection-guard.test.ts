import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from './helpers/db.js';

/**
 * postgres.js 3.4.9 throws where nothing can catch it when a transaction's connection is closed
 * by the server (porsager/postgres#1208): without the guard the process dies, with it the
 * transaction fails like any lost connection and the pool carries on.
 */

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

function run(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/fixtures/closed-connection-write.ts', ...args],
    {
      env: { ...process.env, DATABASE_URL: db.url, TOLLGATE_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

it('survives a transaction whose connection the server closed, and the pool carries on', async () => {
  const guarded = await run(['--guard']);
  expect(guarded.out).toMatch(/begin rejected: (CONNECTION_CLOSED|57P01|ECONNRESET)/);
  expect(guarded.out).toContain('pool works: true');
  expect(guarded.code).toBe(0);
}, 60_000);

it('without the guard, the same sequence ends the process (the dependency defect is still there)', async () => {
  const bare = await run([]);
  expect(bare.code).not.toBe(0);
  expect(bare.out).toMatch(/Cannot read properties of null \(reading 'write'\)/);
}, 60_000);
