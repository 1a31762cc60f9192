import type { FC } from 'hono/jsx';
import {
  type Assignment,
  CANCELLABLE_STATUSES,
  type HistoryEntry,
  type MessageRow,
  NOTE_MAX_CHARS,
  type Note,
  type PartyScreening,
  type SealedParties,
  sendsIn,
  type TravelRuleTransaction,
  codeLabel,
  withVisibleControls as v,
} from '../../travelrule/index.js';
import { CsrfField, Layout, Time, type PageProps } from '../layout.js';
import { StatusText } from '../status-words.js';
import { Party } from './ivms101.js';
import { ScreeningCell } from './transactions.js';

/**
 * One travel rule transaction: summary and threshold notes, screening, the IVMS101 data,
 * the decision forms (reviewers and admins, when the status has a decision), the casework (who
 * is on it, the team's notes), the messages to the other VASP, and the history.
 */

export interface TransactionPageProps extends Omit<PageProps, 'title'> {
  t: TravelRuleTransaction;
  counterpartyName: string | null;
  /** undefined when the payload could not be decrypted. */
  parties: SealedParties | undefined;
  history: HistoryEntry[];
  messages: MessageRow[];
  notes: Note[];
  assignment: Assignment;
  /** Logins a case can be assigned to. */
  assignable: string[];
  canDecide: boolean;
  /** What the operator typed, shown again after an error. */
  values?: { reason?: string; email?: string; address?: string; note?: string };
}

const Row: FC<{ label: string; children?: unknown }> = ({ label, children }) => (
  <>
    <dt>{label}</dt>
    <dd>{(children ?? <span class="muted">—</span>) as never}</dd>
  </>
);

const Decisions: FC<{
  t: TravelRuleTransaction;
  csrf: string;
  values: NonNullable<TransactionPageProps['values']>;
}> = ({ t, csrf, values }) => {
  const base = `/dashboard/travelrule/${t.id}`;
  const forms = [];
  if (t.status === 'PENDING') {
    forms.push(
      <form id="accept" method="post" action={`${base}/accept`}>
        <h3>Accept</h3>
        <CsrfField token={csrf} />
        <div>
          <label for="accept-email">E-mail of the beneficiary VASP (optional)</label>
          <input
            id="accept-email"
            name="email"
            type="email"
            value={values.email ?? ''}
            maxlength={254}
            aria-describedby="accept-email-hint"
          />
          <span id="accept-email-hint" class="muted">
            {t.direction === 'outgoing'
              ? ' Only for a VASP outside the directory, or to send the view link elsewhere than its listed address.'
              : " Not used for an incoming transfer: your backend is asked for the beneficiary's deposit address (webhook WAITING_ADDRESS_DATA)."}
          </span>
        </div>
        <div>
          <button type="submit">Accept</button>
        </div>
      </form>,
      <form id="reject" method="post" action={`${base}/reject`}>
        <h3>Reject</h3>
        <CsrfField token={csrf} />
        <div>
          <label for="reject-reason">
            Reason (required; kept in the history, never sent to the other VASP)
          </label>
          <textarea id="reject-reason" name="reason" maxlength={1000} aria-required="true">
            {values.reason ?? ''}
          </textarea>
        </div>
        <div>
          <button type="submit" class="danger">
            Reject
          </button>
        </div>
      </form>,
    );
  }
  if (CANCELLABLE_STATUSES.includes(t.status)) {
    forms.push(
      <form id="cancel" method="post" action={`${base}/cancel`}>
        <h3>Cancel</h3>
        <CsrfField token={csrf} />
        <div>
          <label for="cancel-reason">Reason (required; kept in the history)</label>
          <textarea id="cancel-reason" name="reason" maxlength={1000} aria-required="true">
            {values.reason ?? ''}
          </textarea>
        </div>
        <div>
          <button type="submit" class="danger">
            Cancel transfer
          </button>
        </div>
      </form>,
    );
  }
  if (t.status === 'OTHER_VASP_PENDING' && t.counterparty_protocol !== 'trp') {
    forms.push(
      <form id="answer-approved" method="post" action={`${base}/answer`}>
        <h3>Record the beneficiary VASP's approval</h3>
        <CsrfField token={csrf} />
        <input type="hidden" name="answer" value="approved" />
        <div>
          <label for="answer-address">Beneficiary's wallet address (optional)</label>
          <input
            id="answer-address"
            name="address"
            type="text"
            value={values.address ?? ''}
            maxlength={256}
          />
        </div>
        <div>
          <button type="submit">Record approval</button>
        </div>
      </form>,
      <form id="answer-rejected" method="post" action={`${base}/answer`}>
        <h3>Record the beneficiary VASP's rejection</h3>
        <CsrfField token={csrf} />
        <input type="hidden" name="answer" value="rejected" />
        <div>
          <label for="answer-reason">Their reason (required)</label>
          <textarea
            id="answer-reason"
            name="reason"
            maxlength={1000}
            aria-required="true"
          ></textarea>
        </div>
        <div>
          <button type="submit" class="danger">
            Record rejection
          </button>
        </div>
      </form>,
    );
  }
  if (forms.length === 0) return <p>No decision is open in status {t.status}.</p>;
  return <div class="decisions">{forms}</div>;
};

