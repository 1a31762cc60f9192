import { Hono } from 'hono';
import { withVisibleControls as v } from '../../travelrule/index.js';
import { storableDay } from '../../dates.js';
import {
  AUDIT_ACTIONS,
  auditChainHead,
  auditCsv,
  exportAudit,
  listAudit,
  recordAudit,
  verifyAuditChain,
  type AuditEntry,
  type AuditFilter,
  type ChainReport,
} from '../../audit/index.js';
import { roleAllows } from '../../operators/index.js';
import {
  csvDownload,
  errorPage,
  PAGE_SIZE,
  pageParam,
  queryString,
  render,
  type DashboardDeps,
  type DashContext,
  type DashEnv,
} from '../context.js';
import { Layout, Pager, Time } from '../layout.js';

/**
 * /dashboard/audit: the audit log, newest first, filtered by actor, action, date range and target
 * (or a travel rule transaction's reference); a travel rule entry shows the transaction's
 * reference and a rejection its reason. Every role reads it; /dashboard/audit/export downloads
 * the filtered entries as CSV (itself audited: the log names who read what). Admins also see
 * the chain's newest entry, and with `verify=1` whether the whole chain verifies.
 */

interface FilterForm {
  actor: string;
  action: string;
  rawAction: string;
  from: string;
  to: string;
  target: string;
}

/**
 * The filters as given, and what is wrong with them (`error`: a day that is no date, an unknown
 * action). A page shows every entry then, saying why (400); an export exports nothing.
 */
function readFilter(c: DashContext): {
  form: FilterForm;
  filter: AuditFilter;
  error: string | undefined;
} {
  const actor = (c.req.query('actor') ?? '').trim().slice(0, 64);
  const rawAction = c.req.query('action') ?? '';
  const action = (AUDIT_ACTIONS as readonly string[]).includes(rawAction) ? rawAction : '';
  const problems: string[] = [];
  if (rawAction !== '' && action === '') problems.push('Action: not a known action.');
  const date = (name: 'from' | 'to', label: string) => {
    const v = c.req.query(name) ?? '';
    if (v === '' || storableDay(v)) return v;
    problems.push(`${label}: must be a date (YYYY-MM-DD).`);
    return '';
  };
  const from = date('from', 'From');
  const to = date('to', 'To');
  const target = (c.req.query('target') ?? '').trim().slice(0, 200);
  const error = problems.length ? `${problems.join(' ')} Showing every entry.` : undefined;
  if (error)
    return { form: { actor, action: '', rawAction, from: '', to: '', target }, filter: {}, error };
  return {
    error,
    form: { actor, action, rawAction, from, to, target },
    filter: {
      actor: actor || undefined,
      action: action || undefined,
      // Dates are UTC days; `to` includes its whole day.
      from: from ? new Date(`${from}T00:00:00Z`) : undefined,
      before: to ? new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000) : undefined,
      target: target || undefined,
    },
  };
}

function filterQuery(f: FilterForm, extra: Record<string, number | undefined> = {}): string {
  return queryString({
    actor: f.actor || undefined,
    action: f.action || undefined,
    from: f.from || undefined,
    to: f.to || undefined,
    target: f.target || undefined,
    ...extra,
  });
}

function TargetCell({ r }: { r: AuditEntry }) {
  if (!r.target) return <span class="muted">—</span>;
  if (r.transaction_ref !== null)
    return (
      <a href={`/dashboard/travelrule/${r.target}`} title={r.target}>
        <bdi>{v(r.transaction_ref)}</bdi>
      </a>
    );
  return <code>{r.target}</code>;
}

