import { Hono } from 'hono';
import {
  beginEnrolment,
  checkNewPassword,
  checkPassword,
  checkCode,
  clientAddress,
  confirmEnrolment,
  MAX_PASSWORD_LENGTH,
  mfaRequired,
  mfaState,
  OperatorInputError,
  operatorPolicy,
  recordLogin,
  removeMfa,
  renewRecoveryCodes,
  setOwnPassword,
} from '../../operators/index.js';
import { field, render, type DashboardDeps, type DashContext, type DashEnv } from '../context.js';
import { CsrfField, Layout } from '../layout.js';
import { startSession, type Session } from '../session.js';
import { BUSY_MESSAGE, ENROL_PAGE, LIMITED_MESSAGE } from './login.js';

/**
 * /dashboard/account: the operator's own credentials, for every role. Change the password
 * (giving the current one); enrol a TOTP second factor (QR code and the secret in text, confirmed
 * by a first code; ten recovery codes shown once); with a code, new recovery codes or remove the
 * second factor. Each change ends every session of the operator and opens a new one for this
 * browser. An operator whose role requires a second factor and who has none reaches only the
 * enrolment page (a half-open session, see login.tsx).
 */

const DONE: Record<string, string> = {
  password: 'Password changed; your other sessions have ended.',
  disabled: 'Second factor removed; your other sessions have ended.',
  recovery:
    'You logged in with a recovery code, which is now used up. Make new codes below if you are running low.',
};

const WRONG_CODE = 'That code is not valid (or was used already).';

const RecoveryCodes = ({ codes }: { codes: string[] }) => (
  <div class="secret" role="status">
    <p>
      Recovery codes: each works once, in place of a code from the app. Store them now somewhere
      safe: they are not shown again.
    </p>
    <ul id="recovery-codes">
      {codes.map((code) => (
        <li>
          <code>{code}</code>
        </li>
      ))}
    </ul>
    <p>
      <a href="/dashboard/travelrule">Continue to the dashboard</a>
    </p>
  </div>
);

const CodeField = ({ id }: { id: string }) => (
  <div>
    <label for={id}>Code from your authenticator (or a recovery code)</label>
    <input
      id={id}
      name="code"
      type="text"
      inputmode="numeric"
      autocomplete="one-time-code"
      required
      maxlength={20}
    />
  </div>
);

