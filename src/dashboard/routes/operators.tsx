import { Hono } from 'hono';
import { recordAudit } from '../../audit/index.js';
import {
  createOperator,
  disableOperator,
  isOperatorRole,
  listOperators,
  OPERATOR_ROLES,
  mfaRequired,
  OperatorInputError,
  operatorPolicy,
  removeMfa,
  resetOperatorPassword,
} from '../../operators/index.js';
import {
  errorPage,
  field,
  render,
  requireRole,
  type DashboardDeps,
  type DashContext,
  type DashEnv,
} from '../context.js';
import { CsrfField, Layout, Time } from '../layout.js';

/**
 * /dashboard/operators (admins): the operator accounts and whether each has a second factor;
 * create one (its generated password is shown once, on the answer to the POST, and stored only
 * as a hash), reset a password, reset a second factor (the operator enrols anew at their next
 * login), disable an account. Each of these ends every session of the operator at once. An admin
 * changes their own password and second factor on their Account page, not here, and cannot
 * disable their own account.
 */

const DONE: Record<string, string> = {
  disabled: 'Operator disabled; their sessions have ended.',
  'mfa-reset':
    'Second factor reset; their sessions have ended. They set up a new one at their next login.',
};

export function operatorRoutes(deps: DashboardDeps): Hono<DashEnv> {
  const sql = deps.travelRule.sql;
  const ops = new Hono<DashEnv>();
  ops.use('*', requireRole('admin'));

  const page = async (
    c: DashContext,
    extra: {
      error?: string;
      secret?: { login: string; password: string; created: boolean };
      values?: { login?: string; role?: string };
    } = {},
    status: 200 | 400 | 404 = 200,
  ) => {
    const session = c.get('session');
    const rows = await listOperators(sql);
    const policy = operatorPolicy(sql);
    return render(
      c,
      <Layout
        title="Operators"
        session={session}
        current="/dashboard/operators"
        flash={DONE[c.req.query('done') ?? '']}
        error={extra.error}
      >
        {extra.secret ? (
          <div class="secret" role="status">
            <p>
              {extra.secret.created
                ? `Operator ${extra.secret.login} created.`
                : `New password for ${extra.secret.login}.`}{' '}
              Hand the password over now: it is not shown again.
            </p>
            <p>
              Password: <code id="new-password">{extra.secret.password}</code>
            </p>
          </div>
        ) : null}
        <table id="operators">
          <caption>{`${rows.length} operators`}</caption>
          <thead>
            <tr>
              <th scope="col">Login</th>
              <th scope="col">Role</th>
              <th scope="col">State</th>
              <th scope="col">Second factor</th>
              <th scope="col">Created</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((o) => (
              <tr data-login={o.login}>
                <td>{o.login}</td>
                <td>{o.role}</td>
                <td>
                  {o.disabled_at ? (
                    <>
                      disabled <Time at={o.disabled_at} />
                    </>
                  ) : (
                    'active'
                  )}
                </td>
                <td>
                  {o.mfa
                    ? 'on'
                    : mfaRequired(policy, o.role)
                      ? 'off (required: set up at next login)'
                      : 'off'}
                </td>
                <td>
                  <Time at={o.created_at} />
                </td>
                <td>
                  {!o.disabled_at && o.login !== session.operator.login ? (
                    <>
                      <form
                        method="post"
                        action={`/dashboard/operators/${encodeURIComponent(o.login)}/reset-password`}
                        class="inline"
                      >
                        <CsrfField token={session.csrfToken} />
                        <button
                          type="submit"
                          class="secondary"
                          aria-label={`Reset the password of ${o.login}`}
                        >
                          Reset password
                        </button>
                      </form>{' '}
                      {o.mfa ? (
                        <>
                          <form
                            method="post"
                            action={`/dashboard/operators/${encodeURIComponent(o.login)}/reset-mfa`}
                            class="inline"
                          >
                            <CsrfField token={session.csrfToken} />
                            <button
                              type="submit"
                              class="secondary"
                              aria-label={`Reset the second factor of ${o.login}`}
                            >
                              Reset second factor
                            </button>
                          </form>{' '}
                        </>
                      ) : null}
                      <form
                        method="post"
                        action={`/dashboard/operators/${encodeURIComponent(o.login)}/disable`}
                        class="inline"
                      >
                        <CsrfField token={session.csrfToken} />
                        <button type="submit" class="danger" aria-label={`Disable ${o.login}`}>
                          Disable
                        </button>
                      </form>
                    </>
                  ) : o.login === session.operator.login ? (
                    <a href="/dashboard/account">Your account</a>
                  ) : (
                    <span class="muted">—</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <h2 id="h-create">Create an operator</h2>
        <form
          id="operator-form"
          method="post"
          action="/dashboard/operators"
          class="stack"
          aria-labelledby="h-create"
        >
          <CsrfField token={session.csrfToken} />
          <div>
            <label for="op-login">Login (required)</label>
            <input
              id="op-login"
              name="login"
              type="text"
              value={extra.values?.login ?? ''}
              maxlength={64}
              autocomplete="off"
              aria-describedby="op-login-hint"
            />
            <span id="op-login-hint" class="muted">
              {' '}
              3 to 64 characters of a-z, 0-9 and . _ @ -
            </span>
          </div>
          <div>
            <label for="op-role">Role</label>
            <select id="op-role" name="role">
              {OPERATOR_ROLES.map((r) => (
                <option value={r} selected={(extra.values?.role ?? 'viewer') === r}>
                  {r}
                </option>
              ))}
            </select>
          </div>
          <p class="muted">A password is generated and shown once.</p>
          <div>
            <button type="submit">Create operator</button>
          </div>
        </form>
      </Layout>,
      status,
    );
  };

  ops.get('/', (c) => page(c));

  ops.post('/', async (c) => {
    const login = field(c, 'login');
    const role = field(c, 'role');
    if (!isOperatorRole(role))
      return page(
        c,
        { error: `Role: must be one of ${OPERATOR_ROLES.join(', ')}.`, values: { login, role } },
        400,
      );
    try {
      const created = await createOperator(sql, login, role);
      await recordAudit(sql, {
        actor: c.get('session').operator.login,
        action: 'operator_create',
        target: created.login,
        details: { role },
      });
      return page(c, {
        secret: { login: created.login, password: created.password, created: true },
      });
    } catch (err) {
      if (err instanceof OperatorInputError)
        return page(c, { error: err.message, values: { login, role } }, 400);
      throw err;
    }
  });

  /** An admin's own credentials change on their Account page, which asks for the current ones. */
  const notOwn = (c: DashContext, login: string) =>
    login.trim().toLowerCase() === c.get('session').operator.login
      ? page(c, { error: 'Change your own password and second factor on your Account page.' }, 400)
      : undefined;

  ops.post('/:login/reset-password', async (c) => {
    const login = c.req.param('login');
    const own = notOwn(c, login);
    if (own) return own;
    const password = await resetOperatorPassword(sql, login, {
      actor: c.get('session').operator.login,
    });
    if (password === undefined)
      return errorPage(c, 404, 'Not found', 'There is no operator with this login.');
    return page(c, { secret: { login: login.toLowerCase(), password, created: false } });
  });

  ops.post('/:login/reset-mfa', async (c) => {
    const login = c.req.param('login');
    const own = notOwn(c, login);
    if (own) return own;
    const done = await removeMfa(sql, login, {
      actor: c.get('session').operator.login,
      action: 'mfa_reset',
    });
    if (!done) return errorPage(c, 404, 'Not found', 'There is no operator with this login.');
    return c.redirect('/dashboard/operators?done=mfa-reset', 303);
  });

  ops.post('/:login/disable', async (c) => {
    const login = c.req.param('login');
    if (login.trim().toLowerCase() === c.get('session').operator.login)
      return page(c, { error: 'You cannot disable your own account.' }, 400);
    if (!(await disableOperator(sql, login, { actor: c.get('session').operator.login })))
      return errorPage(c, 404, 'Not found', 'There is no active operator with this login.');
    return c.redirect('/dashboard/operators?done=disabled', 303);
  });

  return ops;
}
