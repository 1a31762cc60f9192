import type { FC } from 'hono/jsx';
import type { Attempt, Endpoint } from '../../deliveries/index.js';
import type { listApiKeys } from '../../keys/index.js';
import { queryString } from '../context.js';
import { CsrfField, Layout, Pager, Time } from '../layout.js';
import type { Session } from '../session.js';

type KeyListing = Awaited<ReturnType<typeof listApiKeys>>[number];

/** An endpoint's last attempt: when, the status it got, the error (Webhooks and Operations pages). */
export const LastAttempt: FC<{
  endpoint: Pick<Endpoint, 'last_attempt_at' | 'last_status_code' | 'last_error'>;
}> = ({ endpoint: e }) => (
  <>
    <Time at={e.last_attempt_at} />
    {e.last_status_code !== null ? ` (${e.last_status_code})` : ''}
    {e.last_error ? ` ${e.last_error}` : ''}
  </>
);

/**
 * The Webhooks page of one API key: its endpoints, its subscriptions (paused or not), the
 * delivery log with its filters, and the forms of the webhook operations. Everything a receiver
 * wrote (the answer's excerpt, the error) is text, escaped by hono/jsx like every other value.
 */

/** Characters of a receiver's answer shown in the log (the log keeps at most 1 KiB). */
export const EXCERPT_CHARS = 200;

export interface LogFilter {
  address: string;
  status: string;
  since: string;
  kind: string;
  event: string;
}

const KINDS = [
  ['stream', 'stream'],
  ['aml', 'live AML'],
  ['travelrule', 'travel rule'],
  ['test', 'test'],
] as const;

export interface SubscriptionRow {
  address: string;
  webhook: string;
  paused: boolean;
}

export interface WebhooksPageProps {
  session: Session;
  keys: KeyListing[];
  apiKey: KeyListing | undefined;
  canChange: boolean;
  canAdmin: boolean;
  endpoints: Endpoint[];
  streams: { rows: SubscriptionRow[]; total: number };
  aml: { rows: SubscriptionRow[]; total: number };
  log: { rows: Attempt[]; total: number; page: number; limit: number };
  filter: LogFilter;
  defaultOverlapHours: number;
  maxOverlapHours: number;
  flash?: string | undefined;
  error?: string | undefined;
  /** The secret a rotation made: shown on this answer only. */
  rotated?: { secret: string; previousExpiresAt: Date | null } | undefined;
}

