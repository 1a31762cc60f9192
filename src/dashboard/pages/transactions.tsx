import type { FC } from 'hono/jsx';
import { BASE_TAGS } from '../../aml/index.js';
import { type PartyScreening, STATUSES, withVisibleControls as v } from '../../travelrule/index.js';
import { queryString } from '../context.js';
import { Layout, Pager, Time, type PageProps } from '../layout.js';
import { NOBODY, type TransactionListRow } from '../queries.js';
import { STATUS_WORDS, StatusText } from '../status-words.js';

/**
 * The Travel Rule queue: the filter form, the CSV export of what it finds, and a page of
 * transactions with both parties' screening, the operator on each case, its notes and its
 * failed messages to the other VASP.
 */

/** Scores from here up are shown as high risk. */
const HIGH_SCORE = 70;

export const ScreeningCell: FC<{ party: PartyScreening | undefined; score: number | null }> = ({
  party,
  score,
}) => {
  if (score === null && !party) return <span class="muted">not screened</span>;
  const value = score ?? party?.score ?? 0;
  const tags = Object.keys(party?.tags ?? {});
  return (
    <>
      <span class={value >= HIGH_SCORE ? 'score-high' : undefined}>{`score ${value}`}</span>
      {tags.length ? (
        <>
          {' '}
          <ul class="tags" aria-label="Tags found true">
            {tags.map((t) => (
              <li>{t}</li>
            ))}
          </ul>
        </>
      ) : (
        <span class="muted"> no tags</span>
      )}
    </>
  );
};

export interface Filters {
  ref: string;
  /** '' = all statuses. */
  status: string;
  direction: string;
  from: string;
  to: string;
  /** '' = anyone, NOBODY, or a login. */
  assignee: string;
  /** '1': only transactions with a failed message. */
  failed: string;
  /** '' or a whole number 0 to 100. */
  score: string;
  /** '' or a base tag. */
  tag: string;
}

/** The filters as a query string (the pager's links, the export link). */
export function filterQuery(f: Filters, extra: Record<string, string | number> = {}): string {
  return queryString({
    ref: f.ref || undefined,
    status: f.status,
    direction: f.direction || undefined,
    from: f.from || undefined,
    to: f.to || undefined,
    assignee: f.assignee || undefined,
    failed: f.failed || undefined,
    score: f.score || undefined,
    tag: f.tag || undefined,
    ...extra,
  });
}

export const TransactionsPage: FC<
  Omit<PageProps, 'title'> & {
    filters: Filters;
    rows: TransactionListRow[];
    total: number;
    page: number;
    limit: number;
    /** Operators a case can be assigned to (the assignee filter's choices). */
    assignable: string[];
  }
