import { lookup } from 'node:dns/promises';
import { generateSync } from 'otplib';
import pino from 'pino';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { log } from '../src/log.js';
import {
  hashingStats,
  resetHashingHighWater,
  SCRYPT_CONCURRENCY,
  SCRYPT_QUEUE_MAX,
} from '../src/operators/hashing.js';
import { createOperator } from '../src/operators/operators.js';
import { startTestAppliance } from './helpers/appliance.js';
import { runCli } from './helpers/cli.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { csrfOf, DashboardClient } from './helpers/dashboard-client.js';

/**
 * Operator login against the real appliance (API role, real Postgres), over real HTTPS from
 * distinct client addresses (each client binds its own 127.x address, so the appliance sees
 * distinct TCP peers): the two steps with TOTP, enforced enrolment, recovery codes, the operator
 * API's sessions, the login limits (no lockout of the operator by a stranger, the same answers
 * for unknown and known logins), the bounded hashing queue under a flood, sessions ended by every
 * credential change (dashboard and CLI), the audit of failed logins, and logs without secrets.
 * No wall-clock time is asserted: counts, statuses and orderings only.
 */

const PASSWORD = 'Marker-Password-q8Zt3vW1';
/** Typed into the login field by mistake: must never be stored or logged. */
const PASSWORD_AS_LOGIN = 'Marker-typed-as-login-K2p9';
let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let logged = '';
let restoreLog: () => void;
/** Every TOTP code, secret and recovery code the test saw: none may reach the log. */
const secrets = new Set<string>();
/** The TOTP secret, recovery codes and enrolled browser of each operator enrolled so far. */
const secretOf = new Map<string, string>();
const recoveryOf = new Map<string, string[]>();
const clientOf = new Map<string, Client>();
const NEW_PASSWORD = 'Marker-New-Password-r5Yx0';

beforeAll(async () => {
  db = await freshDatabase();
  for (const [login, role] of [
    ['ada.admin', 'admin'],
    ['rex.reviewer', 'reviewer'],
    ['vic.viewer', 'viewer'],
    ['otto.reviewer', 'reviewer'],
    ['flo.reviewer', 'reviewer'],
    ['cli.reviewer', 'reviewer'],
  ] as const)
    await createOperator(db.sql, login, role, PASSWORD);
  app = await startTestAppliance(
    db.url,
    { TOLLGATE_MFA_REQUIRED_ROLES: 'reviewer,admin', TOLLGATE_LOG_LEVEL: 'trace' },
    { api: true, worker: false, indexer: false, devChain: false },
  );
  // Everything the appliance logs, from here on, in this process.
  const sym = pino.symbols.streamSym as unknown as keyof typeof log;
  const original = log[sym];
  (log as unknown as Record<symbol, unknown>)[sym as unknown as symbol] = {
    write: (line: string) => {
      logged += line;
    },
  };
  restoreLog = () => {
    (log as unknown as Record<symbol, unknown>)[sym as unknown as symbol] = original;
  };
}, 120_000);

