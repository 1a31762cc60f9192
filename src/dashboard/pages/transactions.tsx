import type { FC } from 'hono/jsx';
import { type PartyScreening, STATUSES } from '../../travelrule/index.js';
import { queryString } from '../context.js';
import { Layout, Pager, Time, type PageProps } from '../layout.js';
import type { TransactionListRow } from '../queries.js';

/** The Travel Rule queue: the filter form and a page of transactions with both parties' screening. */

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
}

export const TransactionsPage: FC<
  Omit<PageProps, 'title'> & {
    filters: Filters;
    rows: TransactionListRow[];
    total: number;
    page: number;
    limit: number;
  }
> = (p) => {
  const f = p.filters;
  const href = (page: number) =>
    `/dashboard/travelrule${queryString({ ref: f.ref || undefined, status: f.status, direction: f.direction || undefined, from: f.from || undefined, to: f.to || undefined, page })}`;
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
                {s}
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
        <input type="hidden" name="page" value="1" />
        <div>
          <button type="submit">Search</button>
        </div>
      </form>
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
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {p.rows.map((t) => (
            <tr data-id={t.id}>
              <td>
                <a href={`/dashboard/travelrule/${t.id}`}>{t.transaction_ref}</a>
              </td>
              <td>{t.direction}</td>
              <td>{t.status}</td>
              <td class="num">
                {`${t.amount} ${t.asset}`}
                {t.network ? <span class="muted">{` on ${t.network}`}</span> : null}
              </td>
              <td>{t.counterparty_name ?? <span class="muted">—</span>}</td>
              <td>
                <ScreeningCell party={t.screening?.originator} score={t.originator_score} />
              </td>
              <td>
                <ScreeningCell party={t.screening?.beneficiary} score={t.beneficiary_score} />
              </td>
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
