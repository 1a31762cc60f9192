import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { recordAudit } from '../audit/index.js';
import { ApiError, apiErrorOf, ErrorNumber } from '../errors.js';
import { log } from '../log.js';
import {
  closeOpsSession,
  openOpsSession,
  type OperatorEnv,
  requireOperator,
} from '../operators/index.js';
import {
  acceptByOperator,
  cancelByOperator,
  getTransaction,
  listHistory,
  listMessages,
  listTransactions,
  readPayload,
  recordAnswerByOperator,
  rejectByOperator,
  sendMessageAgain,
  STATUSES,
  type TravelRuleDeps,
  type TravelRuleTransaction,
} from '../travelrule/index.js';
import { readJsonBody } from './body.js';
import { announcesBody } from './admission.js';
import { originAllowed } from '../dashboard/csrf.js';
import type { ProxyTrust } from '../net/proxy.js';
import { isJsonType } from '../net/content-encoding.js';
import { parseInput, intParam, queryParams } from './schemas.js';
import { UUID_RE } from '../ids.js';

/**
 * The operator API (/ops/travelrule/…): the compliance team's decisions for scripts and tools
 * (the web dashboard at /dashboard makes the same through the same service). Operator
 * credentials (not API keys; `tollgate operators create`): a session token from POST
 * /ops/session (basic auth, and a TOTP code in X-Tollgate-OTP for an operator with a second
 * factor) as Bearer, or basic auth on each request for an operator who has no second factor and
 * whose role requires none (src/operators/auth.ts); viewers read, reviewers decide. Answers use the API's
 * envelope and error body; a status the decision does not fit is 409, an unknown id 404.
 * Reading a transaction's personal data, and every decision, is written to the audit log with
 * the operator's login (never the data).
 */

function opsError(err: unknown): never {
  throw apiErrorOf(err, 'http');
}

/** A transaction as operators see it in a list: no personal data, no callback secrets. */
function summary(t: TravelRuleTransaction) {
  return {
    id: t.id,
    direction: t.direction,
    transaction_ref: t.transaction_ref,
    status: t.status,
    asset: t.asset,
    network: t.network,
    amount: t.amount,
    decimals: t.decimals,
    counterparty_vasp_id: t.counterparty_vasp_id,
    counterparty_protocol: t.counterparty_protocol,
    counterparty_email: t.counterparty_email,
    counterparty_reason: t.counterparty_reason,
    counterparty_stated_name: t.counterparty_stated_name,
    counterparty_stated_lei: t.counterparty_stated_lei,
    counterparty_transliteration: t.counterparty_transliteration,
    beneficiary_address: t.beneficiary_address,
    tx_hash: t.tx_hash,
    originator_score: t.originator_score,
    beneficiary_score: t.beneficiary_score,
    screening: t.screening,
    threshold: t.threshold,
    created_at: t.created_at.toISOString(),
    updated_at: t.updated_at.toISOString(),
  };
}

const ListQuery = z.object({
  status: z.enum(STATUSES).optional(),
  direction: z.enum(['outgoing', 'incoming']).optional(),
  page: intParam({ min: 1, max: 1_000_000, default: 1, description: 'Page, from 1.' }),
  limit: intParam({ min: 1, max: 100, default: 50, description: 'Items per page.' }),
});

/** No body, or {}: a session opened, a message sent again. */
const EmptyBody = z.object({}).strict();
const AcceptBody = z.object({ email: z.string().min(3).max(254).optional() }).strict();
const ReasonBody = z.object({ reason: z.string().max(1000) }).strict();
const AnswerBody = z.union(
  [
    z
      .object({ approved: z.literal(true), address: z.string().min(1).max(256).optional() })
      .strict(),
    z.object({ rejected: z.string().min(1).max(1000) }).strict(),
  ],
  {
    error:
      'the body must be {"approved": true, "address"?: "…"} or {"rejected": "<reason, 1 to 1000 characters>"}, nothing else',
  },
);

function idParam(c: Context): string {
  const id = c.req.param('id') ?? '';
  if (!UUID_RE.test(id))
    throw new ApiError(404, ErrorNumber.ROUTE_NOT_FOUND, 'no travel rule transaction with this id');
  return id.toLowerCase();
}

/**
 * The operator API is for programs, never for a page in a browser: a request a browser marks as
 * from another site (Sec-Fetch-Site), or whose Origin names another host, is refused, and a body
 * must be labelled JSON. Otherwise a page anywhere could post a form (text/plain holds JSON) to it,
 * and the browser would add the operator's Basic credentials it kept after this API's 401
 * challenge: a cross-site request forgery of approvals, rejections, or an accept that sends the
 * view link to an address of the page's choosing.
 */
function sameSiteOnly(trustProxy: ProxyTrust | null) {
  return async (c: Context, next: () => Promise<void>) => {
    const site = c.req.header('sec-fetch-site');
    if (
      (site !== undefined && site !== 'same-origin' && site !== 'none') ||
      !originAllowed(c, trustProxy)
    )
      throw new ApiError(
        403,
        ErrorNumber.FORBIDDEN,
        'The operator API does not take requests from web pages of another origin.',
      );
    if (announcesBody(c) && !isJsonType(c.req.header('content-type') ?? '')) {
      const length = c.req.header('content-length');
      if (length === undefined || Number(length) > 0)
        throw new ApiError(
          415,
          ErrorNumber.BAD_REQUEST,
          'The operator API takes JSON bodies only (Content-Type: application/json).',
        );
    }
    await next();
  };
}

