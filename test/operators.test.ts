import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, ErrorNumber } from '../src/errors.js';
import { requireOperator, type OperatorEnv } from '../src/operators/auth.js';
import { hashingStats } from '../src/operators/hashing.js';
import { setOperatorPolicy } from '../src/operators/policy.js';
import {
  authenticateOperator,
  createOperator,
  disableOperator,
  listOperators,
  resetOperatorPassword,
  roleAllows,
} from '../src/operators/operators.js';
import { runCli } from './helpers/cli.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

/** Runs the real CLI (`tollgate …`) from source in a child process. */
const tollgate = (args: string[], env: Record<string, string> = {}) =>
  runCli(db.url, args, env, 'warn');

describe('operators', () => {
  it('creates an operator whose password authenticates; the stored hash is not the password', async () => {
    const created = await createOperator(db.sql, 'Alice@Example.com', 'reviewer');
    expect(created).toMatchObject({ login: 'alice@example.com', role: 'reviewer' });
    expect(created.password).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const [row] =
      await db.sql`select password_hash from operators where login = 'alice@example.com'`;
    expect(row!.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(row!.password_hash).not.toContain(created.password);
    expect(await authenticateOperator(db.sql, 'ALICE@example.com', created.password)).toEqual({
      ok: true,
      operator: { id: created.id, login: 'alice@example.com', role: 'reviewer' },
    });
  });

  it('refuses bad logins, short passwords and duplicates with a clear message', async () => {
    await expect(createOperator(db.sql, 'ab', 'viewer')).rejects.toThrow(/3 to 64 characters/);
    await expect(createOperator(db.sql, 'bob smith', 'viewer')).rejects.toThrow(
      /3 to 64 characters/,
    );
    await expect(createOperator(db.sql, 'bob', 'viewer', 'short')).rejects.toThrow(
      /at least 12 characters/,
    );
    await createOperator(db.sql, 'bob', 'viewer', 'a long enough password');
    await expect(createOperator(db.sql, 'BOB', 'admin')).rejects.toThrow(
      'An operator with login "bob" exists already.',
    );
  });

  it('never locks an account: after many wrong passwords the right one still works', async () => {
    const { password } = await createOperator(db.sql, 'carol', 'admin', 'carol-password-1234');
    const results = await Promise.all(
      Array.from({ length: 12 }, () => authenticateOperator(db.sql, 'carol', 'wrong password')),
    );
    for (const r of results) expect(r).toEqual({ ok: false, reason: 'invalid', login: 'carol' });
    expect(await authenticateOperator(db.sql, 'carol', password)).toMatchObject({
      ok: true,
      operator: { login: 'carol', role: 'admin' },
    });
    const fresh = await resetOperatorPassword(db.sql, 'carol', { actor: 'test' });
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await authenticateOperator(db.sql, 'carol', password)).toEqual({
      ok: false,
      reason: 'invalid',
      login: 'carol',
    });
    expect(await authenticateOperator(db.sql, 'carol', fresh!)).toMatchObject({ ok: true });
    expect(await resetOperatorPassword(db.sql, 'nobody-here', { actor: 'test' })).toBeUndefined();
  });

  it('runs exactly one scrypt for an unknown login, a wrong password, a disabled operator and a right one', async () => {
    const { password } = await createOperator(db.sql, 'dave', 'viewer');
    await createOperator(db.sql, 'dora', 'viewer');
    await disableOperator(db.sql, 'dora', { actor: 'test' });
    const cases: [string, string][] = [
      ['nobody.at.all', 'some password'],
      ['dave', 'wrong password'],
      ['dora', 'any password'],
      ['dave', password],
      ['not a valid login!', 'x'],
      ['dave', 'y'.repeat(5000)],
    ];
    for (const [login, pass] of cases) {
      const before = hashingStats.computed;
      await authenticateOperator(db.sql, login, pass);
      expect(hashingStats.computed - before, `${login}`).toBe(1);
    }
  });

  it('a disabled operator is refused; an unknown login is invalid', async () => {
    const { password } = await createOperator(db.sql, 'frank', 'admin');
    expect(await disableOperator(db.sql, 'FRANK', { actor: 'test' })).toBe(true);
    expect(await disableOperator(db.sql, 'frank', { actor: 'test' })).toBe(false);
    expect(await authenticateOperator(db.sql, 'frank', password)).toEqual({
      ok: false,
      reason: 'disabled',
      login: 'frank',
    });
    expect(
      (await listOperators(db.sql)).find((o) => o.login === 'frank')!.disabled_at,
    ).toBeInstanceOf(Date);
    expect(await authenticateOperator(db.sql, 'nobody', password)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(await authenticateOperator(db.sql, '', '')).toEqual({ ok: false, reason: 'invalid' });
    expect(await disableOperator(db.sql, 'nobody', { actor: 'test' })).toBe(false);
  });

  it('roleAllows: viewer < reviewer < admin', () => {
    expect(roleAllows('viewer', 'viewer')).toBe(true);
    expect(roleAllows('viewer', 'reviewer')).toBe(false);
    expect(roleAllows('reviewer', 'viewer')).toBe(true);
    expect(roleAllows('reviewer', 'admin')).toBe(false);
    expect(roleAllows('admin', 'reviewer')).toBe(true);
  });
});

describe('requireOperator', () => {
  beforeAll(() => {
    // Password alone here; the second factor's cases are in test/operator-login.test.ts.
    setOperatorPolicy(db.sql, { mfaRequiredRoles: [], trustProxy: null });
  });
  /** A tiny app whose onError mirrors src/api/app.ts's. */
  function app() {
    const a = new Hono<OperatorEnv>();
    a.use('/review/*', requireOperator(db.sql, 'reviewer'));
    a.get('/review/queue', (c) => c.json({ login: c.get('operator').login }));
    a.onError((err, c) => {
      if (err instanceof ApiError)
        return c.json(
          { code: err.errorNumber, status: err.errorNumber, message: err.message },
          err.httpStatus,
        );
      return c.json(
        { code: ErrorNumber.INTERNAL, status: ErrorNumber.INTERNAL, message: 'Internal error.' },
        500,
      );
    });
    return a;
  }
  const basic = (login: string, password: string) => ({
    authorization: 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64'),
  });

  it('401 with WWW-Authenticate without or with wrong credentials', async () => {
    const none = await app().request('/review/queue');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Basic realm="tollgate-operators"');
    expect(await none.json()).toEqual({
      code: 4010,
      status: 4010,
      message: 'Operator credentials required (HTTP basic auth, or a session token as Bearer).',
    });

    await createOperator(db.sql, 'gina', 'reviewer', 'gina-password-123');
    const wrong = await app().request('/review/queue', {
      headers: basic('gina', 'not her password'),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Basic realm="tollgate-operators"');
    expect(await wrong.json()).toEqual({
      code: 4010,
      status: 4010,
      message: 'Invalid operator credentials.',
    });

    const garbage = await app().request('/review/queue', {
      headers: { authorization: 'Basic !!!' },
    });
    expect(garbage.status).toBe(401);
    const bearer = await app().request('/review/queue', { headers: { authorization: 'Bearer x' } });
    expect(bearer.status).toBe(401);
  });

  it('403 for a viewer on a reviewer route, 200 for a reviewer and an admin', async () => {
    const viewer = await createOperator(db.sql, 'hank', 'viewer');
    const res = await app().request('/review/queue', { headers: basic('hank', viewer.password) });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      code: 4030,
      status: 4030,
      message: 'This needs the reviewer role.',
    });

    const ok = await app().request('/review/queue', {
      headers: basic('gina', 'gina-password-123'),
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ login: 'gina' });
    const admin = await createOperator(db.sql, 'ivy', 'admin', 'a password with a colon: inside');
    const adminRes = await app().request('/review/queue', {
      headers: basic('ivy', 'a password with a colon: inside'),
    });
    expect(adminRes.status).toBe(200);
    expect(admin.login).toBe('ivy');
  });

  it('a disabled account gets the same 401 as a wrong password', async () => {
    const { password } = await createOperator(db.sql, 'jill', 'admin');
    await disableOperator(db.sql, 'jill', { actor: 'test' });
    const disabled = await app().request('/review/queue', { headers: basic('jill', password) });
    expect(disabled.status).toBe(401);
    expect(await disabled.json()).toMatchObject({ message: 'Invalid operator credentials.' });
  });
});

describe('tollgate operators CLI', () => {
  it('create prints a generated password once that authenticates; list, disable, reset-password work', async () => {
    const run = tollgate(['operators', 'create', '--login', 'kate', '--role', 'reviewer']);
    expect(await run.exited).toBe(0);
    const created = run.lastJson();
    expect(created).toEqual({
      login: 'kate',
      role: 'reviewer',
      password: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
    });
    expect(await authenticateOperator(db.sql, 'kate', created.password)).toMatchObject({
      ok: true,
      operator: { role: 'reviewer' },
    });

    const list = tollgate(['operators', 'list']);
    expect(await list.exited).toBe(0);
    expect(list.out()).toMatch(/kate\s+reviewer\s+\S+\s+off\s+active/);
    expect(list.out()).not.toContain(created.password);

    const reset = tollgate(['operators', 'reset-password', 'kate']);
    expect(await reset.exited).toBe(0);
    const { password } = reset.lastJson();
    expect(await authenticateOperator(db.sql, 'kate', password)).toMatchObject({ ok: true });

    const disable = tollgate(['operators', 'disable', 'kate']);
    expect(await disable.exited).toBe(0);
    expect(await authenticateOperator(db.sql, 'kate', password)).toEqual({
      ok: false,
      reason: 'disabled',
      login: 'kate',
    });
    const again = tollgate(['operators', 'disable', 'kate']);
    expect(await again.exited).toBe(1);
    expect(again.err()).toContain('no active operator with login kate');
  });

  it('takes the password from TOLLGATE_OPERATOR_PASSWORD or stdin, and then prints none', async () => {
    const fromEnv = tollgate(['operators', 'create', '--login', 'liam', '--role', 'admin'], {
      TOLLGATE_OPERATOR_PASSWORD: 'liam-chose-this-one',
    });
    expect(await fromEnv.exited).toBe(0);
    expect(fromEnv.lastJson()).toEqual({ login: 'liam', role: 'admin' });
    expect(fromEnv.out() + fromEnv.err()).not.toContain('liam-chose-this-one');
    expect(await authenticateOperator(db.sql, 'liam', 'liam-chose-this-one')).toMatchObject({
      ok: true,
    });

    const fromStdin = tollgate([
      'operators',
      'create',
      '--login',
      'mia',
      '--role',
      'viewer',
      '--password-stdin',
    ]);
    fromStdin.child.stdin.end('mia-typed-this-password\n');
    expect(await fromStdin.exited).toBe(0);
    expect(fromStdin.lastJson()).toEqual({ login: 'mia', role: 'viewer' });
    expect(await authenticateOperator(db.sql, 'mia', 'mia-typed-this-password')).toMatchObject({
      ok: true,
    });

    const short = tollgate(['operators', 'create', '--login', 'ned', '--role', 'viewer'], {
      TOLLGATE_OPERATOR_PASSWORD: 'short',
    });
    expect(await short.exited).toBe(1);
    expect(short.err()).toContain('at least 12 characters');
    const duplicate = tollgate(['operators', 'create', '--login', 'mia', '--role', 'viewer']);
    expect(await duplicate.exited).toBe(1);
    expect(duplicate.err()).toContain('exists already');
  });

  it('bad arguments: usage on stderr, exit 2', async () => {
    const cases = [
      ['operators'],
      ['operators', 'create', '--login', 'x'],
      ['operators', 'create', '--login', 'olga', '--role', 'boss'],
      ['operators', 'list', '--bogus'],
      ['operators', 'disable'],
    ];
    const runs = cases.map((args) => ({ args, run: tollgate(args) }));
    for (const { args, run } of runs) {
      expect(await run.exited, args.join(' ')).toBe(2);
      expect(run.err()).toMatch(/tollgate operators: /);
    }
  });
});