export function excerpt(text: string | null): string | null {
  if (text === null) return null;
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

export const WebhooksPage: FC<WebhooksPageProps> = (p) => {
  const key = p.apiKey;
  const Action: FC<{
    path: string;
    text: string;
    label: string;
    fields?: Record<string, string>;
    danger?: boolean;
  }> = ({ path, text, label, fields, danger }) => (
    <form method="post" action={`/dashboard/webhooks/${path}`} class="inline">
      <CsrfField token={p.session.csrfToken} />
      <input type="hidden" name="key" value={key?.id ?? ''} />
      {Object.entries(fields ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button type="submit" class={danger ? 'danger' : 'secondary'} aria-label={label}>
        {text}
      </button>
    </form>
  );
  const logHref = (page: number) =>
    `/dashboard/webhooks${queryString({
      key: key?.id,
      address: p.filter.address || undefined,
      status: p.filter.status || undefined,
      since: p.filter.since || undefined,
      kind: p.filter.kind || undefined,
      event: p.filter.event || undefined,
      page,
    })}`;
  const Subscriptions: FC<{ which: 'stream' | 'aml'; list: WebhooksPageProps['streams'] }> = ({
    which,
    list,
  }) => (
    <>
      <table id={`subs-${which}`}>
        <caption>{`${list.total} in all${list.total > list.rows.length ? `; the first ${list.rows.length} shown` : ''}`}</caption>
        <thead>
          <tr>
            <th scope="col">Address</th>
            <th scope="col">Webhook</th>
            <th scope="col">State</th>
            {p.canChange ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {list.rows.map((s) => (
            <tr data-address={s.address}>
              <td>
                <code>{s.address}</code>
              </td>
              <td>
                <code>{s.webhook}</code>
              </td>
              <td>{s.paused ? <strong>paused</strong> : 'sending'}</td>
              {p.canChange ? (
                <td>
                  <Action
                    path={s.paused ? 'resume' : 'pause'}
                    text={s.paused ? 'Resume' : 'Pause'}
                    label={`${s.paused ? 'Resume' : 'Pause'} the ${which === 'aml' ? 'live AML tracking' : 'stream'} of ${s.address}`}
                    fields={{ address: s.address, which }}
                  />{' '}
                  <Action
                    path="test"
                    text="Send test webhook"
                    label={`Send a test webhook to the ${which === 'aml' ? 'live AML tracking' : 'stream'} of ${s.address}`}
                    fields={{ address: s.address, which }}
                  />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );

  return (
    <Layout
      title="Webhooks"
      session={p.session}
      current="/dashboard/webhooks"
      flash={p.flash}
      error={p.error}
    >
      {p.rotated ? (
        <div class="secret" role="status" id="rotated">
          <p>
            <strong>Shown once:</strong> copy the new webhook secret now; it is not shown again and
            is not stored in clear anywhere you can read it back.
          </p>
          <dl>
            <dt>New webhook secret</dt>
            <dd>
              <code id="new-webhook-secret">{p.rotated.secret}</code>
            </dd>
            <dt>The previous secret signs too until</dt>
            <dd>
              {p.rotated.previousExpiresAt ? (
                <Time at={p.rotated.previousExpiresAt} />
              ) : (
                'no overlap: it no longer signs'
              )}
            </dd>
          </dl>
        </div>
      ) : null}
      <form method="get" action="/dashboard/webhooks" class="filters">
        <div>
          <label for="f-key">API key</label>
          <select id="f-key" name="key">
            {p.keys.map((k) => (
              <option value={k.id} selected={k.id === key?.id}>
                {`${k.name} (${k.key_prefix}…)${k.revoked_at ? ', revoked' : ''}`}
              </option>
            ))}
          </select>
        </div>
        <div>
          <button type="submit">Show</button>
        </div>
      </form>
      {!key ? (
        <p>No API key yet.</p>
      ) : (
        <>
          <section aria-labelledby="h-endpoints">
            <h2 id="h-endpoints">Endpoints</h2>
            <table id="endpoints">
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">State</th>
                  <th scope="col">Last attempt</th>
                  <th scope="col" class="num">
                    Pending events
                  </th>
                  {p.canAdmin ? <th scope="col">Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {p.endpoints.map((e) => (
                  <tr data-url={e.url} data-state={e.state}>
                    <td>
                      <code>{e.url}</code>
                    </td>
                    <td>
                      {e.state === 'disabled' ? (
                        <strong>
                          disabled at <Time at={e.disabled_at} />
                        </strong>
                      ) : e.state === 'failing' ? (
                        <>
                          failing since <Time at={e.failing_since} />
                        </>
                      ) : (
                        'active'
                      )}
                    </td>
                    <td>
                      <LastAttempt endpoint={e} />
                    </td>
                    <td class="num">{e.pending_events}</td>
                    {p.canAdmin ? (
                      <td>
                        {e.state === 'disabled' ? (
                          <Action
                            path="endpoints/enable"
                            text="Enable again"
                            label={`Enable ${e.url} again`}
                            fields={{ url: e.url }}
                          />
                        ) : (
                          <span class="muted">—</span>
                        )}
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
            {p.endpoints.length === 0 ? <p>This key has no webhook endpoint.</p> : null}
          </section>
          <section aria-labelledby="h-streams">
            <h2 id="h-streams">Streams</h2>
            <Subscriptions which="stream" list={p.streams} />
            <h2 id="h-aml">Live AML trackings</h2>
            <Subscriptions which="aml" list={p.aml} />
            <h2 id="h-travelrule">Travel Rule webhook</h2>
            <p>
              {
                "Travel Rule status changes go to the key's Travel Rule webhook (POST /v2/travelrule/webhook), else the configured default. "
              }
              {p.canChange ? (
                <Action
                  path="test"
                  text="Send test webhook"
                  label="Send a test webhook to the Travel Rule webhook"
                  fields={{ which: 'travelrule' }}
                />
              ) : null}
            </p>
          </section>
          <section aria-labelledby="h-log">
            <h2 id="h-log">Delivery log</h2>
            <form method="get" action="/dashboard/webhooks" class="filters">
              <input type="hidden" name="key" value={key.id} />
              <div>
                <label for="f-address">Address</label>
                <input id="f-address" name="address" value={p.filter.address} />
              </div>
              <div>
                <label for="f-status">Status</label>
                <select id="f-status" name="status">
                  <option value="" selected={p.filter.status === ''}>
                    any
                  </option>
                  <option value="succeeded" selected={p.filter.status === 'succeeded'}>
                    succeeded (2xx)
                  </option>
                  <option value="failed" selected={p.filter.status === 'failed'}>
                    failed
                  </option>
                </select>
              </div>
              <div>
                <label for="f-kind">Kind</label>
                <select id="f-kind" name="kind">
                  <option value="" selected={p.filter.kind === ''}>
                    any
                  </option>
                  {KINDS.map(([value, label]) => (
                    <option value={value} selected={p.filter.kind === value}>
                      {label}
                    </option>
                  ))}
                </select>
              </div>
              <div>
                <label for="f-event">Event (id or msg_ id)</label>
                <input id="f-event" name="event" value={p.filter.event} />
              </div>
              <div>
                <label for="f-since">Since (UTC, ISO 8601)</label>
                <input
                  id="f-since"
                  name="since"
                  value={p.filter.since}
                  placeholder="2025-03-14T06:00:00Z"
                />
              </div>
              <div>
                <button type="submit">Filter</button>
              </div>
            </form>
            <table id="attempts">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Address</th>
                  <th scope="col">Event</th>
                  <th scope="col" class="num">
                    Status
                  </th>
                  <th scope="col" class="num">
                    Latency (ms)
                  </th>
                  <th scope="col">Error</th>
                  <th scope="col">Answer (excerpt)</th>
                  {p.canChange ? <th scope="col">Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {p.log.rows.map((a) => (
                  <tr data-event={a.event_id} data-attempt={String(a.attempt)}>
                    <td>
                      <Time at={a.attempted_at} />
                    </td>
                    <td>{a.kind}</td>
                    <td>
                      <code>{a.address ?? '—'}</code>
                    </td>
                    <td>
                      <code>{a.event_id}</code>
                      {` (${a.event_status}, attempt ${a.attempt})`}
                    </td>
                    <td class="num">{a.status_code ?? '—'}</td>
                    <td class="num">{a.duration_ms}</td>
                    <td>{a.error ?? '—'}</td>
                    <td>
                      <code class="excerpt">{excerpt(a.response) ?? '—'}</code>
                    </td>
                    {p.canChange ? (
                      <td>
                        {a.kind !== 'test' &&
                        (a.event_status === 'failed' || a.event_status === 'delivered') ? (
                          <Action
                            path="redeliver"
                            text="Redeliver"
                            label={`Redeliver event ${a.event_id}`}
                            fields={{ event_id: a.event_id }}
                          />
                        ) : (
                          <span class="muted">—</span>
                        )}
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
            {p.log.rows.length === 0 ? <p>No delivery attempt matches.</p> : null}
            <Pager page={p.log.page} total={p.log.total} limit={p.log.limit} href={logHref} />
          </section>
          {p.canChange ? (
            <section aria-labelledby="h-recover">
              <h2 id="h-recover">Recover failed events</h2>
              <form method="post" action="/dashboard/webhooks/recover" class="stack">
                <CsrfField token={p.session.csrfToken} />
                <input type="hidden" name="key" value={key.id} />
                <div>
                  <label for="f-recover-since">Every event given up since (UTC, ISO 8601)</label>
                  <input id="f-recover-since" name="since" required />
                </div>
                <div>
                  <label for="f-recover-address">Of one address only (optional)</label>
                  <input id="f-recover-address" name="address" />
                </div>
                <div>
                  <label for="f-recover-kind">Of one kind only</label>
                  <select id="f-recover-kind" name="kind">
                    <option value="">any</option>
                    {KINDS.filter(([value]) => value !== 'test').map(([value, label]) => (
                      <option value={value}>{label}</option>
                    ))}
                  </select>
                </div>
                <div>
                  <button type="submit">Recover</button>
                </div>
              </form>
            </section>
          ) : null}
          {p.canAdmin ? (
            <section aria-labelledby="h-rotate">
              <h2 id="h-rotate">Rotate the webhook secret</h2>
              <form method="post" action="/dashboard/webhooks/rotate" class="stack">
                <CsrfField token={p.session.csrfToken} />
                <input type="hidden" name="key" value={key.id} />
                <div>
                  <label for="f-overlap">{`Overlap in hours (0 to ${p.maxOverlapHours}): the old secret signs beside the new one meanwhile`}</label>
                  <input
                    id="f-overlap"
                    name="overlap_hours"
                    inputmode="decimal"
                    value={String(p.defaultOverlapHours)}
                  />
                </div>
                <div>
                  <button type="submit" class="danger">
                    Rotate secret
                  </button>
                </div>
              </form>
            </section>
          ) : null}
        </>
      )}
    </Layout>
  );
};