/** The chain's newest entry; verified (a read of the whole log) when the admin asks. */
function ChainStatus({
  head,
  report,
  verifyHref,
}: {
  head: ChainReport['head'];
  report: ChainReport | undefined;
  verifyHref: string;
}) {
  return (
    <section id="audit-chain" aria-labelledby="audit-chain-h">
      <h2 id="audit-chain-h">Hash chain</h2>
      <p>
        {'Newest entry: '}
        {head ? <code>{`#${head.id} ${head.hash}`}</code> : '(none)'}
        {
          '. Keep it elsewhere: a later deletion of the newest entries leaves a shorter chain that is still whole.'
        }
      </p>
      {report ? (
        <p id="audit-verify">
          {report.intact ? (
            <strong class="ok">Intact</strong>
          ) : (
            <strong class="error">Broken</strong>
          )}
          {` · ${report.entries} entries checked`}
        </p>
      ) : (
        <p>
          <a id="audit-verify-link" href={verifyHref}>
            Verify the chain
          </a>
          {' (reads the whole log)'}
        </p>
      )}
      {report?.problems.length ? (
        <ul>
          {report.problems.map((p) => (
            <li>{`Entry #${p.id}: ${p.problem}`}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export function auditRoutes(deps: DashboardDeps): Hono<DashEnv> {
  const sql = deps.travelRule.sql;
  const audit = new Hono<DashEnv>();

  audit.get('/export', async (c) => {
    const { form, filter, error } = readFilter(c);
    if (error)
      return errorPage(c, 400, 'Nothing exported', error.replace(' Showing every entry.', ''));
    const rows = await exportAudit(sql, filter);
    await recordAudit(sql, {
      actor: c.get('session').operator.login,
      action: 'audit_export',
      details: {
        entries: rows.length,
        actor: form.actor || null,
        action: form.action || null,
        from: form.from || null,
        to: form.to || null,
        target: form.target || null,
      },
    });
    return csvDownload(c, 'audit', auditCsv(rows));
  });

  audit.get('/', async (c) => {
    const { form, filter, error } = readFilter(c);
    const page = pageParam(c.req.query('page'));
    const session = c.get('session');
    const admin = roleAllows(session.operator.role, 'admin');
    const verify = admin && c.req.query('verify') === '1';
    const [{ rows, total }, head, report] = await Promise.all([
      listAudit(sql, { ...filter, page, limit: PAGE_SIZE }),
      admin ? auditChainHead(sql) : undefined,
      verify ? verifyAuditChain(sql) : undefined,
    ]);
    const href = (p: number) => `/dashboard/audit${filterQuery(form, { page: p })}`;
    return render(
      c,
      <Layout title="Audit log" session={session} current="/dashboard/audit" error={error}>
        <form
          method="get"
          action="/dashboard/audit"
          class="filters"
          role="search"
          aria-label="Filter the audit log"
        >
          <div>
            <label for="a-actor">Actor (login)</label>
            <input id="a-actor" name="actor" type="search" value={form.actor} maxlength={64} />
          </div>
          <div>
            <label for="a-action">Action</label>
            <select id="a-action" name="action">
              <option value="" selected={form.action === ''}>
                All actions
              </option>
              {AUDIT_ACTIONS.map((a) => (
                <option value={a} selected={form.action === a}>
                  {a}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label for="a-from">From (UTC day)</label>
            <input id="a-from" name="from" type="date" value={form.from} />
          </div>
          <div>
            <label for="a-to">To (UTC day, included)</label>
            <input id="a-to" name="to" type="date" value={form.to} />
          </div>
          <div>
            <label for="a-target">Target or transaction reference</label>
            <input id="a-target" name="target" type="search" value={form.target} maxlength={200} />
          </div>
          <input type="hidden" name="page" value="1" />
          <div>
            <button type="submit">Filter</button>
          </div>
        </form>
        <p>
          <a id="audit-export" href={`/dashboard/audit/export${filterQuery(form)}`} download>
            Export these entries (CSV)
          </a>
        </p>
        <table id="audit">
          <caption>{`Newest first · ${total} entries`}</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Actor</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">Reason</th>
              <th scope="col">Client address</th>
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
                <td class="target">
                  <TargetCell r={r} />
                </td>
                <td class="reason">{r.reason ?? <span class="muted">—</span>}</td>
                <td class="client">
                  {r.client_address ? (
                    <code>{r.client_address}</code>
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
        {admin ? (
          <ChainStatus
            head={head ?? null}
            report={report}
            verifyHref={`/dashboard/audit${filterQuery(form, { page, verify: 1 })}`}
          />
        ) : null}
      </Layout>,
      error ? 400 : 200,
    );
  });

  return audit;
}
