import { Hono } from 'hono';
import { apiErrorOf, describeError, type DomainError, ErrorNumber, errorBody } from '../errors.js';
import { log } from '../log.js';
import type { Admission } from './admission.js';
import { deadlineAnswer, loggedPath, requestDeadline } from './deadline.js';
import {
  identifySender,
  receiveConfirmation,
  receiveInquiry,
  receiveResolution,
  type TravelRuleDeps,
  TrpHttpError,
  trpDatabaseUnavailable,
  trpRoutes,
} from '../travelrule/index.js';

/** A refusal as TRP's answer: unknown token 404, wrong state 409, bad content 400. */
function trpError(err: unknown): never {
  throw new TrpHttpError(
    apiErrorOf(err, 'http').httpStatus as TrpHttpError['status'],
    (err as Error).message,
    (err as DomainError).retryAfterS,
  );
}

/**
 * The inbound TRP endpoints (under /trp/v3, outside /v2: other VASPs have no API key). The
 * token in each path says what a message is about (an inquiry URL handed to one directory VASP,
 * a Travel Address, the callback URL of one transfer); the client certificate of the connection
 * says who sent it, and both must agree (src/travelrule/peer.ts). `GET /identity` says who this
 * VASP is (src/travelrule/trp/identity.ts). Served by the mutual-TLS
 * listener (createTrpApp) when travel_rule.trp_port is set, else on the API port.
 */
export function trpInbound(deps: TravelRuleDeps): Hono {
  return trpRoutes(
    {
      inquiry: (token, inquiry, meta) =>
        receiveInquiry(deps, token, inquiry, meta.requestId, meta.peer).catch(trpError),
      resolution: (token, resolution, meta) =>
        receiveResolution(deps, token, resolution, meta.requestId, meta.peer).catch(trpError),
      confirmation: (token, confirmation, meta) =>
        receiveConfirmation(deps, token, confirmation, meta.requestId, meta.peer).catch(trpError),
    },
    deps.dtis,
    // While client certificates are required, one that no directory VASP pins (or none) is
    // refused before its message is read; which VASP it must be is checked per message.
    deps.config.trp_require_client_cert
      ? (peer) => identifySender(deps.sql, deps.config, peer).then(() => {}, trpError)
      : undefined,
    () => ({
      name: deps.config.vasp_name,
      ...(deps.config.vasp_lei ? { lei: deps.config.vasp_lei } : {}),
      ...(deps.identityCertificate ? { x509: deps.identityCertificate } : {}),
    }),
  );
}

/**
 * The app of the mutual-TLS TRP listener: the TRP endpoints and nothing else (no API, no
 * dashboard, no metrics on the port other VASPs reach).
 */
export function createTrpApp(
  deps: TravelRuleDeps,
  requestTimeoutMs: number,
  admission?: Admission,
): Hono {
  const app = new Hono();
  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    log.info(
      {
        listener: 'trp',
        method: c.req.method,
        path: loggedPath(c.req.path),
        status: c.res.status,
        duration_ms: Math.round(performance.now() - started),
      },
      'request',
    );
  });
  app.use('*', requestDeadline(requestTimeoutMs, 'trp'));
  if (admission) app.use('*', admission.middleware);
  app.route('/', trpInbound(deps));
  // The body of a request to no endpoint is not read: the connection is not reused.
  app.notFound((c) =>
    c.json(errorBody(ErrorNumber.ROUTE_NOT_FOUND, 'not a TRP endpoint'), 404, {
      connection: 'close',
    }),
  );
  app.onError((err, c) => {
    const pastDeadline = deadlineAnswer(c, err, describeError, { connection: 'close' });
    if (pastDeadline) return pastDeadline;
    c.header('connection', 'close');
    const unavailable = trpDatabaseUnavailable(c, err, { listener: 'trp' });
    if (unavailable) return unavailable;
    log.error({ listener: 'trp', error: describeError(err) }, 'TRP request failed');
    return c.json(errorBody(ErrorNumber.INTERNAL, 'internal error'), 500, { connection: 'close' });
  });
  return app;
}
