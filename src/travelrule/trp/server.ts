import { TLSSocket } from 'node:tls';
import { Hono, type Context } from 'hono';
import { NO_PEER, type TrpPeer } from '../peer.js';
import { describeError, ErrorNumber, errorBody, PermanentError } from '../../errors.js';
import { databaseCannotServe } from '../../db/unavailable.js';
import { log } from '../../log.js';
import {
  TRP_VERSION,
  parseConfirmation,
  parseInquiry,
  parseResolution,
  type Confirmation,
  type InboundInquiry,
  type Resolution,
} from './messages.js';
import type { DtiTable } from './assets.js';
import type { TrpIdentity } from './identity.js';
import { badStrings, parseJsonExact, utf8Text } from '../../json.js';
import { isJsonType, unsupportedEncoding } from '../../net/content-encoding.js';

/**
 * The inbound side of TRP: three POST endpoints, each addressed by a token we handed out (the
 * inquiry URL of a counterpart, or the callback URLs of one transfer). This module checks the
 * protocol (headers, size, JSON, message shape); the handlers own state and storage.
 *
 * Order of checks: api-version, request-identifier, token shape, body size, JSON, message.
 * Every answer, errors included, carries `api-version` and echoes a valid `request-identifier`.
 * Error body: `{ code, status, message }` with our error numbers (as the main API). Neither the
 * body nor the token is ever logged.
 */

/** What the protocol layer knows of a request: its headers, and the TLS connection it came on. */
export interface TrpMeta {
  requestId: string;
  extensions: string[];
  peer: TrpPeer;
}

export interface TrpInboundHandlers {
  inquiry(token: string, inquiry: InboundInquiry, meta: TrpMeta): Promise<Resolution>;
  resolution(token: string, resolution: Resolution, meta: TrpMeta): Promise<void>;
  confirmation(token: string, confirmation: Confirmation, meta: TrpMeta): Promise<void>;
}

/**
 * The client certificate of the request's TLS connection (the mutual-TLS listener asks for one
 * and lets the handshake finish without one, so that a refusal is a readable 403). Its key was
 * proven in the handshake; its validity dates are checked here, as no CA chain is: the directory
 * pins the certificate itself.
 */
function peerOf(c: Context): TrpPeer {
  const socket = (c.env as { incoming?: { socket?: unknown } } | undefined)?.incoming?.socket;
  if (!(socket instanceof TLSSocket)) return NO_PEER;
  const cert = socket.getPeerCertificate();
  if (!cert?.fingerprint256) return NO_PEER;
  const now = Date.now();
  if (Date.parse(cert.valid_from) > now || Date.parse(cert.valid_to) < now)
    throw new Refusal(403, 'the client certificate is expired or not valid yet');
  return { certificate: cert.fingerprint256 };
}

/**
 * Thrown by handlers: unknown token → 404, the transfer is not in a state for this message → 409,
 * a sender over its rate → 429 (with the seconds to wait).
 */
export class TrpHttpError extends PermanentError {
  constructor(
    readonly status: 400 | 403 | 404 | 409 | 429 | 503,
    message: string,
    readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = 'TrpHttpError';
  }
}

export const TRP_MAX_BODY_BYTES = 1024 * 1024;
const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;
const MAX_EXTENSIONS = 32;

type ErrorStatus = 400 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 503;
/** TRP's error body carries the API's error number of the status. */
const ERROR_NUMBERS: Record<ErrorStatus, number> = {
  400: ErrorNumber.BAD_REQUEST,
  403: ErrorNumber.FORBIDDEN,
  404: ErrorNumber.ROUTE_NOT_FOUND,
  409: ErrorNumber.CONFLICT,
  413: ErrorNumber.PAYLOAD_TOO_LARGE,
  415: ErrorNumber.BAD_REQUEST,
  429: ErrorNumber.RATE_LIMITED,
  500: ErrorNumber.INTERNAL,
  503: ErrorNumber.UNAVAILABLE,
};