export const TransactionPage: FC<TransactionPageProps> = (p) => {
  const { t } = p;
  const failed = p.messages.filter((m) => m.status === 'failed').length;
  // Reviewers and admins send a failed message again, or a pending one now, while the
  // transaction still calls for it (README, Travel Rule): the CSRF token of their forms.
  const canSend = (m: MessageRow) =>
    (m.status === 'failed' || m.status === 'pending') && sendsIn(m).includes(t.status);
  const sendable = p.canDecide && p.messages.some(canSend) ? p.session?.csrfToken : undefined;
  return (
    <Layout
      title={`Transaction ${v(t.transaction_ref)}`}
      session={p.session}
      current="/dashboard/travelrule"
      flash={p.flash}
      error={p.error}
    >
      <p>
        <a href="/dashboard/travelrule">Back to the queue</a>
      </p>
      {failed > 0 ? (
        <p class="alert" id="failed-messages">
          {failed === 1
            ? 'A message to the other VASP failed and is not retried any more: see '
            : `${failed} messages to the other VASP failed and are not retried any more: see `}
          <a href="#messages">Messages to the other VASP</a>
          {sendable && p.messages.some((m) => m.status === 'failed' && canSend(m))
            ? ', where it can be sent again.'
            : '.'}
        </p>
      ) : null}
      {t.direction === 'incoming' &&
      t.tx_hash &&
      (t.status === 'REJECTED' || t.status === 'OTHER_VASP_REJECTED') ? (
        <p class="alert" id="sent-after-end">
          {`The originator VASP gave a transaction hash after this transfer was ${t.status === 'REJECTED' ? 'rejected or cancelled here' : 'cancelled by it'}: it says it sent the funds all the same, and they may have arrived at the beneficiary address. Transaction hash: `}
          <code>{t.tx_hash}</code>
        </p>
      ) : null}
      <section id="summary" aria-labelledby="h-summary">
        <h2 id="h-summary">Summary</h2>
        <dl>
          <Row label="Reference">
            <code>
              <bdi>{v(t.transaction_ref)}</bdi>
            </code>
          </Row>
          <Row label="Id">
            <code>{t.id}</code>
          </Row>
          <Row label="Direction">{t.direction}</Row>
          <Row label="Status">
            <StatusText status={t.status} strong />
          </Row>
          <Row label="Assigned to">{p.assignment.login}</Row>
          <Row label="Amount">{`${t.amount} ${t.asset}`}</Row>
          <Row label="Network">{t.network}</Row>
          <Row label={t.direction === 'outgoing' ? 'Beneficiary VASP' : 'Originator VASP'}>
            {p.counterpartyName ? <bdi>{v(p.counterpartyName)}</bdi> : null}
          </Row>
          {t.counterparty_stated_name || t.counterparty_stated_lei ? (
            <Row label="As it states itself">
              {t.counterparty_stated_name ? <bdi>{v(t.counterparty_stated_name)}</bdi> : null}
              {t.counterparty_stated_lei ? (
                <>
                  {t.counterparty_stated_name ? ', LEI ' : 'LEI '}
                  <code>{t.counterparty_stated_lei}</code>
                </>
              ) : null}
            </Row>
          ) : null}
          {t.counterparty_transliteration?.length ? (
            <Row label="Names transliterated by">
              {t.counterparty_transliteration
                .map((code) => codeLabel('transliteration', code))
                .join(', ')}
            </Row>
          ) : null}
          <Row label="Reached by">
            {t.counterparty_protocol === 'trp'
              ? 'TRP'
              : t.counterparty_protocol === 'email'
                ? 'e-mail'
                : null}
          </Row>
          <Row label="E-mail address">{t.counterparty_email}</Row>
          <Row label="Beneficiary address">
            {t.beneficiary_address ? <code>{t.beneficiary_address}</code> : null}
          </Row>
          <Row label="Transaction hash">{t.tx_hash ? <code>{t.tx_hash}</code> : null}</Row>
          <Row label="Other VASP's reason">
            {t.counterparty_reason ? <bdi>{v(t.counterparty_reason)}</bdi> : null}
          </Row>
          <Row label="Created">
            <Time at={t.created_at} />
          </Row>
          <Row label="Updated">
            <Time at={t.updated_at} />
          </Row>
        </dl>
        <h3>Travel Rule threshold</h3>
        {t.threshold?.length ? (
          <ul>
            {t.threshold.map((n) => (
              <li>
                {`${n.jurisdiction}: ${n.result}`}
                {n.value !== undefined
                  ? ` (${n.value} ${n.currency} against ${n.threshold} ${n.currency}, rate ${n.rate})`
                  : ` (threshold ${n.threshold} ${n.currency}; no rate for ${t.asset})`}
              </li>
            ))}
          </ul>
        ) : (
          <p class="muted">No threshold configured (travel_rule.thresholds).</p>
        )}
      </section>
      <section id="screening" aria-labelledby="h-screening">
        <h2 id="h-screening">AML screening</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Party</th>
              <th scope="col">Score and true tags</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Originator</th>
              <td>
                <ScreeningCell party={t.screening?.originator} score={t.originator_score} />
              </td>
            </tr>
            <tr>
              <th scope="row">Beneficiary</th>
              <td>
                <ScreeningCell party={t.screening?.beneficiary} score={t.beneficiary_score} />
              </td>
            </tr>
          </tbody>
        </table>
        <p class="muted">Screening informs; the decision is yours.</p>
        <ScreeningExplanation title="Originator" party={t.screening?.originator} />
        <ScreeningExplanation title="Beneficiary" party={t.screening?.beneficiary} />
      </section>
      <section id="ivms101" aria-labelledby="h-ivms101">
        <h2 id="h-ivms101">IVMS101 data</h2>
        <p class="muted">Personal data: your reading of it is recorded in the audit log.</p>
        {p.parties ? (
          <>
            <Party title="Originator" slug="originator" party={p.parties.originator} />
            <Party title="Beneficiary" slug="beneficiary" party={p.parties.beneficiary} />
          </>
        ) : (
          <p role="alert" class="alert">
            The data could not be decrypted with the configured data keys.
          </p>
        )}
      </section>
      {p.canDecide && p.session ? (
        <section id="decision" aria-labelledby="h-decision">
          <h2 id="h-decision">Decision</h2>
          <Decisions t={t} csrf={p.session.csrfToken} values={p.values ?? {}} />
        </section>
      ) : null}
      <Casework {...p} />
      <section id="messages" aria-labelledby="h-messages">
        <h2 id="h-messages">Messages to the other VASP</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">Status</th>
              <th scope="col" class="num">
                Attempts
              </th>
              <th scope="col" class="num">
                Last response
              </th>
              <th scope="col">Last error</th>
              <th scope="col">Created</th>
              <th scope="col">Sent</th>
              {sendable ? <th scope="col">Action</th> : null}
            </tr>
          </thead>
          <tbody>
            {p.messages.map((m) => (
              <tr id={`message-${m.id}`}>
                <td>{m.kind}</td>
                <td class={m.status === 'failed' ? 'failed' : undefined}>{m.status}</td>
                <td class="num">{m.attempts}</td>
                <td class="num">{m.last_status ?? '—'}</td>
                <td>{m.last_error ?? '—'}</td>
                <td>
                  <Time at={m.created_at} />
                </td>
                <td>
                  <Time at={m.sent_at} />
                </td>
                {sendable ? (
                  <td>
                    {canSend(m) ? (
                      <form
                        method="post"
                        action={`/dashboard/travelrule/${t.id}/messages/${m.id}/send`}
                      >
                        <CsrfField token={sendable} />
                        <button type="submit">
                          {m.status === 'failed' ? 'Send again' : 'Send now'}
                        </button>
                      </form>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
        {p.messages.length === 0 ? <p>None sent.</p> : null}
      </section>
      <section id="history" aria-labelledby="h-history">
        <h2 id="h-history">History</h2>
        <ol>
          {p.history.map((h) => (
            <li>
              <StatusText status={h.to_status} strong />
              {` from ${h.from_status ?? '(new)'} · ${h.trigger} by ${h.actor_type} ${h.actor_id} · `}
              <Time at={h.at} />
              {h.reason ? (
                <div>
                  Reason: <bdi>{v(h.reason)}</bdi>
                </div>
              ) : null}
            </li>
          ))}
        </ol>
      </section>
    </Layout>
  );
};

/**
 * Why a party's screening found what it found, per address with a true tag (the explanation of
 * /analyze/aml?detail=true, kept with the screening): each tag's level, its label sources, and
 * the counterparties it came through with the values exchanged.
 */
const ScreeningExplanation: FC<{ title: string; party: PartyScreening | undefined }> = ({
  title,
  party,
}) => {
  if (!party || Object.keys(party.tags).length === 0) return null;
  const slug = title.toLowerCase();
  if (!party.explanations)
    return (
      <p class="muted" id={`explain-${slug}`}>
        {`${title}: no explanation stored (screened before explanations were kept).`}
      </p>
    );
  return (
    <details id={`explain-${slug}`} open>
      <summary>{`Why: ${title.toLowerCase()}`}</summary>
      {party.explanations.map(({ address, explanation }) => (
        <div class="explanation">
          <p>
            <code>{address}</code>{' '}
            <span class="muted">{`labels ${explanation.labels_version}, scoring ${explanation.scoring_config}`}</span>
          </p>
          <ul>
            {Object.entries(explanation.tags).map(([tag, e]) => (
              <li>
                <strong>{tag}</strong>{' '}
                {e.level === 'base'
                  ? 'the address itself carries the label'
                  : e.level === 'direct'
                    ? `direct: ${e.counterparty_count ?? 0} counterparties carry it (1 hop)`
                    : `indirect: through ${e.counterparty_count ?? 0} counterparties (2 hops)`}
                {e.sources?.length ? (
                  <span>{` · ${e.sources.map((s) => `${s.source}${s.name ? `: ${s.name}` : ''}`).join('; ')}`}</span>
                ) : null}
                {e.first_seen !== undefined ? (
                  <span>{` · first seen ${e.first_seen === null ? 'never' : new Date(e.first_seen * 1000).toISOString()}, ${e.transactions ?? 0} transactions`}</span>
                ) : null}
                {e.counterparties?.length ? (
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">Counterparty</th>
                        <th scope="col">Labelled address</th>
                        <th scope="col">Sources</th>
                        <th scope="col" class="num">
                          Transactions
                        </th>
                        <th scope="col" class="num">
                          Sent
                        </th>
                        <th scope="col" class="num">
                          Received
                        </th>
                        <th scope="col" class="num">
                          Share of volume
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {e.counterparties.map((c) => (
                        <tr>
                          <td>
                            <code>{c.address}</code>
                          </td>
                          <td>
                            <code>{c.labelled}</code>
                          </td>
                          <td>{c.sources.map((s) => s.source).join(', ')}</td>
                          <td class="num">{String(c.transactions)}</td>
                          <td class="num">{c.sent ?? '—'}</td>
                          <td class="num">{c.received ?? '—'}</td>
                          <td class="num">
                            {c.share === null ? '—' : `${(c.share * 100).toFixed(2)} %`}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </details>
  );
};

/**
 * Who is on the case and the team's notes; reviewers and admins assign and write. A note is
 * shown as text, its lines kept.
 */
const Casework: FC<TransactionPageProps> = (p) => {
  const { t, assignment } = p;
  const csrf = p.session?.csrfToken;
  const base = `/dashboard/travelrule/${t.id}`;
  const me = p.session?.operator.login;
  return (
    <section id="casework" aria-labelledby="h-casework">
      <h2 id="h-casework">Casework</h2>
      <p id="assignee">
        {assignment.login ? (
          <>
            {'Assigned to '}
            <strong>{assignment.login}</strong>
            {' since '}
            <Time at={assignment.at} />.
          </>
        ) : (
          'Nobody is assigned.'
        )}
      </p>
      {p.canDecide && csrf ? (
        <form id="assign" method="post" action={`${base}/assign`} class="filters">
          <CsrfField token={csrf} />
          <div>
            <label for="assign-to">Assign to</label>
            <select id="assign-to" name="assignee">
              <option value="" selected={!assignment.login}>
                Nobody
              </option>
              {p.assignable.map((login) => (
                <option value={login} selected={assignment.login === login}>
                  {login === me ? `${login} (me)` : login}
                </option>
              ))}
            </select>
          </div>
          <div>
            <button type="submit">Assign</button>{' '}
            {assignment.login !== me ? (
              <button type="submit" name="me" value="1" class="secondary">
                Assign to me
              </button>
            ) : null}
          </div>
        </form>
      ) : null}
      <h3 id="notes">Notes</h3>
      <p class="muted">
        Seen by every operator; sealed like the IVMS101 data, never sent to the other VASP or to
        your backend. A note cannot be changed: add another.
      </p>
      {p.notes.length ? (
        <ol class="notes">
          {p.notes.map((n) => (
            <li data-id={n.id}>
              <strong>{n.author}</strong> · <Time at={n.created_at} />
              {n.body === null ? (
                <p class="alert">The note could not be decrypted with the configured data keys.</p>
              ) : (
                <p class="note-body">{n.body}</p>
              )}
            </li>
          ))}
        </ol>
      ) : (
        <p>No notes yet.</p>
      )}
      {p.canDecide && csrf ? (
        <form id="note" method="post" action={`${base}/note`} class="stack">
          <CsrfField token={csrf} />
          <div>
            <label for="note-text">Add a note</label>
            <textarea id="note-text" name="note" maxlength={NOTE_MAX_CHARS} required>
              {p.values?.note ?? ''}
            </textarea>
          </div>
          <div>
            <button type="submit">Add note</button>
          </div>
        </form>
      ) : null}
    </section>
  );
};
