import type { Context } from 'hono';
import { deleteCookie } from 'hono/cookie';
import {
  checkCode,
  checkPassword,
  clientAddress,
  deleteSession,
  deleteSessionByToken,
  MAX_PASSWORD_LENGTH,
  noteCodeFailure,
  operatorPolicy,
  recordLogin,
  type Refusal,
  touchSession,
} from '../../operators/index.js';
import { field, render, type DashboardDeps, type DashContext } from '../context.js';
import { CSRF_FIELD, LOGIN_CSRF_COOKIE, loginCsrfToken, loginCsrfValid } from '../csrf.js';
import { CsrfField, Layout } from '../layout.js';
import {
  clearSessionCookie,
  COOKIE_OPTIONS,
  sessionCookie,
  startSession,
  type Session,
} from '../session.js';

/**
 * The dashboard's login in two steps. The password (POST /dashboard/login) opens a half-open
 * session: stage 'code' when the operator has a second factor (POST /dashboard/login/code takes
 * a TOTP or a recovery code), 'enrol' when their role requires one they have not set up (the
 * enrolment page, /dashboard/account/mfa, is all they reach), else the full session at once.
 * Every refusal of the password step says one of three things whatever the login: invalid,
 * too many attempts from this address, or busy; none says whether the login exists.
 */

export const INVALID_MESSAGE = 'Invalid login or password.';
export const LIMITED_MESSAGE =
  'Too many login attempts from this address. Wait a minute, then try again.';
export const BUSY_MESSAGE = 'Too many logins at once. Try again in a moment.';
const CODE_INVALID = 'That code is not valid (or was used already). Try the next one.';
const CODE_EXHAUSTED = 'Too many wrong codes. Log in again.';

export const HOME = '/dashboard/travelrule';
export const CODE_PAGE = '/dashboard/login/code';
export const ENROL_PAGE = '/dashboard/account/mfa';

/** Where a session of this stage belongs. */
export function stageHome(session: Session): string {
  return session.stage === 'code' ? CODE_PAGE : session.stage === 'enrol' ? ENROL_PAGE : HOME;
}

const LoginPage = ({ csrf, login, error }: { csrf: string; login?: string; error?: string }) => (
  <Layout title="Log in" error={error}>
    <form method="post" action="/dashboard/login" class="stack">
      <input type="hidden" name={CSRF_FIELD} value={csrf} />
      <div>
        <label for="login">Login</label>
        <input
          id="login"
          name="login"
          type="text"
          value={login ?? ''}
          autocomplete="username"
          autofocus
          required
          maxlength={64}
        />
      </div>
      <div>
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
          maxlength={MAX_PASSWORD_LENGTH}
        />
      </div>
      <div>
        <button type="submit">Log in</button>
      </div>
    </form>
  </Layout>
);

const CodePage = ({ session, error }: { session: Session; error?: string }) => (
  <Layout title="Second factor" error={error}>
    <p>
      Logged in as <strong>{session.operator.login}</strong>: enter the 6-digit code your
      authenticator app shows, or one of your recovery codes.
    </p>
    <form method="post" action={CODE_PAGE} class="stack">
      <CsrfField token={session.csrfToken} />
      <div>
        <label for="code">Code</label>
        <input
          id="code"
          name="code"
          type="text"
          inputmode="numeric"
          autocomplete="one-time-code"
          autofocus
          required
          maxlength={20}
        />
      </div>
      <div>
        <button type="submit">Continue</button>
      </div>
    </form>
    <form method="post" action="/dashboard/logout" class="inline">
      <CsrfField token={session.csrfToken} />
      <button type="submit" class="secondary">
        Cancel
      </button>
    </form>
  </Layout>
);

function refusalPage(c: Context, r: Refusal, login: string): Promise<Response> {
  if (r.retryAfterS) c.header('Retry-After', String(r.retryAfterS));
  const [message, status] =
    r.reason === 'limited'
      ? ([LIMITED_MESSAGE, 429] as const)
      : r.reason === 'busy'
        ? ([BUSY_MESSAGE, 503] as const)
        : ([INVALID_MESSAGE, 401] as const);
  return render(
    c,
    <LoginPage csrf={loginCsrfToken(c)} login={login.slice(0, 64)} error={message} />,
    status,
  );
}

/** GET /dashboard/login: the form, or the page a live session belongs on. */
export function showLogin(deps: DashboardDeps) {
  const sql = deps.travelRule.sql;
  return async (c: Context) => {
    const token = sessionCookie(c);
    const session = token ? await touchSession(sql, token, 'dashboard') : undefined;
    if (session) return c.redirect(stageHome(session), 303);
    return render(c, <LoginPage csrf={loginCsrfToken(c)} />);
  };
}

/** POST /dashboard/login (form already read and its CSRF token checked). */
export function submitLogin(deps: DashboardDeps) {
  const sql = deps.travelRule.sql;
  return async (c: Context, form: Record<string, string>) => {
    const policy = operatorPolicy(sql);
    const login = (form.login ?? '').slice(0, 200);
    const client = clientAddress(c, policy);
    const result = await checkPassword(sql, policy, {
      login,
      password: form.password ?? '',
      client,
      via: 'dashboard',
    });
    if (!result.ok) return refusalPage(c, result, login);
    const previous = sessionCookie(c);
    if (previous) await deleteSessionByToken(sql, previous);
    const stage = result.next === 'none' ? 'full' : result.next;
    const session = await startSession(c, sql, result.operator.id, stage);
    deleteCookie(c, LOGIN_CSRF_COOKIE, COOKIE_OPTIONS);
    if (stage === 'full')
      await recordLogin(sql, result.operator, { client, via: 'dashboard', second_factor: 'none' });
    return c.redirect(stageHome(session), 303);
  };
}

/** GET /dashboard/login/code (a session of stage 'code'). */
export function showCode() {
  return (c: DashContext) => render(c, <CodePage session={c.get('session')} />);
}

/** POST /dashboard/login/code: a right code replaces the half-open session with a full one. */
export function submitCode(deps: DashboardDeps) {
  const sql = deps.travelRule.sql;
  return async (c: DashContext) => {
    const session = c.get('session');
    const policy = operatorPolicy(sql);
    const client = clientAddress(c, policy);
    const result = await checkCode(sql, deps.travelRule.keyring, policy, {
      operator: session.operator,
      code: field(c, 'code'),
      client,
      via: 'dashboard',
    });
    if (!result.ok) {
      if (result.reason === 'invalid' && !(await noteCodeFailure(sql, session.tokenHash))) {
        clearSessionCookie(c);
        return render(c, <LoginPage csrf={loginCsrfToken(c)} error={CODE_EXHAUSTED} />, 401);
      }
      if (result.retryAfterS) c.header('Retry-After', String(result.retryAfterS));
      const [message, status] =
        result.reason === 'limited'
          ? ([LIMITED_MESSAGE, 429] as const)
          : ([CODE_INVALID, 401] as const);
      return render(c, <CodePage session={session} error={message} />, status);
    }
    await deleteSession(sql, session.tokenHash);
    await startSession(c, sql, session.operator.id, 'full');
    await recordLogin(sql, session.operator, {
      client,
      via: 'dashboard',
      second_factor: result.kind,
    });
    return c.redirect(result.kind === 'recovery' ? '/dashboard/account?done=recovery' : HOME, 303);
  };
}

/** The login form's CSRF check, shared by POST /dashboard/login. */
export function loginFormValid(c: Context, form: Record<string, string>): boolean {
  return loginCsrfValid(c, form[CSRF_FIELD]);
}
