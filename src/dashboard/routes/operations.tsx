import { Hono } from 'hono';
import { recordAudit } from '../../audit/index.js';
import { disabledEndpoints } from '../../deliveries/index.js';
import { type IndexerStatus, indexerStatus, notFollowed } from '../../indexer/status.js';
import { resumeIndexer } from '../../indexer/cursor.js';
import {
  BackfillRefused,
  backfillProgress,
  cancelBackfill,
  listBackfills,
  requestBackfill,
  requestRetrace,
} from '../../indexer/backfill.js';
import { networkInfo } from '../../config/networks.js';
import { roleAllows } from '../../operators/index.js';
import {
  appCounts,
  deleteJob,
  failedJobs,
  failedTravelRuleMessages,
  depositsSentAfterEnd,
  givenUpDeliveries,
  jobQueueCounts,
  recentDeliveryFailures,
  redeliver,
  retryJob,
} from '../../monitoring/status.js';
import {
  deliveriesDeps,
  render,
  requireRole,
  type DashboardDeps,
  type DashContext,
  type DashEnv,
} from '../context.js';
import { CsrfField, Layout, Time } from '../layout.js';
import { LastAttempt } from '../pages/webhooks.js';
import { withVisibleControls as v } from '../../travelrule/index.js';

/**
 * /dashboard/operations: per network the head, indexed block, lag and last reorg; the job
 * queues per task and the failed jobs; the latest webhook delivery failures; counts of streams,
 * live AML trackings and labels; the webhook events given up. Admins retry or delete a failed
 * job and redeliver a webhook.
 */

const SHOWN_ROWS = 50;

const DONE: Record<string, string> = {
  retried: 'The job runs again now.',
  deleted: 'The job is deleted.',
  redelivered: 'The webhook is queued for delivery again.',
};
const GONE: Record<string, string> = {
  retried: 'That job is no longer a failed job (retried or deleted meanwhile).',
  deleted: 'That job is no longer a failed job (retried or deleted meanwhile).',
  redelivered: 'That webhook event is not failed (delivered or queued meanwhile).',
};

/**
 * The fields of a backfill or retrace form: `field` as typed (trimmed), `block` as a block number
 * (undefined when empty or not one), `badBlock` when from or to is given and not a block number.
 */
async function jobFields(c: DashContext) {
  const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
  const field = (k: string) => (typeof body[k] === 'string' ? (body[k] as string).trim() : '');
  const block = (k: string) => (/^\d{1,18}$/.test(field(k)) ? BigInt(field(k)) : undefined);
  const badBlock = ['from', 'to'].some((k) => field(k) !== '' && block(k) === undefined);
  return { field, block, badBlock };
}

