import { Hono } from 'hono';
import { storableDay } from '../../dates.js';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type AuditAction, recordAudit } from '../../audit/index.js';
import { apiErrorOf } from '../../errors.js';
import { log } from '../../log.js';
import { BASE_TAGS } from '../../aml/index.js';
import type { Sql } from '../../db/index.js';
import { listOperators, roleAllows } from '../../operators/index.js';
import {
  acceptByOperator,
  addNote,
  assignTransaction,
  cancelByOperator,
  type Direction,
  getAssignment,
  listNotes,
  DecryptionError,
  getTransaction,
  getVasp,
  listHistory,
  listMessages,
  readPayload,
  recordAnswerByOperator,
  rejectByOperator,
  sendMessageAgain,
  type SealedParties,
  type Status,
  STATUSES,
  TravelRuleError,
} from '../../travelrule/index.js';
import {
  csvDownload,
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
import { exportTransactions, searchTransactions, type TransactionSearch } from '../queries.js';
import { queueCsv } from '../queue-csv.js';
import { UUID_RE } from '../../ids.js';

/**
 * /dashboard/travelrule: the queue with its search, one transaction's page, and the decisions
 * (accept, reject, cancel, record an e-mailed VASP's answer). Decisions call the same service
 * functions as the operator API with the operator's login as the actor, are written to the
 * audit log, and redirect (303) back to the transaction with a flash message.
 */

/** Fixed flash texts by the `done` query value (nothing from the URL is echoed). */
const DONE: Record<string, string> = {
  accept: 'Accepted.',
  reject: 'Rejected. The reason is kept in the history.',
  cancel: 'Cancelled. The reason is kept in the history.',
  answer: "The beneficiary VASP's answer is recorded.",
  note: 'Note added.',
  assign: 'Assigned.',
  unassign: 'Nobody is assigned now.',
  assign_same: 'Already assigned so: nothing changed.',
  send_again: 'The message is sent again now, with a fresh round of attempts.',
  send_now: 'The message is sent now instead of at the end of its backoff.',
};

function readFilters(c: DashContext): {
  filters: Filters;
  search: TransactionSearch;
  error?: string;
} {
  const q = c.req.query();
  const filters: Filters = {
    ref: (q.ref ?? '').slice(0, 200),
    // No status parameter at all: the pending queue. An explicit empty one: every status.
    status: q.status === undefined ? 'PENDING' : q.status,
    direction: q.direction ?? '',
    from: q.from ?? '',
    to: q.to ?? '',
    assignee: (q.assignee ?? '').slice(0, 200),
    failed: q.failed === '1' ? '1' : '',
    score: (q.score ?? '').trim(),
    tag: q.tag ?? '',
  };
  const problems: string[] = [];
  if (filters.status !== '' && !(STATUSES as readonly string[]).includes(filters.status))
    problems.push('Status: not a known status.');
  if (!['', 'incoming', 'outgoing'].includes(filters.direction))
    problems.push('Direction: must be incoming or outgoing.');
  if (filters.from !== '' && !storableDay(filters.from))
    problems.push('Created from: must be a date (YYYY-MM-DD).');
  if (filters.to !== '' && !storableDay(filters.to))
    problems.push('Created to: must be a date (YYYY-MM-DD).');
  if (filters.score !== '' && !/^(100|[1-9]?[0-9])$/.test(filters.score))
    problems.push('Score at least: must be a whole number from 0 to 100.');
  if (filters.tag !== '' && !(BASE_TAGS as readonly string[]).includes(filters.tag))
    problems.push('Tag: not a known tag.');
  if (problems.length)
    return {
      filters: {
        ...filters,
        status: '',
        direction: '',
        from: '',
        to: '',
        score: '',
        tag: '',
      },
      search: {},
      error: problems.join(' '),
    };
  return {
    filters,
    search: {
      status: (filters.status || undefined) as Status | undefined,
      direction: (filters.direction || undefined) as Direction | undefined,
      ref: filters.ref,
      from: filters.from || undefined,
      to: filters.to || undefined,
      assignee: filters.assignee || undefined,
      failed: filters.failed === '1',
      minScore: filters.score === '' ? undefined : Number(filters.score),
      tag: filters.tag || undefined,
    },
  };
}

/** Operators a case can be assigned to: active reviewers and admins, by login. */
async function assignableLogins(sql: Sql): Promise<string[]> {
  return (await listOperators(sql))
    .filter((o) => !o.disabled_at && roleAllows(o.role, 'reviewer'))
    .map((o) => o.login);
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
  const [vasp, history, messages, notes, assignment, assignable, parties] = await Promise.all([
    t.counterparty_vasp_id ? getVasp(sql, t.counterparty_vasp_id) : undefined,
    listHistory(sql, id),
    listMessages(sql, id),
    listNotes(sql, deps.travelRule.keyring, id),
    getAssignment(sql, id),
    assignableLogins(sql),
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
      notes={notes}
      assignment={assignment}
      assignable={assignable}
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
    const { filters, search, error } = readFilters(c);
    const page = pageParam(c.req.query('page'));
    const [{ rows, total }, assignable] = await Promise.all([
      error
        ? { rows: [], total: 0 }
        : searchTransactions(sql, { ...search, page, limit: PAGE_SIZE }),
      assignableLogins(sql),
    ]);
    return render(
      c,
      <TransactionsPage
        session={c.get('session')}
        filters={filters}
        rows={rows}
        total={total}
        page={page}
        limit={PAGE_SIZE}
        assignable={assignable}
        error={error}
      />,
      error ? 400 : 200,
    );
  });

  // The queue as CSV: what the same filters find, in the same order, without personal data.
  tr.get('/export', async (c) => {
    const { filters, search, error } = readFilters(c);
    if (error) return errorPage(c, 400, 'Nothing exported', error);
    const rows = await exportTransactions(sql, search);
    await recordAudit(sql, {
      actor: c.get('session').operator.login,
      action: 'travelrule_export',
      details: {
        transactions: rows.length,
        ref: filters.ref || null,
        status: filters.status || null,
        direction: filters.direction || null,
        from: filters.from || null,
        to: filters.to || null,
        assignee: filters.assignee || null,
        failed: filters.failed === '1',
        score: filters.score || null,
        tag: filters.tag || null,
      },
    });
    return csvDownload(c, 'travelrule', queueCsv(rows));
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
          // Where an accept sent the e-mail when the operator named the address.
          details: {
            status,
            ...(decision === 'accept' && values.email.trim() ? { email: values.email.trim() } : {}),
          },
        });
        return c.redirect(`/dashboard/travelrule/${id.toLowerCase()}?done=${decision}`, 303);
      } catch (err) {
        return refused(c, deps, id.toLowerCase(), err, values, (e) => friendly(decision, e));
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

  // Casework: a note, the assignment. Reviewers and admins (the ones who decide).
  tr.post('/:id/note', requireRole('reviewer'), async (c) => {
    const id = c.req.param('id');
    if (!UUID_RE.test(id))
      return errorPage(c, 404, 'Not found', 'There is no travel rule transaction with this id.');
    const text = field(c, 'note');
    try {
      await addNote(
        sql,
        deps.travelRule.keyring,
        id.toLowerCase(),
        c.get('session').operator.login,
        text,
      );
      return c.redirect(`/dashboard/travelrule/${id.toLowerCase()}?done=note#notes`, 303);
    } catch (err) {
      return refused(c, deps, id.toLowerCase(), err, { note: text });
    }
  });

  tr.post('/:id/assign', requireRole('reviewer'), async (c) => {
    const id = c.req.param('id');
    if (!UUID_RE.test(id))
      return errorPage(c, 404, 'Not found', 'There is no travel rule transaction with this id.');
    const login = c.get('session').operator.login;
    // "Assign to me" sends me=1; the select sends a login, or '' for nobody.
    const assignee = field(c, 'me') === '1' ? login : field(c, 'assignee').trim() || null;
    try {
      const { changed } = await assignTransaction(sql, id.toLowerCase(), assignee, login);
      const done = !changed ? 'assign_same' : assignee === null ? 'unassign' : 'assign';
      return c.redirect(`/dashboard/travelrule/${id.toLowerCase()}?done=${done}#casework`, 303);
    } catch (err) {
      return refused(c, deps, id.toLowerCase(), err);
    }
  });

  // A message to the other VASP: a failed one sent again, a pending one sent now.
  tr.post('/:id/messages/:message_id/send', requireRole('reviewer'), async (c) => {
    const id = c.req.param('id');
    if (!UUID_RE.test(id))
      return errorPage(c, 404, 'Not found', 'There is no travel rule transaction with this id.');
    try {
      const { was } = await sendMessageAgain(sql, {
        transactionId: id.toLowerCase(),
        messageId: c.req.param('message_id'),
        actor: c.get('session').operator.login,
        maxAttempts: deps.travelRule.maxAttempts,
      });
      const done = was === 'failed' ? 'send_again' : 'send_now';
      return c.redirect(`/dashboard/travelrule/${id.toLowerCase()}?done=${done}#messages`, 303);
    } catch (err) {
      if (err instanceof TravelRuleError && err.kind === 'not_found')
        return errorPage(c, 404, 'Not found', 'This transaction has no such message.');
      return refused(c, deps, id.toLowerCase(), err);
    }
  });

  return tr;
}

/**
 * A decision, note, assignment or message sent again that the service refused: 404 for an unknown
 * transaction, else the transaction's page again with the reason (in the operator's words when
 * `say` is given) and what was typed, under the refusal's status. Anything but a TravelRuleError
 * is thrown on.
 */
function refused(
  c: DashContext,
  deps: DashboardDeps,
  id: string,
  err: unknown,
  values: TransactionPageProps['values'] = {},
  say: (err: TravelRuleError) => string = (e) => e.message,
): Promise<Response> {
  if (!(err instanceof TravelRuleError)) throw err;
  if (err.kind === 'not_found')
    return errorPage(c, 404, 'Not found', 'There is no travel rule transaction with this id.');
  return showTransaction(
    c,
    deps,
    id,
    { error: say(err), values },
    apiErrorOf(err, 'http').httpStatus as ContentfulStatusCode,
  );
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
