import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { announcesBody } from '../api/admission.js';
import { unsupportedEncoding } from '../net/content-encoding.js';
import {
  afterDeadline,
  RequestDeadlineExceeded,
  requestDeadline,
  whileArriving,
} from '../api/deadline.js';
import { databaseCannotServe } from '../db/unavailable.js';
import { recordAudit } from '../audit/index.js';
import { describeError } from '../errors.js';
import { log } from '../log.js';
import { deleteSession, touchSession } from '../operators/index.js';
import { errorPage, type DashboardDeps, type DashContext, type DashEnv } from './context.js';
import { CSRF_FIELD, originAllowed, tokensEqual } from './csrf.js';
import { accountRoutes } from './routes/account.js';
import { auditRoutes } from './routes/audit.js';
import { keyRoutes } from './routes/keys.js';
import {
  CODE_PAGE,
  ENROL_PAGE,
  loginFormValid,
  showCode,
  showLogin,
  stageHome,
  submitCode,
  submitLogin,
} from './routes/login.js';
import { operationsRoutes } from './routes/operations.js';
import { operatorRoutes } from './routes/operators.js';
import { travelRuleRoutes } from './routes/travelrule.js';
import { vaspRoutes } from './routes/vasps.js';
import { webhookRoutes } from './routes/webhooks.js';
import { clearSessionCookie, sessionCookie } from './session.js';

export type { DashboardDeps } from './context.js';

/**
 * The operator dashboard (/dashboard): server-rendered pages for the compliance team and the
 * people who run the appliance. Sessions by cookie (session.ts), CSRF tokens on every form
 * (csrf.ts), roles as the operator API's (viewer reads, reviewer decides, admin manages).
 * Every page is sent with a strict CSP and no-store. Decisions go through the same service
 * functions as the operator API, and what operators do is written to the audit log.
 */

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
  'strict-transport-security': 'max-age=31536000',
};

/** The form's text fields; undefined when one holds a NUL character (Postgres refuses it in text, and no field needs it). */
async function readForm(c: {
  req: { parseBody(): Promise<Record<string, unknown>> };
}): Promise<Record<string, string> | undefined> {
  const body = await c.req.parseBody().catch(() => ({}));
  const fields = Object.entries(body).filter(
    (e): e is [string, string] => typeof e[1] === 'string',
  );
  if (fields.some(([k, v]) => k.includes('\0') || v.includes('\0'))) return undefined;
  return Object.fromEntries(fields);
}

const NUL_MESSAGE = 'A form field holds a NUL character; nothing was changed.';

