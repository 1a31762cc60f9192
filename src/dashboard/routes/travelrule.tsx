import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type AuditAction, recordAudit } from '../../audit/index.js';
import { apiErrorOf } from '../../errors.js';
import { log } from '../../log.js';
import { roleAllows } from '../../operators/index.js';
import {
  acceptByOperator,
  cancelByOperator,
  DecryptionError,
  getTransaction,
  getVasp,
  listHistory,
  listMessages,
  readPayload,
  recordAnswerByOperator,
  rejectByOperator,
  type SealedParties,
  type Status,
  STATUSES,
  TravelRuleError,
} from '../../travelrule/index.js';
import {
  errorPage,
  field,
  PAGE_SIZE,
  pageParam,
  render,
  requireRole,
  type DashboardDeps,
  type DashContext,
  type DashEnv,
} from '../context.js';
import { TransactionPage, type TransactionPageProps } from '../pages/transaction.js';
import { TransactionsPage, type Filters } from '../pages/transactions.js';
import { searchTransactions } from '../queries.js';
import { UUID_RE } from '../../ids.js';

/**
 * /dashboard/travelrule: the queue with its search, one transaction's page, and the decisions
 * (accept, reject, cancel, record an e-mailed VASP's answer). Decisions call the same service
 * functions as the operator API with the operator's login as the actor, are written to the
 * audit log, and redirect (303) back to the transaction with a flash message.
 */

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const validDay = (v: string) => DAY_RE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));

/** Fixed flash texts by the `done` query value (nothing from the URL is echoed). */
const DONE: Record<string, string> = {
  accept: 'Accepted.',
  reject: 'Rejected. The reason is kept in the history.',
  cancel: 'Cancelled. The reason is kept in the history.',
  answer: "The beneficiary VASP's answer is recorded.",
};

function readFilters(c: DashContext): { filters: Filters; error?: string } {
  const q = c.req.query();
  const filters: Filters = {
    ref: (q.ref ?? '').slice(0, 200),
    // No status parameter at all: the pending queue. An explicit empty one: every status.
    status: q.status === undefined ? 'PENDING' : q.status,
    direction: q.direction ?? '',
    from: q.from ?? '',
    to: q.to ?? '',
  };
  const problems: string[] = [];
  if (filters.status !== '' && !(STATUSES as readonly string[]).includes(filters.status))
    problems.push('Status: not a known status.');
  if (!['', 'incoming', 'outgoing'].includes(filters.direction))
    problems.push('Direction: must be incoming or outgoing.');
  if (filters.from !== '' && !validDay(filters.from))
    problems.push('Created from: must be a date (YYYY-MM-DD).');
  if (filters.to !== '' && !validDay(filters.to))
    problems.push('Created to: must be a date (YYYY-MM-DD).');
  if (problems.length)
    return {
      filters: { ...filters, status: '', direction: '', from: '', to: '' },
      error: problems.join(' '),
    };
  return { filters };
}

async function showTransaction(
  c: DashContext,
  deps: DashboardDeps,
  id: string,
  extra: Partial<TransactionPageProps> = {},
  status: ContentfulStatusCode = 200,
): Promise<Response> {
  const sql = deps.travelRule.sql;
  const t = await getTransaction(sql, id);
  if (!t)
    return errorPage(c, 404, 'Not found', 'There is no travel rule transaction with this id.');
  const session = c.get('session');
  const [vasp, history, messages, parties] = await Promise.all([
    t.counterparty_vasp_id ? getVasp(sql, t.counterparty_vasp_id) : undefined,
    listHistory(sql, id),
    listMessages(sql, id),
    readPayload(sql, deps.travelRule.keyring, id).then(
      (p) => p as SealedParties,
      (err: unknown) => {
        if (err instanceof DecryptionError) return undefined;
        throw err;
      },
    ),
  ]);
  await recordAudit(sql, {
    actor: session.operator.login,
    action: 'travelrule_view',
    target: id,
    details: { via: 'dashboard' },
  });
  log.info(
    { request_id: c.get('requestId'), login: session.operator.login, travelrule_id: id },
    'operator read travel rule personal data',
  );
  return render(
    c,
    <TransactionPage
      t={t}
      counterpartyName={vasp?.name ?? null}
      parties={parties}
      history={history}
      messages={messages}
      canDecide={roleAllows(session.operator.role, 'reviewer')}
      session={session}
      {...extra}
    />,
    status,
  );
}