export function operationsRoutes(deps: DashboardDeps): Hono<DashEnv> {
  const sql = deps.travelRule.sql;
  const ops = new Hono<DashEnv>();

  const page = async (c: DashContext, notice: { flash?: string; error?: string } = {}) => {
    const session = c.get('session');
    const admin = roleAllows(session.operator.role, 'admin');
    const [
      networks,
      queues,
      failed,
      givenUp,
      deliveries,
      messages,
      counts,
      backfills,
      disabled,
      sentAfterEnd,
    ] = await Promise.all([
      indexerStatus(sql),
      jobQueueCounts(sql),
      failedJobs(sql, SHOWN_ROWS),
      givenUpDeliveries(sql, SHOWN_ROWS),
      recentDeliveryFailures(sql, SHOWN_ROWS),
      failedTravelRuleMessages(sql, SHOWN_ROWS),
      appCounts(sql),
      listBackfills(sql, SHOWN_ROWS),
      disabledEndpoints(deliveriesDeps(deps)),
      depositsSentAfterEnd(sql, SHOWN_ROWS),
    ]);
    const evmNetworks = networks.filter((n) => networkInfo(n.network)?.family === 'evm');
    /** The form that starts a backfill (from block required) or a retrace (every block optional). */
    const JobForm = ({ job, networks }: { job: 'backfill' | 'retrace'; networks: string[] }) => (
      <form method="post" action={`/dashboard/operations/${job}s`}>
        <CsrfField token={session.csrfToken} />
        <label>
          Network{' '}
          <select name="network">
            {networks.map((n) => (
              <option value={n}>{n}</option>
            ))}
          </select>
        </label>{' '}
        {job === 'backfill' ? (
          <label>
            From block <input name="from" inputmode="numeric" required />
          </label>
        ) : (
          <label>
            From block (optional) <input name="from" inputmode="numeric" />
          </label>
        )}{' '}
        <label>
          To block (optional) <input name="to" inputmode="numeric" />
        </label>{' '}
        <button type="submit">{job === 'backfill' ? 'Start backfill' : 'Start retrace'}</button>
      </form>
    );
    const ActionForm = ({
      action,
      label,
      text,
      danger,
    }: {
      action: string;
      label: string;
      text: string;
      danger?: boolean;
    }) => (
      <form method="post" action={action} class="inline">
        <CsrfField token={session.csrfToken} />
        <button type="submit" class={danger ? 'danger' : 'secondary'} aria-label={label}>
          {text}
        </button>
      </form>
    );
    const Redeliver = ({ id }: { id: string }) => (
      <ActionForm
        action={`/dashboard/operations/deliveries/${id}/redeliver`}
        label={`Redeliver event ${id}`}
        text="Redeliver"
      />
    );
    return render(
      c,
      <Layout
        title="Operations"
        session={session}
        current="/dashboard/operations"
        flash={notice.flash}
        error={notice.error}
      >
        <section id="networks" aria-labelledby="h-networks">
          <h2 id="h-networks">Networks</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">Network</th>
                <th scope="col" class="num">
                  Head
                </th>
                <th scope="col" class="num">
                  Indexed
                </th>
                <th scope="col" class="num">
                  Lag (blocks)
                </th>
                <th scope="col">History from</th>
                <th scope="col">Head seen</th>
                <th scope="col">Last reorg</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {networks.map((n) => (
                <tr data-network={n.network}>
                  <th scope="row">{n.network}</th>
                  <td class="num">{n.head_block ?? '—'}</td>
                  <td class="num">{n.indexed_block}</td>
                  <td class="num">{n.lag_blocks ?? '—'}</td>
                  <td class="num">{n.history_from ?? '—'}</td>
                  <td>
                    <Time at={n.head_seen_at} />
                  </td>
                  <td>
                    {n.last_reorg_at ? (
                      <>
                        <Time at={n.last_reorg_at} />
                        {` (${n.last_reorg_depth ?? '?'} blocks; ${n.reorg_count ?? '?'} in all)`}
                      </>
                    ) : (
                      'none'
                    )}
                  </td>
                  <td>
                    <NetworkState n={n} />
                    {n.halted_reason && admin ? (
                      <form
                        method="post"
                        action={`/dashboard/operations/networks/${n.network}/resume`}
                        class="inline"
                      >
                        <CsrfField token={session.csrfToken} />
                        <label>
                          <input type="checkbox" name="allow_deep_reorg" value="true" /> allow one
                          reorg past the limit
                        </label>{' '}
                        <button type="submit" class="secondary" aria-label={`Resume ${n.network}`}>
                          Resume
                        </button>
                      </form>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {networks.length === 0 ? <p>No network indexed yet.</p> : null}
        </section>
        <section id="backfills" aria-labelledby="h-backfills">
          <h2 id="h-backfills">Backfills</h2>
          <p>
            History below where a network's indexing began, indexed beside the live follower (no
            stream webhooks: it is history). A retrace reads the call traces of stored blocks that
            were stored without them (a node without traces, or without the state for old blocks)
            and adds their internal transfers, as history too.
          </p>
          {backfills.length ? (
            <table>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Job</th>
                  <th scope="col">Network</th>
                  <th scope="col">Blocks</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">
                    Done
                  </th>
                  <th scope="col" class="num">
                    Blocks/s
                  </th>
                  <th scope="col" class="num">
                    ETA
                  </th>
                  <th scope="col">Requested</th>
                  {admin ? <th scope="col">Action</th> : null}
                </tr>
              </thead>
              <tbody>
                {backfills.map((b) => {
                  const p = backfillProgress(b);
                  return (
                    <tr data-backfill={b.id}>
                      <th scope="row">{b.id}</th>
                      <td>{b.kind === 'traces' ? 'retrace' : 'backfill'}</td>
                      <td>{b.network}</td>
                      <td>{`${b.from_block}–${b.to_block}`}</td>
                      <td>{b.error ? <strong>{`${b.status}: ${b.error}`}</strong> : b.status}</td>
                      <td class="num">
                        {b.kind === 'traces'
                          ? `${b.blocks_done} blocks traced (${b.txs_done} tx)`
                          : `${p.done} of ${p.total} (${b.txs_done} tx)`}
                      </td>
                      <td class="num">{p.perS > 0 ? p.perS.toFixed(1) : '—'}</td>
                      <td class="num">{p.etaS === undefined ? '—' : `${p.etaS} s`}</td>
                      <td>
                        <Time at={b.created_at} />
                        {` by ${b.requested_by}`}
                      </td>
                      {admin ? (
                        <td>
                          {b.status === 'running' ? (
                            <ActionForm
                              action={`/dashboard/operations/backfills/${b.id}/cancel`}
                              label={`Cancel ${b.kind === 'traces' ? 'retrace' : 'backfill'} ${b.id}`}
                              text="Cancel"
                              danger
                            />
                          ) : null}
                        </td>
                      ) : null}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          ) : (
            <p>No backfills.</p>
          )}
          {admin && networks.length ? (
            <JobForm job="backfill" networks={networks.map((n) => n.network)} />
          ) : null}
          {admin && evmNetworks.length ? (
            <JobForm job="retrace" networks={evmNetworks.map((n) => n.network)} />
          ) : null}
        </section>
        <section id="queues" aria-labelledby="h-queues">
          <h2 id="h-queues">Job queues</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">Task</th>
                <th scope="col" class="num">
                  Queued
                </th>
                <th scope="col" class="num">
                  Running
                </th>
                <th scope="col" class="num">
                  Failed
                </th>
              </tr>
            </thead>
            <tbody>
              {queues.map((q) => (
                <tr data-task={q.task}>
                  <th scope="row">{q.task}</th>
                  <td class="num">{q.queued}</td>
                  <td class="num">{q.running}</td>
                  <td class="num">{q.failed}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h3 id="h-failed">Failed jobs</h3>
          <table id="failed-jobs" aria-labelledby="h-failed">
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Task</th>
                <th scope="col" class="num">
                  Attempts
                </th>
                <th scope="col">Last error</th>
                <th scope="col">Created</th>
                {admin ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {failed.map((j) => (
                <tr data-id={j.id}>
                  <td class="num">{j.id}</td>
                  <td>{j.task}</td>
                  <td class="num">{`${j.attempts} / ${j.max_attempts}`}</td>
                  <td>{j.last_error ?? '—'}</td>
                  <td>
                    <Time at={j.created_at} />
                  </td>
                  {admin ? (
                    <td>
                      <ActionForm
                        action={`/dashboard/operations/jobs/${j.id}/retry`}
                        label={`Retry job ${j.id}`}
                        text="Retry"
                      />{' '}
                      <ActionForm
                        action={`/dashboard/operations/jobs/${j.id}/delete`}
                        label={`Delete job ${j.id}`}
                        text="Delete"
                        danger
                      />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
          {failed.length === 0 ? <p>No failed job.</p> : null}
        </section>
        <section id="disabled-endpoints" aria-labelledby="h-disabled-endpoints">
          <h2 id="h-disabled-endpoints">Disabled webhook endpoints</h2>
          <table>
            <caption>
              Receivers that failed for longer than TOLLGATE_WEBHOOK_DISABLE_AFTER_HOURS: their
              events are kept, not sent, until the endpoint is enabled again (on its key's Webhooks
              page)
            </caption>
            <thead>
              <tr>
                <th scope="col">API key</th>
                <th scope="col">URL</th>
                <th scope="col">Disabled</th>
                <th scope="col">Last attempt</th>
                <th scope="col" class="num">
                  Events kept
                </th>
              </tr>
            </thead>
            <tbody>
              {disabled.map(({ key, endpoint: e }) => (
                <tr data-url={e.url}>
                  <td>
                    <a href={`/dashboard/webhooks?key=${encodeURIComponent(key.id)}`}>{key.name}</a>
                  </td>
                  <td>
                    <code>{e.url}</code>
                  </td>
                  <td>
                    <Time at={e.disabled_at} />
                  </td>
                  <td>
                    <LastAttempt endpoint={e} />
                  </td>
                  <td class="num">{e.pending_events}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {disabled.length === 0 ? <p>No endpoint disabled.</p> : null}
        </section>
        <section id="given-up" aria-labelledby="h-given-up">
          <h2 id="h-given-up">Webhooks given up</h2>
          <table>
            <caption>{`Events no receiver took: retries exhausted, or refused (4xx); the latest ${SHOWN_ROWS}, newest first`}</caption>
            <thead>
              <tr>
                <th scope="col">Given up</th>
                <th scope="col">Event</th>
                <th scope="col">Kind</th>
                <th scope="col">URL</th>
                <th scope="col" class="num">
                  Attempts
                </th>
                <th scope="col">Last error</th>
                {admin ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {givenUp.map((g) => (
                <tr data-event={g.event_id}>
                  <td>
                    <Time at={g.gave_up_at} />
                  </td>
                  <td>
                    <code>{g.event_id}</code>
                  </td>
                  <td>{g.kind}</td>
                  <td>
                    <code>{g.url ?? '—'}</code>
                  </td>
                  <td class="num">{g.attempts}</td>
                  <td>{g.last_error ?? '—'}</td>
                  {admin ? (
                    <td>
                      <Redeliver id={g.event_id} />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
          {givenUp.length === 0 ? <p>No webhook given up.</p> : null}
        </section>
        <section id="deliveries" aria-labelledby="h-deliveries">
          <h2 id="h-deliveries">Webhook delivery failures</h2>
          <table>
            <caption>{`The latest ${SHOWN_ROWS} failed attempts, newest first`}</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Kind</th>
                <th scope="col">URL</th>
                <th scope="col" class="num">
                  Response
                </th>
                <th scope="col">Error</th>
                <th scope="col">Event status</th>
                {admin ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {deliveries.map((d) => (
                <tr data-event={d.event_id}>
                  <td>
                    <Time at={d.at} />
                  </td>
                  <td>
                    <code>{d.event_id}</code>
                  </td>
                  <td>{d.kind}</td>
                  <td>
                    <code>{d.url}</code>
                  </td>
                  <td class="num">{d.status_code ?? '—'}</td>
                  <td>{d.error ?? '—'}</td>
                  <td>{`${d.event_status} (${d.attempts} attempts)`}</td>
                  {admin ? (
                    <td>
                      {d.event_status === 'failed' ? (
                        <Redeliver id={d.event_id} />
                      ) : (
                        <span class="muted">—</span>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
          {deliveries.length === 0 ? <p>No failed delivery.</p> : null}
        </section>
        <section id="travelrule-messages" aria-labelledby="h-travelrule-messages">
          <h2 id="h-travelrule-messages">Travel rule messages that failed</h2>
          <table>
            <caption>{`The latest ${SHOWN_ROWS}, newest first: refused by the other VASP, or every attempt used up`}</caption>
            <thead>
              <tr>
                <th scope="col">Queued</th>
                <th scope="col">Transaction</th>
                <th scope="col">Message</th>
                <th scope="col">Other VASP</th>
                <th scope="col" class="num">
                  Response
                </th>
                <th scope="col">Error</th>
                <th scope="col" class="num">
                  Attempts
                </th>
              </tr>
            </thead>
            <tbody>
              {messages.map((m) => (
                <tr data-message={m.message_id}>
                  <td>
                    <Time at={m.at} />
                  </td>
                  <td>
                    <a href={`/dashboard/travelrule/${m.transaction_id}`}>
                      <bdi>{v(m.transaction_ref)}</bdi>
                    </a>
                  </td>
                  <td>{m.kind}</td>
                  <td>{m.counterparty ? <bdi>{v(m.counterparty)}</bdi> : '—'}</td>
                  <td class="num">{m.last_status ?? '—'}</td>
                  <td>{m.last_error ? <bdi>{v(m.last_error)}</bdi> : '—'}</td>
                  <td class="num">{m.attempts}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {messages.length === 0 ? (
            <p>No failed travel rule message.</p>
          ) : (
            <p>
              <a id="failed-in-queue" href="/dashboard/travelrule?status=&failed=1">
                Every transaction with a failed message, in the Travel Rule queue
              </a>
            </p>
          )}
        </section>
        <section id="sent-after-end" aria-labelledby="h-sent-after-end">
          <h2 id="h-sent-after-end">Deposits sent after they ended</h2>
          <table>
            <caption>{`The latest ${SHOWN_ROWS}, newest first: the originator VASP gave a transaction hash after the transfer was rejected or cancelled; the funds may have arrived`}</caption>
            <thead>
              <tr>
                <th scope="col">Given</th>
                <th scope="col">Transaction</th>
                <th scope="col">Status</th>
                <th scope="col">Originator VASP</th>
                <th scope="col">Transaction hash</th>
              </tr>
            </thead>
            <tbody>
              {sentAfterEnd.map((d) => (
                <tr data-transaction={d.transaction_id}>
                  <td>
                    <Time at={d.at} />
                  </td>
                  <td>
                    <a href={`/dashboard/travelrule/${d.transaction_id}`}>
                      <bdi>{v(d.transaction_ref)}</bdi>
                    </a>
                  </td>
                  <td>{d.status}</td>
                  <td>{d.counterparty ? <bdi>{v(d.counterparty)}</bdi> : '—'}</td>
                  <td>
                    <code>{d.tx_hash}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {sentAfterEnd.length === 0 ? <p>None.</p> : null}
        </section>
        <section id="counts" aria-labelledby="h-counts">
          <h2 id="h-counts">Counts</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">What</th>
                <th scope="col" class="num">
                  Count
                </th>
                <th scope="col">Last import</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">Address streams</th>
                <td class="num">{counts.streams}</td>
                <td>—</td>
              </tr>
              <tr>
                <th scope="row">Live AML trackings</th>
                <td class="num">{counts.liveaml}</td>
                <td>—</td>
              </tr>
              {counts.labels.map((l) => (
                <tr data-source={l.source}>
                  <th scope="row">{`Labels: ${l.source}`}</th>
                  <td class="num">{l.count}</td>
                  <td>
                    <Time at={l.last_import_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </Layout>,
    );
  };

  ops.get('/', (c) =>
    page(c, { flash: DONE[c.req.query('done') ?? ''], error: GONE[c.req.query('gone') ?? ''] }),
  );

  ops.post('/backfills', requireRole('admin'), async (c) => {
    const { field, block, badBlock } = await jobFields(c);
    const login = c.get('session').operator.login;
    if (block('from') === undefined || badBlock)
      return page(c, { error: 'From and to must be block numbers; nothing was started.' });
    try {
      const { backfill, note } = await requestBackfill(sql, {
        network: field('network'),
        from: block('from')!,
        to: block('to'),
        requestedBy: login,
      });
      return page(c, {
        flash: `Backfill #${backfill.id} of ${backfill.network}, blocks ${backfill.from_block}–${backfill.to_block}, started.${note ? ` Note: ${note}.` : ''}`,
      });
    } catch (err) {
      if (err instanceof BackfillRefused) return page(c, { error: `Not started: ${err.message}.` });
      throw err;
    }
  });

  ops.post('/retraces', requireRole('admin'), async (c) => {
    const { field, block, badBlock } = await jobFields(c);
    if (badBlock)
      return page(c, { error: 'From and to must be block numbers; nothing was started.' });
    try {
      const { backfill, note } = await requestRetrace(sql, {
        network: field('network'),
        from: block('from'),
        to: block('to'),
        requestedBy: c.get('session').operator.login,
      });
      return page(c, {
        flash: `Retrace #${backfill.id} of ${backfill.network}, stored blocks ${backfill.from_block}–${backfill.to_block}, started.${note ? ` Note: ${note}.` : ''}`,
      });
    } catch (err) {
      if (err instanceof BackfillRefused) return page(c, { error: `Not started: ${err.message}.` });
      throw err;
    }
  });

  ops.post('/backfills/:id/cancel', requireRole('admin'), async (c) => {
    const b = await cancelBackfill(sql, c.req.param('id') ?? '', c.get('session').operator.login);
    if (!b)
      return page(c, {
        error: 'That backfill is not running (done, failed or cancelled meanwhile).',
      });
    const what = b.kind === 'traces' ? 'Retrace' : 'Backfill';
    return page(c, { flash: `${what} #${b.id} cancelled; what it stored stays.` });
  });

  ops.post('/networks/:network/resume', requireRole('admin'), async (c) => {
    const network = c.req.param('network') ?? '';
    const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const allow = body.allow_deep_reorg === 'true';
    const result = await resumeIndexer(sql, network, allow, c.get('session').operator.login);
    if (!result.found) return page(c, { error: `No indexer has run for ${network}.` });
    return page(c, {
      flash: result.reason
        ? `${network} resumed${allow ? '; its next reorg may pass the depth limit and the finalized block once' : ''}.`
        : `${network} was not halted.`,
    });
  });

  const act =
    (
      done: 'retried' | 'deleted' | 'redelivered',
      run: (c: DashContext) => Promise<{ ok: boolean; audit: Parameters<typeof recordAudit>[1] }>,
    ) =>
    async (c: DashContext) => {
      const { ok, audit } = await run(c);
      if (!ok) return c.redirect(`/dashboard/operations?gone=${done}`, 303);
      await recordAudit(sql, audit);
      return c.redirect(`/dashboard/operations?done=${done}`, 303);
    };

  ops.post(
    '/jobs/:id/retry',
    requireRole('admin'),
    act('retried', async (c) => {
      const id = c.req.param('id') ?? '';
      return {
        ok: await retryJob(sql, id),
        audit: { actor: c.get('session').operator.login, action: 'job_retry', target: id },
      };
    }),
  );
  ops.post(
    '/jobs/:id/delete',
    requireRole('admin'),
    act('deleted', async (c) => {
      const id = c.req.param('id') ?? '';
      return {
        ok: await deleteJob(sql, id),
        audit: { actor: c.get('session').operator.login, action: 'job_delete', target: id },
      };
    }),
  );
  ops.post(
    '/deliveries/:id/redeliver',
    requireRole('admin'),
    act('redelivered', async (c) => {
      const id = c.req.param('id') ?? '';
      return {
        ok: await redeliver(sql, id, deps.travelRule.maxAttempts),
        audit: { actor: c.get('session').operator.login, action: 'webhook_redeliver', target: id },
      };
    }),
  );

  return ops;
}

/** A network's state on the operations page: halted, its node behind, not followed, or running. */
function NetworkState({ n }: { n: IndexerStatus }) {
  if (n.halted_reason) return <strong>{`halted: ${n.halted_reason}`}</strong>;
  if (n.node_behind)
    return <strong>{`node behind since ${n.node_behind_since}: ${n.node_behind}`}</strong>;
  const unfollowed = notFollowed(n);
  return unfollowed ? <strong>{`not followed: ${unfollowed}`}</strong> : <>running</>;
}