export function opsRoutes(deps: TravelRuleDeps, trustProxy: ProxyTrust | null): Hono<OperatorEnv> {
  const ops = new Hono<OperatorEnv>();
  ops.use('*', sameSiteOnly(trustProxy));
  const ok = (c: Context, data: unknown, extra: Record<string, unknown> = {}) =>
    c.json({ code: 0, message: 'OK', data, ...extra });
  const body = async (c: Context) => {
    const given = await readJsonBody(c);
    return given === undefined ? {} : given;
  };

  // No body, or {}: the credentials are in the headers (checked first, as on every route).
  ops.post(
    '/session',
    openOpsSession(deps.sql, deps.keyring, async (c) => {
      const given = await readJsonBody(c);
      if (given !== undefined) parseInput(EmptyBody, given);
    }),
  );
  ops.delete('/session', requireOperator(deps.sql, 'viewer'), closeOpsSession(deps.sql));

  ops.get('/travelrule/transactions', requireOperator(deps.sql, 'viewer'), async (c) => {
    const q = parseInput(ListQuery, queryParams(c));
    const { rows, total } = await listTransactions(deps.sql, q);
    return ok(c, rows.map(summary), { page_count: Math.ceil(total / q.limit) });
  });

  ops.get('/travelrule/pending', requireOperator(deps.sql, 'viewer'), async (c) => {
    const q = parseInput(ListQuery, { ...queryParams(c), status: 'PENDING' });
    const { rows, total } = await listTransactions(deps.sql, q);
    return ok(c, rows.map(summary), { page_count: Math.ceil(total / q.limit) });
  });

  ops.get('/travelrule/transactions/:id', requireOperator(deps.sql, 'viewer'), async (c) => {
    const id = idParam(c);
    const t = await getTransaction(deps.sql, id);
    if (!t)
      throw new ApiError(
        404,
        ErrorNumber.ROUTE_NOT_FOUND,
        'no travel rule transaction with this id',
      );
    const ivms101 = await readPayload(deps.sql, deps.keyring, id);
    log.info(
      { request_id: c.get('requestId'), login: c.get('operator').login, travelrule_id: id },
      'operator read travel rule personal data',
    );
    await recordAudit(deps.sql, {
      actor: c.get('operator').login,
      action: 'travelrule_view',
      target: id,
      details: { via: 'api' },
    });
    const history = (await listHistory(deps.sql, id)).map((h) => ({
      ...h,
      at: h.at.toISOString(),
    }));
    const messages = (await listMessages(deps.sql, id)).map((m) => ({
      id: m.id,
      kind: m.kind,
      status: m.status,
      attempts: m.attempts,
      last_status: m.last_status,
      last_error: m.last_error,
      request_id: m.request_id,
      created_at: m.created_at.toISOString(),
      sent_at: m.sent_at?.toISOString() ?? null,
    }));
    return ok(c, { ...summary(t), ivms101, history, messages });
  });

  ops.post(
    '/travelrule/transactions/:id/accept',
    requireOperator(deps.sql, 'reviewer'),
    async (c) => {
      const id = idParam(c);
      const b = parseInput(AcceptBody, await body(c));
      const status = await acceptByOperator(
        deps,
        c.get('operator').login,
        id,
        b.email ? { email: b.email } : {},
      ).catch(opsError);
      await recordAudit(deps.sql, {
        actor: c.get('operator').login,
        action: 'travelrule_accept',
        target: id,
        // Where the e-mail went when the operator named the address.
        details: { status, via: 'api', ...(b.email ? { email: b.email } : {}) },
      });
      return ok(c, { status });
    },
  );

  ops.post(
    '/travelrule/transactions/:id/reject',
    requireOperator(deps.sql, 'reviewer'),
    async (c) => {
      const id = idParam(c);
      const b = parseInput(ReasonBody, await body(c));
      const status = await rejectByOperator(deps, c.get('operator').login, id, b.reason).catch(
        opsError,
      );
      await recordAudit(deps.sql, {
        actor: c.get('operator').login,
        action: 'travelrule_reject',
        target: id,
        details: { status, via: 'api' },
      });
      return ok(c, { status });
    },
  );

  ops.post(
    '/travelrule/transactions/:id/cancel',
    requireOperator(deps.sql, 'reviewer'),
    async (c) => {
      const id = idParam(c);
      const b = parseInput(ReasonBody, await body(c));
      const status = await cancelByOperator(deps, c.get('operator').login, id, b.reason).catch(
        opsError,
      );
      await recordAudit(deps.sql, {
        actor: c.get('operator').login,
        action: 'travelrule_cancel',
        target: id,
        details: { status, via: 'api' },
      });
      return ok(c, { status });
    },
  );

  ops.post(
    '/travelrule/transactions/:id/answer',
    requireOperator(deps.sql, 'reviewer'),
    async (c) => {
      const id = idParam(c);
      const b = parseInput(AnswerBody, await body(c));
      const status = await recordAnswerByOperator(deps, c.get('operator').login, id, b).catch(
        opsError,
      );
      await recordAudit(deps.sql, {
        actor: c.get('operator').login,
        action: 'travelrule_answer',
        target: id,
        details: { status, via: 'api' },
      });
      return ok(c, { status });
    },
  );

  // A failed message sent again, or a pending one sent now (README, Travel Rule).
  ops.post(
    '/travelrule/transactions/:id/messages/:message_id/send',
    requireOperator(deps.sql, 'reviewer'),
    async (c) => {
      const id = idParam(c);
      const messageId = c.req.param('message_id') ?? '';
      parseInput(EmptyBody, await body(c));
      const sent = await sendMessageAgain(deps.sql, {
        transactionId: id,
        messageId,
        actor: c.get('operator').login,
        maxAttempts: deps.maxAttempts,
        via: 'api',
      }).catch(opsError);
      return ok(c, {
        message_id: messageId,
        kind: sent.kind,
        was: sent.was,
        status: 'pending',
      });
    },
  );

  return ops;
}