export function accountRoutes(deps: DashboardDeps): Hono<DashEnv> {
  const sql = deps.travelRule.sql;
  const keyring = deps.travelRule.keyring;
  const account = new Hono<DashEnv>();

  const overview = async (
    c: DashContext,
    extra: { error?: string; session?: Session } = {},
    status: 200 | 400 | 401 | 429 | 503 = 200,
  ) => {
    const session = extra.session ?? c.get('session');
    const state = await mfaState(sql, session.operator.id);
    return render(
      c,
      <Layout
        title="Account"
        session={session}
        current="/dashboard/account"
        flash={DONE[c.req.query('done') ?? '']}
        error={extra.error}
      >
        <h2 id="h-mfa">Second factor</h2>
        <p id="mfa-state">
          {state.enrolled ? `On (TOTP). Recovery codes left: ${state.recoveryCodesLeft}.` : 'Off.'}{' '}
          <a href={ENROL_PAGE}>{state.enrolled ? 'Manage' : 'Set up'} the second factor</a>
        </p>
        <h2 id="h-password">Change your password</h2>
        <form
          method="post"
          action="/dashboard/account/password"
          class="stack"
          aria-labelledby="h-password"
        >
          <CsrfField token={session.csrfToken} />
          <div>
            <label for="current">Current password</label>
            <input
              id="current"
              name="current"
              type="password"
              autocomplete="current-password"
              required
              maxlength={MAX_PASSWORD_LENGTH}
            />
          </div>
          <div>
            <label for="new-password">New password (12 characters or more)</label>
            <input
              id="new-password"
              name="password"
              type="password"
              autocomplete="new-password"
              required
              minlength={12}
              maxlength={MAX_PASSWORD_LENGTH}
            />
          </div>
          <div>
            <label for="confirm">New password again</label>
            <input
              id="confirm"
              name="confirm"
              type="password"
              autocomplete="new-password"
              required
              maxlength={MAX_PASSWORD_LENGTH}
            />
          </div>
          <div>
            <button type="submit">Change password</button>
          </div>
        </form>
      </Layout>,
      status,
    );
  };

  /** The second factor's page: enrolment when there is none, else new recovery codes and removal. */
  const mfaPage = async (
    c: DashContext,
    extra: { error?: string } = {},
    status: 200 | 400 | 401 | 429 = 200,
  ) => {
    const session = c.get('session');
    const policy = operatorPolicy(sql);
    const required = mfaRequired(policy, session.operator.role);
    const halfOpen = session.stage === 'enrol';
    const enrolment = await beginEnrolment(sql, keyring, session.operator);
    const flash = DONE[c.req.query('done') ?? ''];
    return render(
      c,
      <Layout
        title="Second factor"
        session={session}
        nav={!halfOpen}
        current="/dashboard/account"
        flash={flash}
        error={extra.error}
      >
        {enrolment ? (
          <>
            {halfOpen ? (
              <p class="status" role="status">
                Your role ({session.operator.role}) requires a second factor: set it up to continue.
              </p>
            ) : null}
            <ol>
              <li>
                Scan this QR code with an authenticator app (any TOTP app: FreeOTP, Aegis, Google
                Authenticator, 1Password…), or type the key below into it.
              </li>
              <li>Enter the 6-digit code the app shows.</li>
            </ol>
            <p>
              <img
                id="mfa-qr"
                src={enrolment.qr}
                alt="QR code of the authenticator key"
                width={220}
                height={220}
              />
            </p>
            <p>
              Key: <code id="mfa-secret">{enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
            </p>
            <form method="post" action={`${ENROL_PAGE}/confirm`} class="stack">
              <CsrfField token={session.csrfToken} />
              <div>
                <label for="enrol-code">Code from the app</label>
                <input
                  id="enrol-code"
                  name="code"
                  type="text"
                  inputmode="numeric"
                  autocomplete="one-time-code"
                  required
                  maxlength={10}
                />
              </div>
              <div>
                <button type="submit">Turn on the second factor</button>
              </div>
            </form>
          </>
        ) : (
          <>
            <p id="mfa-state">The second factor is on (TOTP).</p>
            <h2 id="h-renew">New recovery codes</h2>
            <form
              method="post"
              action={`${ENROL_PAGE}/recovery-codes`}
              class="stack"
              aria-labelledby="h-renew"
            >
              <CsrfField token={session.csrfToken} />
              <CodeField id="renew-code" />
              <div>
                <button type="submit" class="secondary">
                  Make new recovery codes
                </button>
              </div>
            </form>
            <h2 id="h-remove">Remove the second factor</h2>
            <p class="muted">
              {required
                ? 'Your role requires a second factor: after removing it you set up a new one (another phone, say) before anything else.'
                : 'Logins then ask for the password alone.'}
            </p>
            <form
              method="post"
              action={`${ENROL_PAGE}/disable`}
              class="stack"
              aria-labelledby="h-remove"
            >
              <CsrfField token={session.csrfToken} />
              <CodeField id="remove-code" />
              <div>
                <button type="submit" class="danger">
                  Remove the second factor
                </button>
              </div>
            </form>
          </>
        )}
      </Layout>,
      status,
    );
  };

  const codesPage = (c: DashContext, session: Session, title: string, codes: string[]) =>
    render(
      c,
      <Layout title={title} session={session} current="/dashboard/account">
        <RecoveryCodes codes={codes} />
      </Layout>,
    );

  /** A code of the operator's own, within the login limits. */
  const ownCode = async (c: DashContext) => {
    const policy = operatorPolicy(sql);
    return checkCode(sql, keyring, policy, {
      operator: c.get('session').operator,
      code: field(c, 'code'),
      client: clientAddress(c, policy),
      via: 'dashboard',
    });
  };

  account.get('/', (c) => overview(c));

  account.post('/password', async (c) => {
    const session = c.get('session');
    if (field(c, 'password') !== field(c, 'confirm'))
      return overview(c, { error: 'The two new passwords differ.' }, 400);
    try {
      checkNewPassword(field(c, 'password'));
    } catch (err) {
      if (err instanceof OperatorInputError) return overview(c, { error: err.message }, 400);
      throw err;
    }
    // The current password is checked as a login's is: within the same limits per client
    // address, and a wrong one audited (login_failed). A session alone (a browser left open)
    // must not be a way to guess it at full speed.
    const policy = operatorPolicy(sql);
    const checked = await checkPassword(sql, policy, {
      login: session.operator.login,
      password: field(c, 'current'),
      client: clientAddress(c, policy),
      via: 'dashboard',
      step: 'current_password',
    });
    if (!checked.ok) {
      if (checked.retryAfterS !== undefined) c.header('retry-after', String(checked.retryAfterS));
      return checked.reason === 'limited'
        ? overview(c, { error: LIMITED_MESSAGE }, 429)
        : checked.reason === 'busy'
          ? overview(c, { error: BUSY_MESSAGE }, 503)
          : overview(c, { error: 'The current password is not right.' }, 401);
    }
    await setOwnPassword(sql, session.operator, field(c, 'password'));
    await startSession(c, sql, session.operator.id, 'full');
    return c.redirect('/dashboard/account?done=password', 303);
  });

  account.get('/mfa', (c) => mfaPage(c));

  account.post('/mfa/confirm', async (c) => {
    const session = c.get('session');
    const codes = await confirmEnrolment(sql, keyring, session.operator, field(c, 'code'));
    if (!codes) return mfaPage(c, { error: WRONG_CODE }, 400);
    const fresh = await startSession(c, sql, session.operator.id, 'full');
    if (session.stage === 'enrol')
      await recordLogin(sql, session.operator, {
        client: clientAddress(c, operatorPolicy(sql)),
        via: 'dashboard',
        second_factor: 'totp',
      });
    return codesPage(c, fresh, 'Second factor on', codes);
  });

  account.post('/mfa/recovery-codes', async (c) => {
    const session = c.get('session');
    const checked = await ownCode(c);
    if (!checked.ok)
      return mfaPage(
        c,
        { error: checked.reason === 'limited' ? LIMITED_MESSAGE : WRONG_CODE },
        checked.reason === 'limited' ? 429 : 401,
      );
    const codes = await renewRecoveryCodes(sql, session.operator);
    if (!codes) return mfaPage(c, { error: 'The second factor is off.' }, 400);
    const fresh = await startSession(c, sql, session.operator.id, 'full');
    return codesPage(c, fresh, 'New recovery codes', codes);
  });

  account.post('/mfa/disable', async (c) => {
    const session = c.get('session');
    const checked = await ownCode(c);
    if (!checked.ok)
      return mfaPage(
        c,
        { error: checked.reason === 'limited' ? LIMITED_MESSAGE : WRONG_CODE },
        checked.reason === 'limited' ? 429 : 401,
      );
    await removeMfa(sql, session.operator.login, {
      actor: session.operator.login,
      action: 'mfa_disable',
    });
    const required = mfaRequired(operatorPolicy(sql), session.operator.role);
    await startSession(c, sql, session.operator.id, required ? 'enrol' : 'full');
    return c.redirect(`${ENROL_PAGE}?done=disabled`, 303);
  });

  return account;
}