> = (p) => {
  const f = p.filters;
  const me = p.session?.operator.login;
  const href = (page: number) => `/dashboard/travelrule${filterQuery(f, { page })}`;
  return (
    <Layout
      title="Travel Rule"
      session={p.session}
      current="/dashboard/travelrule"
      error={p.error}
      flash={p.flash}
    >
      <form
        method="get"
        action="/dashboard/travelrule"
        class="filters"
        role="search"
        aria-label="Filter transactions"
      >
        <div>
          <label for="q-ref">Reference</label>
          <input id="q-ref" name="ref" type="search" value={f.ref} maxlength={200} />
        </div>
        <div>
          <label for="q-status">Status</label>
          <select id="q-status" name="status">
            <option value="" selected={f.status === ''}>
              All statuses
            </option>
            {STATUSES.map((s) => (
              <option value={s} selected={f.status === s}>
                {`${STATUS_WORDS[s]} (${s})`}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="q-direction">Direction</label>
          <select id="q-direction" name="direction">
            <option value="" selected={f.direction === ''}>
              Both
            </option>
            <option value="incoming" selected={f.direction === 'incoming'}>
              Incoming
            </option>
            <option value="outgoing" selected={f.direction === 'outgoing'}>
              Outgoing
            </option>
          </select>
        </div>
        <div>
          <label for="q-from">Created from</label>
          <input id="q-from" name="from" type="date" value={f.from} />
        </div>
        <div>
          <label for="q-to">Created to</label>
          <input id="q-to" name="to" type="date" value={f.to} />
        </div>
        <div>
          <label for="q-assignee">Assigned to</label>
          <select id="q-assignee" name="assignee">
            <option value="" selected={f.assignee === ''}>
              Anyone or nobody
            </option>
            <option value={NOBODY} selected={f.assignee === NOBODY}>
              Nobody
            </option>
            {[
              ...new Set([
                ...p.assignable,
                ...(f.assignee && f.assignee !== NOBODY ? [f.assignee] : []),
              ]),
            ].map((login) => (
              <option value={login} selected={f.assignee === login}>
                {login === me ? `${login} (me)` : login}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="q-score">Score at least</label>
          <input
            id="q-score"
            name="score"
            type="number"
            min={0}
            max={100}
            step={1}
            value={f.score}
          />
        </div>
        <div>
          <label for="q-tag">Tag (itself, direct or indirect)</label>
          <select id="q-tag" name="tag">
            <option value="" selected={f.tag === ''}>
              Any or none
            </option>
            {BASE_TAGS.map((t) => (
              <option value={t} selected={f.tag === t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label>
            <input type="checkbox" name="failed" value="1" checked={f.failed === '1'} /> Only with a
            failed message to the other VASP
          </label>
        </div>
        <input type="hidden" name="page" value="1" />
        <div>
          <button type="submit">Search</button>
        </div>
      </form>
      <p>
        <a id="queue-export" href={`/dashboard/travelrule/export${filterQuery(f)}`} download>
          Export what this search finds (CSV)
        </a>{' '}
        <span class="muted">
          No personal data: references, statuses, amounts, screening, assignment; the export is
          recorded in the audit log.
        </span>
      </p>
      <table id="transactions">
        <caption>
          {f.status === 'PENDING' ? 'Waiting for a decision, oldest first' : 'Newest first'}
          {` · ${p.total} found`}
        </caption>
        <thead>
          <tr>
            <th scope="col">Reference</th>
            <th scope="col">Direction</th>
            <th scope="col">Status</th>
            <th scope="col" class="num">
              Amount
            </th>
            <th scope="col">Other VASP</th>
            <th scope="col">Originator screening</th>
            <th scope="col">Beneficiary screening</th>
            <th scope="col">Assigned to</th>
            <th scope="col" class="num">
              Notes
            </th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {p.rows.map((t) => (
            <tr data-id={t.id}>
              <td class="ref">
                <a href={`/dashboard/travelrule/${t.id}`}>
                  <bdi>{v(t.transaction_ref)}</bdi>
                </a>
              </td>
              <td>{t.direction}</td>
              <td>
                <StatusText status={t.status} />
                {t.failed_messages > 0 ? (
                  <div class="failed">
                    {t.failed_messages === 1
                      ? 'A message to the other VASP failed'
                      : `${t.failed_messages} messages to the other VASP failed`}
                  </div>
                ) : null}
              </td>
              <td class="num">
                {`${t.amount} ${t.asset}`}
                {t.network ? <span class="muted">{` on ${t.network}`}</span> : null}
              </td>
              <td>
                {t.counterparty_name ? (
                  <bdi>{v(t.counterparty_name)}</bdi>
                ) : (
                  <span class="muted">—</span>
                )}
              </td>
              <td>
                <ScreeningCell party={t.screening?.originator} score={t.originator_score} />
              </td>
              <td>
                <ScreeningCell party={t.screening?.beneficiary} score={t.beneficiary_score} />
              </td>
              <td class="assignee">{t.assigned_to ?? <span class="muted">nobody</span>}</td>
              <td class="num">{t.notes}</td>
              <td>
                <Time at={t.created_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {p.rows.length === 0 ? <p>No transaction matches.</p> : null}
      <Pager page={p.page} total={p.total} limit={p.limit} href={href} />
    </Layout>
  );
};
