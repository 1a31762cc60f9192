import type { Hono } from 'hono';
import { apiErrorOf } from '../errors.js';
import {
  receiveConfirmation,
  receiveInquiry,
  receiveResolution,
  type TravelRuleDeps,
  TrpHttpError,
  trpRoutes,
} from '../travelrule/index.js';

/** A refusal as TRP's answer: unknown token 404, wrong state 409, bad content 400. */
function trpError(err: unknown): never {
  throw new TrpHttpError(
    apiErrorOf(err, 'http').httpStatus as TrpHttpError['status'],
    (err as Error).message,
  );
}

/**
 * The inbound TRP endpoints (under /trp/v3, outside /v2: other VASPs have no API key). The
 * token in each path is the credential: an inquiry URL handed to one directory VASP, or the
 * callback URL of one transfer. Mutual TLS, where a counterparty asks for it, belongs to the
 * TLS-terminating proxy in front (README).
 */
export function trpInbound(deps: TravelRuleDeps): Hono {
  return trpRoutes(
    {
      inquiry: (token, inquiry, meta) =>
        receiveInquiry(deps, token, inquiry, meta.requestId).catch(trpError),
      resolution: (token, resolution) => receiveResolution(deps, token, resolution).catch(trpError),
      confirmation: (token, confirmation) =>
        receiveConfirmation(deps, token, confirmation).catch(trpError),
    },
    deps.dtis,
  );
}