class Refusal extends PermanentError {
  constructor(
    readonly status: ErrorStatus,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The versions whose content this endpoint implements: TRP 3.1 ("3.1", "3.1.0", any 3.1.x).
 * Another version may define messages or rules it does not know, so it is refused by name.
 */
function supportedVersion(value: string): boolean {
  return /^3\.1(\.\d+)?$/.test(value.trim());
}

/** A request-identifier as the spec allows it: any token (a UUID is common); printable, no spaces. */
const REQUEST_ID = /^[\x21-\x7e]{1,200}$/;

/**
 * Why a body was not read as JSON. Two kinds of valid JSON are refused too, and said so: a key
 * given twice with different values (which one would be meant?), and nesting too deep to read.
 */
function jsonRefusal(err: unknown): string {
  if (err instanceof RangeError) return 'body nests too deeply to be read';
  if (err instanceof SyntaxError && err.message.startsWith('Duplicate key'))
    return 'body gives a key twice with different values';
  return 'body is not JSON';
}

/** The body as text, refusing (413) once it passes the limit without reading the rest. */
async function readBody(req: Request): Promise<string> {
  const declared = Number(req.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > TRP_MAX_BODY_BYTES)
    throw new Refusal(413, `request body larger than ${TRP_MAX_BODY_BYTES} bytes`);
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > TRP_MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw new Refusal(413, `request body larger than ${TRP_MAX_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  const text = utf8Text(Buffer.concat(chunks));
  if (text === undefined) throw new Refusal(400, 'body is not valid UTF-8');
  return text;
}

type Endpoint = 'inquiry' | 'resolution' | 'confirmation';

/** Runs one endpoint: the protocol checks, then `run`, whose result is the 200 body. */
async function serve(
  c: Context,
  endpoint: Endpoint,
  run: (token: string, body: unknown, meta: TrpMeta) => Promise<unknown>,
  admit: ((peer: TrpPeer) => Promise<void>) | undefined,
): Promise<Response> {
  c.header('api-version', TRP_VERSION);
  let requestId: string | undefined;
  try {
    const version = c.req.header('api-version');
    if (version === undefined || version.trim() === '')
      throw new Refusal(400, 'api-version header is required');
    if (!supportedVersion(version))
      throw new Refusal(
        400,
        `api-version is not supported: this endpoint speaks TRP ${TRP_VERSION} (api-version 3.1 or 3.1.x)`,
      );
    const given = c.req.header('request-identifier');
    if (given === undefined || given.trim() === '')
      throw new Refusal(400, 'request-identifier header is required');
    if (!REQUEST_ID.test(given.trim()))
      throw new Refusal(
        400,
        'request-identifier must be 1 to 200 printable characters without spaces',
      );
    requestId = given.trim();
    c.header('request-identifier', requestId);
    const extensions = (c.req.header('api-extensions') ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean)
      .slice(0, MAX_EXTENSIONS);

    const token = c.req.param('token') ?? '';
    if (!TOKEN.test(token)) throw new Refusal(404, 'unknown TRP endpoint');
    const peer = peerOf(c);
    // A sender that can be refused from its certificate alone learns nothing about the body.
    await admit?.(peer);

    const encoding = unsupportedEncoding(c.req.header('content-encoding'));
    if (encoding !== undefined)
      throw new Refusal(
        415,
        `Content-Encoding ${encoding} is not supported: send the body uncompressed`,
      );
    // TRP bodies are JSON; a body labelled as something else is refused as TRISA's handler
    // refuses it. None given is taken (some senders leave it out).
    const type = c.req.header('content-type');
    if (type !== undefined && !isJsonType(type))
      throw new Refusal(415, 'content-type must be application/json');
    const text = await readBody(c.req.raw);
    let body: unknown;
    try {
      // The inquiry's amount is read from its exact text (parseJsonExact): 18 decimals are no float.
      body = parseJsonExact(text, ['amount']);
    } catch (err) {
      throw new Refusal(400, jsonRefusal(err));
    }
    // Only an escape can make a NUL or half a surrogate pair in a parsed string; Postgres text
    // can store neither.
    const bad = badStrings(body, text);
    if (bad === 'nul')
      throw new Refusal(400, 'strings must not contain the NUL character (\\u0000)');
    if (bad === 'surrogate')
      throw new Refusal(400, 'strings must not contain half of a UTF-16 surrogate pair');
    const result = await run(token, body, { requestId, extensions, peer });
    // A resolution or confirmation is taken with 204 and no body, as TRP implementations answer.
    return result === undefined ? c.body(null, 204) : c.json(result, 200);
  } catch (err) {
    const unavailable = trpDatabaseUnavailable(c, err, { endpoint, request_id: requestId });
    if (unavailable) return unavailable;
    const status = err instanceof Refusal || err instanceof TrpHttpError ? err.status : 500;
    const number = ERROR_NUMBERS[status];
    if (status === 500) {
      log.error(
        { endpoint, request_id: requestId, error: describeError(err) },
        'TRP request failed',
      );
      return c.json(
        errorBody(number, `internal error${requestId ? ` (request-identifier ${requestId})` : ''}`),
        500,
      );
    }
    log.info(
      { endpoint, request_id: requestId, status, reason: (err as Error).message },
      'TRP request refused',
    );
    if (status === 503) c.header('retry-after', '5');
    if (status === 429) c.header('retry-after', String((err as TrpHttpError).retryAfterS ?? 60));
    if (status === 413) c.header('connection', 'close');
    return c.json(errorBody(number, (err as Error).message), status);
  }
}

/**
 * The answer a TRP peer gets when the database is down or cannot serve its request now (a restart,
 * a failover, no free connection): 503 with Retry-After, so that it retries; nothing of its
 * message was kept. Undefined for any other failure.
 */
export function trpDatabaseUnavailable(
  c: Context,
  err: unknown,
  logFields: Record<string, unknown>,
): Response | undefined {
  const reason = databaseCannotServe(err);
  if (!reason) return undefined;
  log.warn(
    { ...logFields, reason, error: describeError(err) },
    'TRP request answered 503: the database cannot serve it now',
  );
  c.header('retry-after', '5');
  return c.json(errorBody(ERROR_NUMBERS[503], 'temporarily unavailable; retry later'), 503);
}

function validated<T>(result: { ok: true; value: T } | { ok: false; message: string }): T {
  if (!result.ok) throw new Refusal(400, result.message);
  return result.value;
}

/**
 * The TRP endpoints, to be mounted with `app.route('/', trpRoutes(handlers))`, and `GET /identity`
 * when `identity` is given (src/travelrule/trp/identity.ts). `admit`, when
 * given, runs before the body is read and may refuse the connection's sender outright (throwing a
 * TrpHttpError); the handlers still check that the sender is the one the token belongs to.
 */
export function trpRoutes(
  handlers: TrpInboundHandlers,
  dtis: DtiTable,
  admit?: (peer: TrpPeer) => Promise<void>,
  identity?: () => TrpIdentity,
): Hono {
  const app = new Hono();
  // Identity discovery: public (what any counterparty may learn before it sends), so no client
  // certificate, api-version or request-identifier is asked for; the answer says the version
  // spoken, as every TRP answer does.
  if (identity)
    app.get('/identity', (c) =>
      c.body(JSON.stringify(identity()), 200, {
        'content-type': 'application/json',
        'api-version': TRP_VERSION,
      }),
    );
  app.post('/trp/v3/inquiries/:token', (c) =>
    serve(
      c,
      'inquiry',
      (token, body, meta) => handlers.inquiry(token, validated(parseInquiry(body, dtis)), meta),
      admit,
    ),
  );
  app.post('/trp/v3/resolutions/:token', (c) =>
    serve(
      c,
      'resolution',
      async (token, body, meta) => {
        await handlers.resolution(token, validated(parseResolution(body)), meta);
        return undefined;
      },
      admit,
    ),
  );
  app.post('/trp/v3/confirmations/:token', (c) =>
    serve(
      c,
      'confirmation',
      async (token, body, meta) => {
        await handlers.confirmation(token, validated(parseConfirmation(body)), meta);
        return undefined;
      },
      admit,
    ),
  );
  return app;
}
