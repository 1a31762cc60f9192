import type { Hono } from 'hono';
import {
  receiveConfirmation,
  receiveInquiry,
  receiveResolution,
  type TravelRuleDeps,
  TravelRuleError,
  TrpHttpError,
  trpRoutes,
} from '../travelrule/index.js';

/** A TravelRuleError as TRP's answer: unknown token 404, wrong state 409, bad content 400. */
function trpError(err: unknown): never {
  if (!(err instanceof TravelRuleError)) throw err;
  switch (err.kind) {
    case 'not_found':
      throw new TrpHttpError(404, err.message);
    case 'state':
      throw new TrpHttpError(409, err.message);
    case 'unavailable':
      throw new TrpHttpError(503, err.message);
    default:
      throw new TrpHttpError(400, err.message);
  }
}

/**
 * The inbound TRP endpoints (under /trp/v3, outside /v2: other VASPs have no API key). The
 * token in each path is the credential: an inquiry URL handed to one directory VASP, or the
 * callback URL of one transfer. Mutual TLS, where a counterparty asks for it, belongs to the
 * TLS-terminating proxy in front (README).
 */
export function trpInbound(deps: TravelRuleDeps): Hono {
  return trpRoutes({
    inquiry: (token, inquiry, meta) =>
      receiveInquiry(deps, token, inquiry, meta.requestId).catch(trpError),
    resolution: (token, resolution) => receiveResolution(deps, token, resolution).catch(trpError),
    confirmation: (token, confirmation) =>
      receiveConfirmation(deps, token, confirmation).catch(trpError),
  });
}