type Decision = 'accept' | 'reject' | 'cancel' | 'answer';

export function travelRuleRoutes(deps: DashboardDeps): Hono<DashEnv> {
  const sql = deps.travelRule.sql;
  const tr = new Hono<DashEnv>();

  tr.get('/', async (c) => {
    const { filters, error } = readFilters(c);
    const page = pageParam(c.req.query('page'));
    const { rows, total } = error
      ? { rows: [], total: 0 }
      : await searchTransactions(sql, {
          status: (filters.status || undefined) as Status | undefined,
          direction: (filters.direction || undefined) as 'incoming' | 'outgoing' | undefined,
          ref: filters.ref,
          from: filters.from || undefined,
          to: filters.to || undefined,
          page,
          limit: PAGE_SIZE,
        });
    return render(
      c,
      <TransactionsPage
        session={c.get('session')}
        filters={filters}
        rows={rows}
        total={total}
        page={page}
        limit={PAGE_SIZE}
        error={error}
      />,
      error ? 400 : 200,
    );
  });

  tr.get('/:id', async (c) => {
    const id = c.req.param('id');
    if (!UUID_RE.test(id))
      return errorPage(c, 404, 'Not found', 'There is no travel rule transaction with this id.');
    const done = DONE[c.req.query('done') ?? ''];
    return showTransaction(c, deps, id.toLowerCase(), done ? { flash: done } : {});
  });

  const decide =
    (decision: Decision, run: (c: DashContext, login: string, id: string) => Promise<Status>) =>
    async (c: DashContext) => {
      const id = c.req.param('id') ?? '';
      if (!UUID_RE.test(id))
        return errorPage(c, 404, 'Not found', 'There is no travel rule transaction with this id.');
      const login = c.get('session').operator.login;
      const values = {
        reason: field(c, 'reason'),
        email: field(c, 'email'),
        address: field(c, 'address'),
      };
      try {
        const status = await run(c, login, id.toLowerCase());
        await recordAudit(sql, {
          actor: login,
          action: `travelrule_${decision}` as AuditAction,
          target: id.toLowerCase(),
          details: { status },
        });
        return c.redirect(`/dashboard/travelrule/${id.toLowerCase()}?done=${decision}`, 303);
      } catch (err) {
        if (!(err instanceof TravelRuleError)) throw err;
        if (err.kind === 'not_found')
          return errorPage(
            c,
            404,
            'Not found',
            'There is no travel rule transaction with this id.',
          );
        return showTransaction(
          c,
          deps,
          id.toLowerCase(),
          { error: friendly(decision, err), values },
          apiErrorOf(err, 'http').httpStatus as ContentfulStatusCode,
        );
      }
    };

  tr.post(
    '/:id/accept',
    requireRole('reviewer'),
    decide('accept', (c, login, id) => {
      const email = field(c, 'email').trim();
      return acceptByOperator(deps.travelRule, login, id, email ? { email } : {});
    }),
  );
  tr.post(
    '/:id/reject',
    requireRole('reviewer'),
    decide('reject', (c, login, id) =>
      rejectByOperator(deps.travelRule, login, id, field(c, 'reason')),
    ),
  );
  tr.post(
    '/:id/cancel',
    requireRole('reviewer'),
    decide('cancel', (c, login, id) =>
      cancelByOperator(deps.travelRule, login, id, field(c, 'reason')),
    ),
  );
  tr.post(
    '/:id/answer',
    requireRole('reviewer'),
    decide('answer', (c, login, id) => {
      const answer = field(c, 'answer');
      if (answer === 'approved') {
        const address = field(c, 'address').trim();
        return recordAnswerByOperator(
          deps.travelRule,
          login,
          id,
          address ? { approved: true, address } : { approved: true },
        );
      }
      if (answer === 'rejected')
        return recordAnswerByOperator(deps.travelRule, login, id, { rejected: field(c, 'reason') });
      throw new TravelRuleError('invalid', 'answer: must be approved or rejected');
    }),
  );

  return tr;
}

/** The service's message, with the missing-reason case said in the operator's words. */
function friendly(decision: Decision, err: TravelRuleError): string {
  if (err.message === 'reason: a reason is required') {
    return decision === 'answer'
      ? "A reason is required: give the beneficiary VASP's reason."
      : `A reason is required to ${decision}: it is kept in the history.`;
  }
  return err.message;
}