afterAll(async () => {
  restoreLog?.();
  await app?.stop();
  await db?.drop();
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const agents = new Map<string, Agent>();
/** An HTTPS request from `from` (a 127.x address of this machine) to the appliance. */
async function send(
  from: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Reply> {
  let agent = agents.get(from);
  if (!agent) {
    agent = new Agent({ localAddress: from, connect: { rejectUnauthorized: false } });
    agents.set(from, agent);
  }
  const res = await request(app.baseUrl + path, {
    method: method as 'GET',
    headers,
    body,
    dispatcher: agent,
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

/** A browser's cookie jar and forms (test/helpers/dashboard-client.ts), from one client address. */
class Client extends DashboardClient {
  constructor(readonly from: string) {
    super(app.baseUrl, {
      transport: async (method, path, headers, body) => ({
        ...(await send(from, method, path, headers, body)),
        json: undefined,
      }),
    });
  }

  login(login: string, password = PASSWORD): Promise<Reply> {
    return this.submit('/dashboard/login', '/dashboard/login', { login, password });
  }
}

/** The page without what differs between two identical answers: its CSRF token. */
const sameShape = (html: string) => html.replace(/value="[A-Za-z0-9_-]{43}"/g, 'value="…"');

const basic = (login: string, password = PASSWORD) => ({
  authorization: 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64'),
});

const TOTP_PERIOD_S = 30;

/**
 * A TOTP code the appliance has not taken yet: of the current step, or of the next one (within
 * the one-step tolerance), or, both taken, of the step after once it begins.
 */
async function freshCode(login: string, secret: string): Promise<string> {
  for (;;) {
    const [row] = await db.sql<{ last_step: string | null }[]>`
      select m.last_step from operator_mfa m join operators o on o.id = m.operator_id where o.login = ${login}`;
    const last = row?.last_step == null ? -1 : Number(row.last_step);
    const now = Math.floor(Date.now() / 1000);
    const step = Math.floor(now / TOTP_PERIOD_S);
    for (const s of [step, step + 1]) {
      if (s > last) {
        const code = generateSync({ secret, epoch: s * TOTP_PERIOD_S + 1 });
        secrets.add(code);
        return code;
      }
    }
    await new Promise((r) => setTimeout(r, ((step + 1) * TOTP_PERIOD_S - now) * 1000 + 200));
  }
}

/** Logs `login` in (password, then enrolment): returns the client, its secret and recovery codes. */
async function enrol(
  login: string,
  from: string,
): Promise<{ client: Client; secret: string; recovery: string[] }> {
  const client = new Client(from);
  const first = await client.login(login);
  expect(first.status).toBe(303);
  expect(first.headers.location).toBe('/dashboard/account/mfa');
  const page = await client.get('/dashboard/account/mfa');
  expect(page.status).toBe(200);
  expect(page.text).toMatch(/<img id="mfa-qr" src="data:image\/svg\+xml;base64,/);
  const secret = /<code id="mfa-secret">([A-Z2-7 ]+)<\/code>/
    .exec(page.text)![1]!
    .replace(/ /g, '');
  secrets.add(secret);
  secretOf.set(login, secret);
  const done = await client.post('/dashboard/account/mfa/confirm', {
    _csrf: csrfOf(page.text),
    code: await freshCode(login, secret),
  });
  expect(done.status).toBe(200);
  const recovery = [...done.text.matchAll(/<li><code>([a-z2-9-]{14})<\/code><\/li>/g)].map(
    (m) => m[1]!,
  );
  expect(recovery).toHaveLength(10);
  for (const r of recovery) secrets.add(r);
  recoveryOf.set(login, recovery);
  clientOf.set(login, client);
  expect((await client.get('/dashboard/travelrule')).status).toBe(200);
  return { client, secret, recovery };
}

/** Password and a TOTP code in the dashboard: the client's session is full afterwards. */
async function logInWithCode(login: string, secret: string, from: string): Promise<Client> {
  const client = new Client(from);
  const first = await client.login(login);
  expect(first.headers.location).toBe('/dashboard/login/code');
  const done = await client.submit('/dashboard/login/code', '/dashboard/login/code', {
    code: await freshCode(login, secret),
  });
  expect(done.status).toBe(303);
  expect(done.headers.location).toBe('/dashboard/travelrule');
  return client;
}

async function stillIn(client: Client): Promise<boolean> {
  const r = await client.get('/dashboard/audit');
  return r.status === 200;
}

async function audit(action: string) {
  return db.sql<{ actor: string; target: string | null; details: Record<string, unknown> }[]>`
    select actor, target, details from audit_log where action = ${action} order by id`;
}

describe('second factor in the dashboard', () => {
  it('an operator whose role requires it enrols right after the password, before anything else', async () => {
    const client = new Client('127.0.0.21');
    const first = await client.login('rex.reviewer');
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/dashboard/account/mfa');
    for (const path of ['/dashboard/travelrule', '/dashboard/audit', '/dashboard/account'])
      expect((await client.get(path)).headers.location, path).toBe('/dashboard/account/mfa');
    const page = await client.get('/dashboard/account/mfa');
    expect(page.text).not.toContain('aria-label="Dashboard"'); // no navigation yet
    // A wrong code does not enrol.
    const wrong = await client.post('/dashboard/account/mfa/confirm', {
      _csrf: csrfOf(page.text),
      code: '000000',
    });
    expect(wrong.status).toBe(400);
    expect((await client.get('/dashboard/travelrule')).status).toBe(303);
  });

  it('enrols with the QR code and its secret, shows ten recovery codes once, stores the secret sealed', async () => {
    const { secret, recovery } = await enrol('rex.reviewer', '127.0.0.21');
    const [row] = await db.sql<{ secret_sealed: Buffer; confirmed_at: Date | null }[]>`
      select secret_sealed, confirmed_at from operator_mfa m join operators o on o.id = m.operator_id
      where o.login = 'rex.reviewer'`;
    expect(row!.confirmed_at).toBeInstanceOf(Date);
    expect(row!.secret_sealed.toString('latin1')).not.toContain(secret);
    const stored = await db.sql<{ code_hash: string }[]>`
      select code_hash from operator_recovery_codes r join operators o on o.id = r.operator_id
      where o.login = 'rex.reviewer'`;
    expect(stored).toHaveLength(10);
    for (const r of recovery)
      expect(stored.some((s) => s.code_hash.includes(r.replace(/-/g, '')))).toBe(false);
    expect((await audit('mfa_enrol')).map((a) => a.actor)).toContain('rex.reviewer');
  });

  it('then asks for a code after the password; a code is taken once; a recovery code works once', async () => {
    const { secret, recovery } = await enrol('otto.reviewer', '127.0.0.22');
    const client = await logInWithCode('otto.reviewer', secret, '127.0.0.22');
    expect(await stillIn(client)).toBe(true);

    // The same code again, on a new login: refused (replay).
    const [last] = await db.sql<{ last_step: string }[]>`
      select m.last_step from operator_mfa m join operators o on o.id = m.operator_id where o.login = 'otto.reviewer'`;
    const used = generateSync({ secret, epoch: Number(last!.last_step) * TOTP_PERIOD_S + 1 });
    const again = new Client('127.0.0.22');
    await again.login('otto.reviewer');
    expect((await again.get('/dashboard/travelrule')).headers.location).toBe(
      '/dashboard/login/code',
    );
    const replay = await again.submit('/dashboard/login/code', '/dashboard/login/code', {
      code: used,
    });
    expect(replay.status).toBe(401);
    expect(replay.text).toContain('not valid');

    // A recovery code, once.
    const withRecovery = await again.submit('/dashboard/login/code', '/dashboard/login/code', {
      code: recovery[3]!.toUpperCase(),
    });
    expect(withRecovery.status).toBe(303);
    expect(withRecovery.headers.location).toBe('/dashboard/account?done=recovery');
    expect((await again.get('/dashboard/account')).text).toContain('Recovery codes left: 9.');
    const third = new Client('127.0.0.22');
    await third.login('otto.reviewer');
    const spent = await third.submit('/dashboard/login/code', '/dashboard/login/code', {
      code: recovery[3]!,
    });
    expect(spent.status).toBe(401);
    expect((await audit('mfa_recovery_code_used')).some((a) => a.actor === 'otto.reviewer')).toBe(
      true,
    );
  });

  it('ends a half-open session after five wrong codes', async () => {
    const client = new Client('127.0.0.23');
    await client.login('otto.reviewer');
    let last: Reply | undefined;
    for (let i = 0; i < 5; i++)
      last = await client.submit('/dashboard/login/code', '/dashboard/login/code', {
        code: '00000' + i,
      });
    expect(last!.text).toContain('Too many wrong codes');
    expect((await client.get('/dashboard/login/code')).headers.location).toBe('/dashboard/login');
  });
});

describe('the operator API and the second factor', () => {
  it('refuses basic auth alone for an operator with a second factor, or whose role requires one', async () => {
    const enrolled = await send(
      '127.0.0.31',
      'GET',
      '/ops/travelrule/pending',
      basic('rex.reviewer'),
    );
    expect(enrolled.status).toBe(401);
    expect(JSON.parse(enrolled.text).message).toContain('POST /ops/session');
    const notYet = await send(
      '127.0.0.31',
      'GET',
      '/ops/travelrule/pending',
      basic('flo.reviewer'),
    );
    expect(notYet.status).toBe(403);
    expect(JSON.parse(notYet.text).message).toContain('requires a second factor');
    const noSession = await send('127.0.0.31', 'POST', '/ops/session', basic('flo.reviewer'));
    expect(noSession.status).toBe(403);
    // A viewer (not required here, not enrolled) keeps basic auth.
    const viewer = await send('127.0.0.31', 'GET', '/ops/travelrule/pending', basic('vic.viewer'));
    expect(viewer.status).toBe(200);
  });

  it('opens a session with basic auth and X-Tollgate-OTP; the code works once; the token ends at DELETE', async () => {
    const { secret } = await enrol('ada.admin', '127.0.0.32');
    const without = await send('127.0.0.32', 'POST', '/ops/session', basic('ada.admin'));
    expect(without.status).toBe(401);
    expect(JSON.parse(without.text).message).toContain('X-Tollgate-OTP');
    const code = await freshCode('ada.admin', secret);
    const opened = await send('127.0.0.32', 'POST', '/ops/session', {
      ...basic('ada.admin'),
      'x-tollgate-otp': code,
    });
    expect(opened.status).toBe(201);
    const { token } = JSON.parse(opened.text).data;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const bearer = { authorization: `Bearer ${token}` };
    expect((await send('127.0.0.32', 'GET', '/ops/travelrule/pending', bearer)).status).toBe(200);
    const replay = await send('127.0.0.32', 'POST', '/ops/session', {
      ...basic('ada.admin'),
      'x-tollgate-otp': code,
    });
    expect(replay.status).toBe(401);
    // A dashboard cookie is not an /ops token, nor the other way round.
    expect(
      (await send('127.0.0.32', 'GET', '/dashboard/audit', { cookie: `tollgate_session=${token}` }))
        .status,
    ).toBe(303);
    expect((await send('127.0.0.32', 'DELETE', '/ops/session', bearer)).status).toBe(200);
    expect((await send('127.0.0.32', 'GET', '/ops/travelrule/pending', bearer)).status).toBe(401);
  });
});

describe('sessions end on every change of password or second factor', () => {
  /** Whether the browser's session and the /ops token still work. */
  async function alive(client: Client, bearer: Record<string, string> | undefined) {
    return {
      dashboard: await stillIn(client),
      ops: bearer
        ? (await send(client.from, 'GET', '/ops/travelrule/pending', bearer)).status === 200
        : undefined,
    };
  }

  /** An /ops session of an enrolled operator. */
  async function opsToken(login: string, from: string): Promise<Record<string, string>> {
    const opened = await send(from, 'POST', '/ops/session', {
      ...basic(login),
      'x-tollgate-otp': await freshCode(login, secretOf.get(login)!),
    });
    expect(opened.status).toBe(201);
    return { authorization: `Bearer ${JSON.parse(opened.text).data.token}` };
  }

  it('an admin resets a second factor: every session of the operator ends, and they must enrol again', async () => {
    const { client } = await enrol('flo.reviewer', '127.0.0.41');
    const bearer = await opsToken('flo.reviewer', '127.0.0.41');
    expect(await alive(client, bearer)).toEqual({ dashboard: true, ops: true });
    const admin = clientOf.get('ada.admin')!;
    const reset = await admin.submit(
      '/dashboard/operators',
      '/dashboard/operators/flo.reviewer/reset-mfa',
      {},
    );
    expect(reset.status).toBe(303);
    expect(await alive(client, bearer)).toEqual({ dashboard: false, ops: false });
    expect(await stillIn(admin)).toBe(true);
    const again = new Client('127.0.0.41');
    expect((await again.login('flo.reviewer')).headers.location).toBe('/dashboard/account/mfa');
    expect((await audit('mfa_reset')).map((a) => [a.actor, a.target])).toContainEqual([
      'ada.admin',
      'flo.reviewer',
    ]);
    const revoked = await audit('sessions_revoked');
    expect(
      revoked.some(
        (a) =>
          a.target === 'flo.reviewer' && a.details.reason === 'mfa_reset' && a.details.count === 2,
      ),
    ).toBe(true);
  });

  it('an admin resets a password: every session of the operator ends', async () => {
    const victim = new Client('127.0.0.46');
    expect((await victim.login('vic.viewer')).headers.location).toBe('/dashboard/travelrule');
    const admin = clientOf.get('ada.admin')!;
    const reset = await admin.submit(
      '/dashboard/operators',
      '/dashboard/operators/vic.viewer/reset-password',
      {},
    );
    expect(reset.status).toBe(200);
    const password = /<code id="new-password">([^<]+)<\/code>/.exec(reset.text)![1]!;
    secrets.add(password);
    expect(await stillIn(victim)).toBe(false);
    // Back to the shared password for the tests below (through the CLI, which ends sessions too).
    const run = runCli(db.url, ['operators', 'reset-password', 'vic.viewer'], {
      TOLLGATE_OPERATOR_PASSWORD: PASSWORD,
    });
    expect(await run.exited).toBe(0);
  });

  it('an operator changes their own password: their other sessions end, this browser stays in', async () => {
    const here = new Client('127.0.0.43');
    const there = new Client('127.0.0.44');
    for (const c of [here, there])
      expect((await c.login('vic.viewer')).headers.location).toBe('/dashboard/travelrule');
    const opened = await send('127.0.0.44', 'POST', '/ops/session', basic('vic.viewer'));
    expect(opened.status).toBe(201);
    const bearer = { authorization: `Bearer ${JSON.parse(opened.text).data.token}` };
    const wrong = await here.submit('/dashboard/account', '/dashboard/account/password', {
      current: 'not the password at all',
      password: NEW_PASSWORD,
      confirm: NEW_PASSWORD,
    });
    expect(wrong.status).toBe(401);
    expect(await stillIn(there)).toBe(true);
    const changed = await here.submit('/dashboard/account', '/dashboard/account/password', {
      current: PASSWORD,
      password: NEW_PASSWORD,
      confirm: NEW_PASSWORD,
    });
    expect(changed.status).toBe(303);
    expect(changed.headers.location).toBe('/dashboard/account?done=password');
    expect(await stillIn(here)).toBe(true);
    expect(await alive(there, bearer)).toEqual({ dashboard: false, ops: false });
    expect((await audit('password_change')).map((a) => a.actor)).toContain('vic.viewer');
    expect((await new Client('127.0.0.43').login('vic.viewer', NEW_PASSWORD)).status).toBe(303);
  });

  it('an operator removes their own second factor with a recovery code: other sessions end, and the role makes them enrol again', async () => {
    const recovery = recoveryOf.get('otto.reviewer')!;
    const logInWithRecovery = async (code: string, from: string) => {
      const c = new Client(from);
      await c.login('otto.reviewer');
      const done = await c.submit('/dashboard/login/code', '/dashboard/login/code', { code });
      expect(done.status).toBe(303);
      return c;
    };
    const here = await logInWithRecovery(recovery[5]!, '127.0.0.47');
    const there = await logInWithRecovery(recovery[6]!, '127.0.0.48');
    const wrong = await here.submit('/dashboard/account/mfa', '/dashboard/account/mfa/disable', {
      code: '123456',
    });
    expect(wrong.status).toBe(401);
    expect(await stillIn(there)).toBe(true);
    const removed = await here.submit('/dashboard/account/mfa', '/dashboard/account/mfa/disable', {
      code: recovery[7]!,
    });
    expect(removed.status).toBe(303);
    expect(removed.headers.location).toBe('/dashboard/account/mfa?done=disabled');
    expect(await stillIn(there)).toBe(false);
    // Reviewers require a second factor here: this browser may only enrol again.
    expect((await here.get('/dashboard/travelrule')).headers.location).toBe(
      '/dashboard/account/mfa',
    );
    expect((await here.get('/dashboard/account/mfa')).text).toContain('id="mfa-secret"');
    expect((await audit('mfa_disable')).map((a) => a.actor)).toContain('otto.reviewer');
  });

  it('the CLI: reset-mfa, reset-password and disable each end every session of the operator', async () => {
    const output: string[] = [];
    const cli = async (args: string[], env: Record<string, string> = {}) => {
      const run = runCli(db.url, ['operators', ...args], env);
      const code = await run.exited;
      output.push(run.out(), run.err());
      return { code, out: run.out(), err: run.err() };
    };
    // reset-mfa
    let { client } = await enrol('cli.reviewer', '127.0.0.49');
    let bearer = await opsToken('cli.reviewer', '127.0.0.49');
    expect(await alive(client, bearer)).toEqual({ dashboard: true, ops: true });
    const mfa = await cli(['reset-mfa', 'cli.reviewer']);
    expect(mfa.code).toBe(0);
    expect(mfa.out).toContain('Second factor of cli.reviewer removed; their sessions ended.');
    expect(await alive(client, bearer)).toEqual({ dashboard: false, ops: false });
    const [gone] = await db.sql`
      select count(*)::int as n from operator_mfa m join operators o on o.id = m.operator_id where o.login = 'cli.reviewer'`;
    expect(gone!.n).toBe(0);
    expect((await audit('mfa_reset')).map((a) => [a.actor, a.target])).toContainEqual([
      'cli',
      'cli.reviewer',
    ]);

    // reset-password (enrolled anew: a new secret)
    ({ client } = await enrol('cli.reviewer', '127.0.0.49'));
    bearer = await opsToken('cli.reviewer', '127.0.0.49');
    const password = await cli(['reset-password', 'cli.reviewer'], {
      TOLLGATE_OPERATOR_PASSWORD: PASSWORD,
    });
    expect(password.code).toBe(0);
    expect(await alive(client, bearer)).toEqual({ dashboard: false, ops: false });
    expect(
      (await audit('sessions_revoked')).some(
        (a) =>
          a.actor === 'cli' &&
          a.target === 'cli.reviewer' &&
          a.details.reason === 'operator_reset_password',
      ),
    ).toBe(true);

    // disable
    const back = new Client('127.0.0.50');
    await back.login('cli.reviewer');
    const done = await back.submit('/dashboard/login/code', '/dashboard/login/code', {
      code: recoveryOf.get('cli.reviewer')![0]!,
    });
    expect(done.status).toBe(303);
    expect(await stillIn(back)).toBe(true);
    expect((await cli(['disable', 'cli.reviewer'])).code).toBe(0);
    expect(await stillIn(back)).toBe(false);

    expect((await cli(['reset-mfa', 'nobody.here'])).code).toBe(1);
    expect((await cli(['reset-mfa'])).code).toBe(2);
    const list = await cli(['list']);
    expect(list.out).toMatch(/ada\.admin\s+admin\s+\S+\s+on\s+active/);
    expect(list.out).toMatch(/cli\.reviewer\s+reviewer\s+\S+\s+on\s+disabled/);
    for (const secret of [...secrets, PASSWORD]) expect(output.join('')).not.toContain(secret);
  });
});

describe('login limits', () => {
  it("a stranger's wrong guesses do not keep the operator out: they are limited at their own address", async () => {
    const stranger = '127.0.0.51';
    const statuses: number[] = [];
    const before = hashingStats.computed;
    for (let i = 0; i < 8; i++)
      statuses.push((await new Client(stranger).login('rex.reviewer', `wrong guess ${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    expect(hashingStats.computed - before).toBe(5); // the limited ones cost no scrypt
    const limited = await new Client(stranger).login('rex.reviewer');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The operator, at their own address, with their password and a code: in.
    const operator = await logInWithCode(
      'rex.reviewer',
      secretOf.get('rex.reviewer')!,
      '127.0.0.52',
    );
    expect(await stillIn(operator)).toBe(true);
    // The operator API, too.
    const opened = await send('127.0.0.52', 'POST', '/ops/session', {
      ...basic('rex.reviewer'),
      'x-tollgate-otp': await freshCode('rex.reviewer', secretOf.get('rex.reviewer')!),
    });
    expect(opened.status).toBe(201);
  });

  it("a session is no way around them: guesses at the current password on the Account page are limited and audited like a login's", async () => {
    const here = new Client('127.0.0.57');
    expect((await here.login('vic.viewer', NEW_PASSWORD)).headers.location).toBe(
      '/dashboard/travelrule',
    );
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push(
        (
          await here.submit('/dashboard/account', '/dashboard/account/password', {
            current: `guess ${i}`,
            password: 'a new password 12345',
            confirm: 'a new password 12345',
          })
        ).status,
      );
    // 200 wrong guesses in 15 s, all 401 and none audited, before (found by an outside probe).
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const failed = await db.sql<{ details: { step: string; client: string } }[]>`
      select details from audit_log where action = 'login_failed' and actor = 'vic.viewer'
        and details->>'step' = 'current_password' and details->>'client' = '127.0.0.57'`;
    expect(failed).toHaveLength(5);
    // The right one is limited too, until the wait is over; the session stays.
    const right = await here.submit('/dashboard/account', '/dashboard/account/password', {
      current: NEW_PASSWORD,
      password: 'a new password 12345',
      confirm: 'a new password 12345',
    });
    expect(right.status).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect(await stillIn(here)).toBe(true);
  });

  it('answers an unknown login, a wrong password and a disabled operator alike, with one scrypt each', async () => {
    const cases = ['ghost.nobody', 'rex.reviewer', 'cli.reviewer', PASSWORD_AS_LOGIN];
    const pages: string[] = [];
    const apis: string[] = [];
    for (const login of cases) {
      const before = hashingStats.computed;
      const reply = await new Client('127.0.0.53').login(login, 'wrong password 9');
      expect(reply.status, login).toBe(401);
      expect(hashingStats.computed - before, login).toBe(1);
      pages.push(sameShape(reply.text).replace(`value="${login}"`, 'value="…"'));
      const before2 = hashingStats.computed;
      const api = await send('127.0.0.56', 'GET', '/ops/travelrule/pending', basic(login, 'x'));
      expect(api.status, login).toBe(401);
      expect(hashingStats.computed - before2, login).toBe(1);
      apis.push(api.text);
    }
    expect(new Set(pages).size).toBe(1);
    expect(new Set(apis).size).toBe(1);
    expect(pages[0]).toContain('Invalid login or password.');

    // Limited alike too: five failures of a login from an address, known or not.
    const limitedAnswers: string[] = [];
    for (const [login, from] of [
      ['ghost.nobody', '127.0.0.54'],
      ['rex.reviewer', '127.0.0.55'],
    ] as const) {
      for (let i = 0; i < 5; i++)
        expect((await new Client(from).login(login, `wrong ${i}`)).status).toBe(401);
      const before = hashingStats.computed;
      const reply = await new Client(from).login(login, 'wrong again');
      expect(reply.status).toBe(429);
      expect(hashingStats.computed - before).toBe(0);
      limitedAnswers.push(sameShape(reply.text).replace(`value="${login}"`, 'value="…"'));
    }
    expect(limitedAnswers[0]).toBe(limitedAnswers[1]);
    // The operator API's says what else counts (calls side by side) and what to use instead.
    const api = await send(
      '127.0.0.55',
      'GET',
      '/ops/travelrule/pending',
      basic('rex.reviewer', 'x'),
    );
    expect(api.status).toBe(429);
    expect(JSON.parse(api.text).message).toMatch(
      /failed or in progress at once.*POST \/ops\/session/,
    );
  });

  it('keeps scrypt to a bounded queue under a flood from many addresses, while DNS lookups keep completing', async () => {
    resetHashingHighWater();
    const refusedBefore = hashingStats.refused;
    let flooding = true;
    /** For each lookup made while hashes were under way: how many hashes finished while it waited. */
    const waitedThrough: number[] = [];
    const looking = (async () => {
      while (flooding) {
        const pending = hashingStats.computed - hashingStats.finished;
        const finished = hashingStats.finished;
        await lookup('localhost');
        if (pending > 0) waitedThrough.push(hashingStats.finished - finished);
        else await new Promise((r) => setImmediate(r));
      }
    })();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        send(
          `127.0.2.${i + 1}`,
          'GET',
          '/ops/travelrule/pending',
          basic(`flood-${i}`, 'wrong password'),
        ).then((r) => r.status),
      ),
    );
    flooding = false;
    await looking;
    expect(new Set(answers)).toEqual(new Set([401, 503]));
    expect(hashingStats.refused).toBeGreaterThan(refusedBefore);
    expect(hashingStats.maxRunning).toBeLessThanOrEqual(SCRYPT_CONCURRENCY);
    expect(hashingStats.maxWaiting).toBeLessThanOrEqual(SCRYPT_QUEUE_MAX);
    // The thread pool kept threads for other work: a lookup made while hashes were under way did
    // not wait behind them (with every hash on the pool at once, each waited through dozens).
    expect(waitedThrough.length).toBeGreaterThanOrEqual(10);
    expect(Math.max(...waitedThrough)).toBeLessThanOrEqual(SCRYPT_CONCURRENCY + 1);
  });
});

describe('audit and logs', () => {
  it('audits failed logins with the client address, naming the login only when it is an operator', async () => {
    const failed = await audit('login_failed');
    const actors = new Set(failed.map((a) => a.actor));
    expect(actors.has('rex.reviewer')).toBe(true);
    expect(actors.has('(unknown login)')).toBe(true);
    for (const a of actors) expect(a === '(unknown login)' || /^[a-z.]+$/.test(a)).toBe(true);
    expect(
      failed.some(
        (a) =>
          a.actor === '(unknown login)' &&
          a.details.client === '127.0.0.53' &&
          a.details.step === 'password',
      ),
    ).toBe(true);
    expect(failed.some((a) => a.details.step === 'code' && a.actor === 'otto.reviewer')).toBe(true);
    const all = JSON.stringify(await db.sql`select * from audit_log`);
    for (const s of [
      PASSWORD_AS_LOGIN,
      'ghost.nobody',
      'flood-1',
      PASSWORD,
      NEW_PASSWORD,
      ...secrets,
    ])
      expect(all).not.toContain(s);
  });

  it('logs no password, code, secret, recovery code or unknown login on any path', () => {
    expect(logged).toContain('operator login refused');
    expect(logged).toContain('operator second factor refused');
    expect(logged).toContain('operator login limited');
    for (const s of [PASSWORD, NEW_PASSWORD, PASSWORD_AS_LOGIN, 'ghost.nobody', 'flood-1'])
      expect(logged).not.toContain(s);
    for (const s of secrets) {
      if (/^\d{6}$/.test(s))
        expect(logged).not.toMatch(new RegExp(`(?<![0-9A-Za-z])${s}(?![0-9A-Za-z])`));
      else expect(logged).not.toContain(s);
    }
  });
});
