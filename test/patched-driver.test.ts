/**
 * Tollgate refuses to run postgres.js without its patch (src/db/patched-driver.ts). The driver as
 * published is made here from the installed one by reversing patches/postgres+3.4.9.patch with
 * git apply; the check must name what is missing, and the real CLI, run from a tree whose
 * node_modules holds that published driver, must stop before touching any database with a plain
 * message (no stack) and exit code 1.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertPatchedDriver,
  loadedDriverDir,
  missingDriverPatches,
  UnpatchedDriverError,
} from '../src/db/patched-driver.js';

const ROOT = resolve(import.meta.dirname, '..');
let tree: string;

beforeAll(() => {
  // A project tree of its own: the code and config copied, every dependency linked from the
  // installed ones but postgres, which is a copy with the patch reversed.
  tree = mkdtempSync(join(tmpdir(), 'tollgate-unpatched-'));
  chmodSync(tree, 0o755);
  for (const entry of ['src', 'workers', 'config', 'sql', 'package.json', 'tsconfig.json'])
    cpSync(join(ROOT, entry), join(tree, entry), { recursive: true });
  const modules = join(tree, 'node_modules');
  cpSync(join(ROOT, 'node_modules', 'postgres'), join(modules, 'postgres'), { recursive: true });
  for (const name of readdirSync(join(ROOT, 'node_modules')))
    if (name !== 'postgres') symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
  execFileSync('git', ['apply', '--reverse', join(ROOT, 'patches', 'postgres+3.4.9.patch')], {
    cwd: tree,
  });
});
afterAll(() => {
  if (tree) rmSync(tree, { recursive: true, force: true });
});

describe('postgres.js without Tollgate’s patch', () => {
  it('is told apart from the patched driver this install loads', () => {
    expect(missingDriverPatches(loadedDriverDir())).toEqual([]);
    expect(() => assertPatchedDriver()).not.toThrow();
    expect(loadedDriverDir()).toBe(join(ROOT, 'node_modules', 'postgres'));
    const published = join(tree, 'node_modules', 'postgres');
    // Reversed, the copy is the published code again: none of the patch's lines remain.
    for (const file of [
      'src/connection.js',
      'src/index.js',
      'src/types.js',
      'cjs/src/connection.js',
      'cjs/src/types.js',
    ])
      expect(readFileSync(join(published, file), 'utf8')).not.toMatch(/Tollgate patch/);
    expect(missingDriverPatches(published)).toEqual([
      'src/connection.js: a write after the socket closed (porsager/postgres#1208)',
      "src/connection.js: an outage's reconnect pause kept after the server is back",
      "src/index.js: a transaction's statements after its session ended (porsager/postgres#1216)",
      'src/types.js: a NULL in an array read as the text "NULL" (porsager/postgres#1124)',
      'cjs/src/connection.js: a write after the socket closed (porsager/postgres#1208)',
      "cjs/src/connection.js: an outage's reconnect pause kept after the server is back",
      "cjs/src/index.js: a transaction's statements after its session ended (porsager/postgres#1216)",
      'cjs/src/types.js: a NULL in an array read as the text "NULL" (porsager/postgres#1124)',
    ]);
    expect(() => assertPatchedDriver(published)).toThrow(UnpatchedDriverError);
    expect(() => assertPatchedDriver(published)).toThrow(/npm ci/);
  });

  it('stops the CLI before it touches a database, saying why and how to mend it', async () => {
    // A database URL that would refuse the connection: the check comes first, so that error
    // never shows. The same command from the real tree gets as far as the database.
    const run = (cwd: string) =>
      new Promise<{ code: number | null; stderr: string }>((done) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'migrate'], {
          cwd,
          env: {
            PATH: process.env.PATH!,
            HOME: process.env.HOME ?? '/tmp',
            DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
            TOLLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'tollgate-cli-')),
            TOLLGATE_LOG_LEVEL: 'warn',
          },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (d) => (stderr += d));
        child.on('exit', (code) => done({ code, stderr }));
      });
    const [unpatched, patched] = await Promise.all([run(tree), run(ROOT)]);
    expect(unpatched.code).toBe(1);
    expect(unpatched.stderr).toMatch(
      /^tollgate: postgres\.js in .* is installed without Tollgate's patch \(patches\/postgres\+3\.4\.9\.patch; missing: src\/connection\.js: .*; cjs\/src\/types\.js: .*\)\. Install with `npm ci`/,
    );
    expect(unpatched.stderr).not.toMatch(/connection refused|ECONNREFUSED|\n\s+at /);
    expect(unpatched.stderr.trim().split('\n')).toHaveLength(1);
    expect(patched.code).toBe(1);
    expect(patched.stderr).toMatch(/connection refused/);
    expect(patched.stderr).not.toMatch(/without Tollgate's patch/);
  }, 120_000);
});
