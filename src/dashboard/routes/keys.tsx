import { Hono } from 'hono';
import { recordAudit } from '../../audit/index.js';
import {
  createApiKey,
  keyNameProblem,
  listApiKeys,
  MAX_KEY_NAME_CHARS,
  revokeApiKey,
} from '../../keys/index.js';
import {
  field,
  render,
  requireRole,
  type DashboardDeps,
  type DashContext,
  type DashEnv,
} from '../context.js';
import { CsrfField, Layout, Time } from '../layout.js';

/**
 * /dashboard/keys (admins): the API keys (never the keys themselves: only a hash is stored);
 * create one (the key and its webhook secret are shown once, on the answer to the POST), revoke one.
 */

const DONE: Record<string, string> = { revoked: 'API key revoked.' };

export function keyRoutes(deps: DashboardDeps): Hono<DashEnv> {
  const sql = deps.travelRule.sql;
  const keys = new Hono<DashEnv>();
  keys.use('*', requireRole('admin'));

  const page = async (
    c: DashContext,
    extra: {
      error?: string;
      created?: { name: string; apikey: string; webhook_secret: string };
      name?: string;
    } = {},
    status: 200 | 400 = 200,
  ) => {
    const session = c.get('session');
    const rows = await listApiKeys(sql);
    return render(
      c,
      <Layout
        title="API keys"
        session={session}
        current="/dashboard/keys"
        flash={DONE[c.req.query('done') ?? '']}
        error={extra.error}
      >
        {extra.created ? (
          <div class="secret" role="status">
            <p>
              {`API key ${extra.created.name} created.`} Copy both values now: they are not shown
              again.
            </p>
            <dl>
              <dt>API key</dt>
              <dd>
                <code id="new-apikey">{extra.created.apikey}</code>
              </dd>
              <dt>Webhook secret</dt>
              <dd>
                <code id="new-webhook-secret">{extra.created.webhook_secret}</code>
              </dd>
            </dl>
          </div>
        ) : null}
        <table id="keys">
          <caption>{`${rows.length} keys`}</caption>
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              <th scope="col">Created</th>
              <th scope="col">State</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((k) => (
              <tr data-id={String(k.id)}>
                <td class="num">{String(k.id)}</td>
                <td>{k.name}</td>
                <td>
                  <code>{k.key_prefix}</code>
                </td>
                <td>
                  <Time at={k.created_at} />
                </td>
                <td>
                  {k.revoked_at ? (
                    <>
                      revoked <Time at={k.revoked_at} />
                    </>
                  ) : (
                    'active'
                  )}
                </td>
                <td>
                  {!k.revoked_at ? (
                    <form method="post" action={`/dashboard/keys/${k.id}/revoke`} class="inline">
                      <CsrfField token={session.csrfToken} />
                      <button
                        type="submit"
                        class="danger"
                        aria-label={`Revoke key ${k.name} (${k.key_prefix})`}
                      >
                        Revoke
                      </button>
                    </form>
                  ) : (
                    <span class="muted">—</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <h2 id="h-create">Create an API key</h2>
        <form
          id="key-form"
          method="post"
          action="/dashboard/keys"
          class="stack"
          aria-labelledby="h-create"
        >
          <CsrfField token={session.csrfToken} />
          <div>
            <label for="key-name">Name (required)</label>
            <input
              id="key-name"
              name="name"
              type="text"
              value={extra.name ?? ''}
              maxlength={MAX_KEY_NAME_CHARS}
              autocomplete="off"
            />
          </div>
          <div>
            <button type="submit">Create API key</button>
          </div>
        </form>
      </Layout>,
      status,
    );
  };

  keys.get('/', (c) => page(c));

  keys.post('/', async (c) => {
    const name = field(c, 'name').trim();
    const problem = keyNameProblem(name);
    if (problem)
      return page(c, { error: `Name: ${problem}.`, name: name.slice(0, MAX_KEY_NAME_CHARS) }, 400);
    const created = await createApiKey(sql, name);
    await recordAudit(sql, {
      actor: c.get('session').operator.login,
      action: 'apikey_create',
      target: String(created.id),
      details: { name },
    });
    return page(c, {
      created: { name, apikey: created.apikey, webhook_secret: created.webhook_secret },
    });
  });

  keys.post('/:id/revoke', async (c) => {
    const id = c.req.param('id');
    if (!/^\d{1,18}$/.test(id)) return page(c, { error: 'No such key.' }, 400);
    const revoked = await revokeApiKey(sql, id);
    if (revoked === 0) return page(c, { error: 'No active key with this id.' }, 400);
    deps.apiKeys?.clear();
    await recordAudit(sql, {
      actor: c.get('session').operator.login,
      action: 'apikey_revoke',
      target: id,
    });
    return c.redirect('/dashboard/keys?done=revoked', 303);
  });

  return keys;
}
