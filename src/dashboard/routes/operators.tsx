import { Hono } from 'hono';
import { recordAudit } from '../../audit/index.js';
import {
  createOperator,
  disableOperator,
  isOperatorRole,
  listOperators,
  OPERATOR_ROLES,
  OperatorInputError,
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
import { deleteOperatorSessions } from '../session.js';

/**
 * /dashboard/operators (admins): the operator accounts; create one (its generated password is
 * shown once, on the answer to the POST, and stored only as a hash), reset a password, disable
 * an account (its sessions end at once). An admin cannot disable their own account.
 */

const DONE: Record<string, string> = { disabled: 'Operator disabled; their sessions have ended.' };

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
                  ) : o.locked_until ? (
                    <>
                      locked until <Time at={o.locked_until} />
                    </>
                  ) : (
                    'active'
                  )}
                </td>
                <td>
                  <Time at={o.created_at} />
                </td>
                <td>
                  {!o.disabled_at ? (
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
                      {o.login !== session.operator.login ? (
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
                      ) : null}
                    </>
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

  ops.post('/:login/reset-password', async (c) => {
    const login = c.req.param('login');
    const password = await resetOperatorPassword(sql, login);
    if (password === undefined)
      return errorPage(c, 404, 'Not found', 'There is no operator with this login.');
    await deleteOperatorSessions(sql, login, c.get('session').tokenHash);
    await recordAudit(sql, {
      actor: c.get('session').operator.login,
      action: 'operator_reset_password',
      target: login,
    });
    return page(c, { secret: { login, password, created: false } });
  });

  ops.post('/:login/disable', async (c) => {
    const login = c.req.param('login');
    if (login === c.get('session').operator.login)
      return page(c, { error: 'You cannot disable your own account.' }, 400);
    if (!(await disableOperator(sql, login)))
      return errorPage(c, 404, 'Not found', 'There is no active operator with this login.');
    await deleteOperatorSessions(sql, login);
    await recordAudit(sql, {
      actor: c.get('session').operator.login,
      action: 'operator_disable',
      target: login,
    });
    return c.redirect('/dashboard/operators?done=disabled', 303);
  });

  return ops;
}
