import { Hono } from 'hono';
import { AUDIT_ACTIONS, listAudit } from '../../audit/index.js';
import {
  PAGE_SIZE,
  pageParam,
  queryString,
  render,
  type DashboardDeps,
  type DashEnv,
} from '../context.js';
import { Layout, Pager, Time } from '../layout.js';

/** /dashboard/audit: the audit log, newest first, filtered by actor and action. Every role reads it. */

export function auditRoutes(deps: DashboardDeps): Hono<DashEnv> {
  const sql = deps.travelRule.sql;
  const audit = new Hono<DashEnv>();

  audit.get('/', async (c) => {
    const actor = (c.req.query('actor') ?? '').trim().slice(0, 64);
    const rawAction = c.req.query('action') ?? '';
    const action = (AUDIT_ACTIONS as readonly string[]).includes(rawAction) ? rawAction : '';
    const page = pageParam(c.req.query('page'));
    const { rows, total } = await listAudit(sql, {
      page,
      limit: PAGE_SIZE,
      actor: actor || undefined,
      action: action || undefined,
    });
    const href = (p: number) =>
      `/dashboard/audit${queryString({ actor: actor || undefined, action: action || undefined, page: p })}`;
    return render(
      c,
      <Layout
        title="Audit log"
        session={c.get('session')}
        current="/dashboard/audit"
        error={
          rawAction !== '' && action === ''
            ? 'Action: not a known action; showing all actions.'
            : undefined
        }
      >
        <form
          method="get"
          action="/dashboard/audit"
          class="filters"
          role="search"
          aria-label="Filter the audit log"
        >
          <div>
            <label for="a-actor">Actor (login)</label>
            <input id="a-actor" name="actor" type="search" value={actor} maxlength={64} />
          </div>
          <div>
            <label for="a-action">Action</label>
            <select id="a-action" name="action">
              <option value="" selected={action === ''}>
                All actions
              </option>
              {AUDIT_ACTIONS.map((a) => (
                <option value={a} selected={action === a}>
                  {a}
                </option>
              ))}
            </select>
          </div>
          <input type="hidden" name="page" value="1" />
          <div>
            <button type="submit">Filter</button>
          </div>
        </form>
        <table id="audit">
          <caption>{`Newest first · ${total} entries`}</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Actor</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr data-id={r.id}>
                <td>
                  <Time at={r.at} />
                </td>
                <td>{r.actor}</td>
                <td>{r.action}</td>
                <td>
                  {r.target ? (
                    /^[0-9a-f-]{36}$/.test(r.target) && r.action.startsWith('travelrule_') ? (
                      <a href={`/dashboard/travelrule/${r.target}`}>
                        <code>{r.target}</code>
                      </a>
                    ) : (
                      <code>{r.target}</code>
                    )
                  ) : (
                    <span class="muted">—</span>
                  )}
                </td>
                <td>
                  {Object.keys(r.details).length ? (
                    <code>{JSON.stringify(r.details)}</code>
                  ) : (
                    <span class="muted">—</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length === 0 ? <p>No entry matches.</p> : null}
        <Pager page={page} total={total} limit={PAGE_SIZE} href={href} />
      </Layout>,
    );
  });

  return audit;
}