export function dashboardRoutes(deps: DashboardDeps): Hono<DashEnv> {
  const sql = deps.travelRule.sql;
  const dash = new Hono<DashEnv>();

  dash.use('*', async (c, next) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.header(name, value);
    await next();
  });
  dash.use('*', requestDeadline(deps.requestTimeoutMs, 'dashboard'));

  // The API's checks of a body, answered as pages: a browser shows them to a person.
  const limitBody = bodyLimit({
    maxSize: deps.maxBodyBytes,
    onError: async (c) => {
      // The rest of the body is not read, so the connection cannot be reused.
      const page = await errorPage(
        c as DashContext,
        413,
        'Request too large',
        `The form is larger than ${deps.maxBodyBytes} bytes; nothing was changed.`,
      );
      page.headers.set('connection', 'close');
      return page;
    },
  });
  // A chunked form is read here whole: past the deadline meanwhile, it was still arriving.
  const readBody = whileArriving(limitBody);
  dash.use('*', async (c, next) => {
    if (!announcesBody(c)) return next();
    const encoding = unsupportedEncoding(c.req.header('content-encoding'));
    if (encoding !== undefined)
      return errorPage(
        c,
        415,
        'Request refused',
        `The form was sent compressed (Content-Encoding ${encoding}); nothing was changed.`,
      );
    return readBody(c, next);
  });
  if (deps.admission) dash.use('*', deps.admission.middleware);

  // A POST from another origin is refused before anything reads it.
  dash.use('*', async (c, next) => {
    if (c.req.method === 'POST' && !originAllowed(c, deps.trustProxy ?? null)) {
      return errorPage(
        c,
        403,
        'Request refused',
        'Cross-origin form submission refused (CSRF protection).',
      );
    }
    await next();
  });

  // A NUL in the query (a filter's %00) would reach Postgres, which cannot store it in text: a
  // 500 (found by an outside probe). Refused here for every page.
  dash.use('*', async (c, next) => {
    const query = c.req.url.indexOf('?');
    if (query >= 0 && /%00/.test(c.req.url.slice(query)))
      return errorPage(c, 400, 'Bad request', 'A filter holds a NUL character (%00).');
    await next();
  });

  dash.get('/', (c) => c.redirect('/dashboard/travelrule', 303));
  dash.use('*', async (c, next) =>
    c.req.path === '/dashboard/' ? c.redirect('/dashboard/travelrule', 303) : next(),
  );

  dash.get('/login', showLogin(deps));

  dash.post('/login', async (c) => {
    const form = await readForm(c);
    if (!form) return errorPage(c, 400, 'Bad request', NUL_MESSAGE);
    if (!loginFormValid(c, form)) {
      return errorPage(
        c,
        403,
        'Request refused',
        'The form is missing its CSRF token or it is stale. Reload the login page and try again.',
      );
    }
    return submitLogin(deps)(c, form);
  });

  // Everything below needs a session; a POST also its CSRF token.
  dash.use('*', async (c, next) => {
    const token = sessionCookie(c);
    const session = token ? await touchSession(sql, token, 'dashboard') : undefined;
    if (!session) {
      if (token) clearSessionCookie(c);
      return c.redirect('/dashboard/login', 303);
    }
    // A half-open session reaches its own step and the logout, nothing else.
    const path = c.req.path;
    const allowed =
      path === '/dashboard/logout' ||
      (session.stage === 'code'
        ? path === CODE_PAGE
        : session.stage === 'enrol'
          ? path === ENROL_PAGE || path.startsWith(`${ENROL_PAGE}/`)
          : path !== CODE_PAGE);
    if (!allowed) return c.redirect(stageHome(session), 303);
    c.set('session', session);
    if (c.req.method === 'POST') {
      const form = await readForm(c);
      if (!form) return errorPage(c, 400, 'Bad request', NUL_MESSAGE);
      if (!tokensEqual(session.csrfToken, form[CSRF_FIELD])) {
        log.info(
          { request_id: c.get('requestId'), login: session.operator.login },
          'dashboard form refused: CSRF token missing or wrong',
        );
        return errorPage(
          c,
          403,
          'Request refused',
          'The form is missing its CSRF token or it is wrong. Reload the page and try again.',
        );
      }
      c.set('form', form);
    }
    await next();
  });

  dash.post('/logout', async (c) => {
    const session = c.get('session');
    await deleteSession(sql, session.tokenHash);
    await recordAudit(sql, { actor: session.operator.login, action: 'logout' });
    clearSessionCookie(c);
    return c.redirect('/dashboard/login', 303);
  });

  dash.get('/login/code', showCode());
  dash.post('/login/code', submitCode(deps));

  dash.route('/account', accountRoutes(deps));
  dash.route('/travelrule', travelRuleRoutes(deps));
  dash.route('/audit', auditRoutes(deps));
  dash.route('/vasps', vaspRoutes(deps));
  dash.route('/operations', operationsRoutes(deps));
  dash.route('/operators', operatorRoutes(deps));
  dash.route('/keys', keyRoutes(deps));
  dash.route('/webhooks', webhookRoutes(deps));

  dash.all('*', (c) =>
    errorPage(c, 404, 'Not found', 'There is no dashboard page at this address.'),
  );

  dash.onError((err, c) => {
    const requestId = c.get('requestId');
    if (err instanceof RequestDeadlineExceeded && err.before === 'arriving') {
      // The rest of what was submitted may still come: the connection is not kept.
      c.header('connection', 'close');
      return errorPage(
        c,
        408,
        'Not received in time',
        `What was submitted was not received within ${err.seconds} s; nothing was changed. Submit it again (request id ${requestId}).`,
      );
    }
    if (err instanceof RequestDeadlineExceeded)
      return errorPage(
        c,
        503,
        'No answer in time',
        err.neverRan
          ? `The appliance could not start on this page within ${err.seconds} s (the requests before it are waiting on the database); nothing was changed. Try again in a moment (request id ${requestId}).`
          : err.change
            ? `The database did not answer within ${err.seconds} s. What you submitted may still be applied when it answers: reload the page and check before submitting it again (request id ${requestId}).`
            : `The database did not answer within ${err.seconds} s; try again in a moment (request id ${requestId}).`,
      );
    const late = afterDeadline(c, err, describeError);
    if (late) return late;
    const unavailable = databaseCannotServe(err);
    if (unavailable) {
      log.warn(
        { request_id: requestId, path: c.req.path, reason: unavailable, error: describeError(err) },
        'database cannot serve the dashboard now: answered 503',
      );
      return errorPage(
        c,
        503,
        'Database unavailable',
        `The database cannot serve this page now (${unavailable}); nothing was changed. Try again in a moment (request id ${requestId}).`,
      );
    }
    log.error(
      { request_id: requestId, path: c.req.path, error: describeError(err) },
      'dashboard request failed',
    );
    return errorPage(
      c,
      500,
      'Something went wrong',
      `The page could not be shown (request id ${requestId}).`,
    );
  });
  return dash;
}
