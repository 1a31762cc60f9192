import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import tls from 'node:tls';
import { TLS_VERSIONS } from '../../net/tls-certs.js';
import { PermanentError, RetryableError } from '../../errors.js';
import { stringifyWithBigInts } from '../../json.js';
import { log } from '../../log.js';
import { personalDataUrlRefusal } from '../../urls.js';
import { retryAfterSeconds } from '../../net/retry-after.js';
import { type AllowList, guardedLookup, literalHostAllowed } from '../../net/ssrf.js';
import { TRP_VERSION } from './messages.js';

/**
 * The outbound side of TRP: one POST of one message to another VASP. No retries here: the
 * caller's job decides when to try again, from the error's class (a RetryableError or not). The same SSRF guard as
 * webhooks (the peer's URLs come from the other VASP: an inquiry's callback, an approval's
 * callback), never a redirect, at most 1 MiB of answer read.
 *
 * No error message ever carries the request body: it holds IVMS101 personal data.
 */

/** A TRP request that failed: TrpRetryable or TrpRefused; `status` is the peer's, if it answered. */
export type TrpError = TrpRetryable | TrpRefused;

/**
 * No answer, or one that says "later" (5xx, 408, 429): the job tries again. `retryAfterS`: the
 * seconds a 429 or 503 asked to be left alone (its Retry-After), if it said. `inDoubt`: the
 * request went out whole and its answer never came (a timeout, a cut connection): the peer may
 * have the message.
 */
export class TrpRetryable extends RetryableError {
  constructor(
    message: string,
    readonly status?: number,
    readonly retryAfterS?: number,
    readonly inDoubt = false,
    /** The message without the peer's own words, for logs (see TrpRefused). */
    readonly forLog = message,
  ) {
    super(message);
    this.name = 'TrpError';
  }
}

/** The peer refused, or the request cannot go (a URL the guard refuses): not tried again. */
export class TrpRefused extends PermanentError {
  constructor(
    message: string,
    readonly status?: number,
    /**
     * The message without the peer's own words, for logs: a peer's error text may echo the
     * persons of the request (`originator.name Jane Doe …`), and no log line carries personal
     * data. The message itself, with them, goes to the transfer's record for its readers.
     */
    readonly forLog = message,
  ) {
    super(message);
    this.name = 'TrpError';
  }
}

function trpError(
  message: string,
  retryable: boolean,
  status?: number,
  forLog = message,
): TrpError {
  return retryable
    ? new TrpRetryable(message, status, undefined, false, forLog)
    : new TrpRefused(message, status, forLog);
}

/**
 * A TRP message's answer: 2xx, the peer took it. `body`: its parsed JSON, null when empty or not
 * taken. `unread`: why an answer was not taken (another request-identifier than ours, over the
 * size limit, not JSON): the peer has the message all the same, and what its answer meant comes
 * again on the callback, as a deferred answer's does.
 */
export interface TrpAnswer {
  status: number;
  body: unknown;
  unread?: string;
}

export const MAX_RESPONSE_BYTES = 1024 * 1024;
/** Of a refusing peer's message, this much goes into the error. */
const MAX_PEER_MESSAGE_CHARS = 200;

interface RawResponse {
  status: number;
  requestId: string | undefined;
  retryAfter: string | undefined;
  text: string;
  truncated: boolean;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** A pinned server presented another certificate: nothing was sent to it. */
class PinMismatch extends Error {
  readonly code = 'ECERTPIN';
}

/**
 * A TLS connection to a server the directory pins: the handshake completes whatever CA signed its
 * certificate (a pin names the certificate itself), then the certificate must be one of the
 * pins, or the socket is closed before a byte of the request is written.
 */
function connectPinned(url: URL, opts: TrpPostOptions, deadline: number): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const socket = tls.connect({
      host,
      port: Number(url.port || 443),
      ...(isIP(host) ? {} : { servername: host }),
      lookup: guardedLookup(opts.allow) as never,
      rejectUnauthorized: false,
      ALPNProtocols: ['http/1.1'],
      ...TLS_VERSIONS,
      ...opts.clientCert,
    });
    const timer = setTimeout(
      () =>
        socket.destroy(
          Object.assign(new Error(`no TLS connection within ${opts.timeoutMs} ms`), {
            code: 'ETIMEDOUT',
          }),
        ),
      Math.max(0, deadline - Date.now()),
    );
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      const presented = socket.getPeerCertificate().fingerprint256;
      if (presented && opts.pins!.includes(presented)) return resolve(socket);
      socket.destroy();
      reject(
        new PinMismatch(
          `the server presented a TLS certificate (SHA-256 ${presented ?? 'none'}) that the directory does not pin for this VASP`,
        ),
      );
    });
  });
}

async function send(url: URL, body: string, opts: TrpPostOptions): Promise<RawResponse> {
  const https_ = url.protocol === 'https:';
  const deadline = Date.now() + opts.timeoutMs;
  const pinned = https_ && opts.pins?.length ? await connectPinned(url, opts, deadline) : undefined;
  return new Promise((resolve, reject) => {
    const connection = pinned
      ? { createConnection: () => pinned }
      : {
          lookup: guardedLookup(opts.allow) as never,
          agent: false,
          // One array element per certificate: Node reads only the first of several PEM blocks in one element.
          ...(https_ && opts.ca
            ? { ca: [...tls.rootCertificates, ...(opts.ca.match(PEM_CERTIFICATE) ?? [])] }
            : {}),
          ...(https_ ? opts.clientCert : undefined),
        };
    const req = (https_ ? https : http).request(url, {
      method: 'POST',
      headers: {
        'api-version': TRP_VERSION,
        'request-identifier': opts.requestId,
        'content-type': 'application/json',
        accept: 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      },
      ...connection,
    });
    const timeout = () =>
      req.destroy(
        Object.assign(new Error(`no response within ${opts.timeoutMs} ms`), { code: 'ETIMEDOUT' }),
      );
    // One deadline for connecting, sending and reading the whole answer.
    const timer = setTimeout(timeout, Math.max(0, deadline - Date.now()));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const header = res.headers['request-identifier'];
      const finish = () => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          requestId: Array.isArray(header) ? header[0] : header,
          retryAfter: res.headers['retry-after'],
          text: Buffer.concat(chunks).toString('utf8'),
          truncated,
        });
      };
      res.on('data', (chunk: Buffer) => {
        if (truncated) return;
        const room = MAX_RESPONSE_BYTES - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          truncated = true;
          res.destroy();
          finish();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', finish);
      res.on('error', (err) => {
        clearTimeout(timer);
        if (!truncated) reject(Object.assign(err, { sentWhole: true }));
      });
    });
    // Flushed to the network: from then on a failure leaves the message with the peer or not.
    let sentWhole = false;
    req.on('finish', () => {
      sentWhole = true;
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(Object.assign(err, { sentWhole }));
    });
    req.end(body);
  });
}

/** The peer's own words on a refusal: its JSON `message`, else the start of its text, one line. */
function peerMessage(text: string): string {
  let message = text;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      typeof (parsed as { message?: unknown }).message === 'string'
    )
      message = (parsed as { message: string }).message;
  } catch {
    // not JSON: the text itself
  }
  return message
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, MAX_PEER_MESSAGE_CHARS);
}

function describeFailure(err: NodeJS.ErrnoException, url: URL): string {
  if (err.code === 'EFORBIDDENADDR')
    return `${url.hostname} resolves to an address TRP messages may not be sent to`;
  return `${err.code ?? err.name}: ${err.message}`.slice(0, 300);
}

/**
 * POSTs one TRP message. 2xx → the answer (TrpAnswer); anything else is a TrpError:
 * TrpRetryable for 5xx, 408, 429, connection failures and timeouts; TrpRefused for other 4xx,
 * redirects, or a URL the SSRF guard refuses.
 */
export interface TrpPostOptions {
  timeoutMs: number;
  allow: AllowList;
  ca?: string;
  /** Presented to the peer on https (mutual TLS), PEM. */
  clientCert?: { cert: string; key: string } | undefined;
  /**
   * SHA-256 fingerprints the directory pins for this VASP: its server must present one of these
   * certificates (checked instead of a CA chain). None: the usual CA and host name check.
   */
  pins?: readonly string[];
  requestId: string;
  /** Development only: plain http to a loopback host (config travel_rule.allow_http_loopback). */
  allowHttpLoopback?: boolean;
}

/**
 * Why a TRP message may never be sent to `target`, as far as the URL alone tells (a host name
 * that resolves into a forbidden range is found when connecting); undefined when it may. Asked
 * before each message, and of the callbacks a counterparty gives, when they are given: one we
 * would never post to is refused then, not taken and found unusable when our answer is due.
 * The phrase completes "TRP URL …" or "callback: …".
 */
export function trpUrlRefusal(
  target: URL,
  opts: Pick<TrpPostOptions, 'allow' | 'allowHttpLoopback' | 'pins'>,
): string | undefined {
  if (target.protocol !== 'https:' && target.protocol !== 'http:') return 'must be https';
  if (!literalHostAllowed(target, opts.allow))
    return `${target.hostname} is an address TRP messages may not be sent to`;
  const refusal = personalDataUrlRefusal(target, opts.allowHttpLoopback ?? false);
  if (refusal) return refusal;
  if (opts.pins?.length && target.protocol !== 'https:')
    return 'must be https: the directory pins TLS certificates for this VASP';
  return undefined;
}

export async function trpPost(
  url: string,
  body: unknown,
  opts: TrpPostOptions,
): Promise<TrpAnswer> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw trpError('TRP URL is not a URL', false);
  }
  const refusal = trpUrlRefusal(target, opts);
  if (refusal) throw trpError(refusal.startsWith('must') ? `TRP URL ${refusal}` : refusal, false);

  let res: RawResponse;
  try {
    res = await send(target, stringifyWithBigInts(body), opts);
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { sentWhole?: boolean };
    // A host that resolves to a forbidden address is refused for good, like a literal one.
    if (e.code === 'EFORBIDDENADDR') throw trpError(describeFailure(e, target), false);
    throw new TrpRetryable(describeFailure(e, target), undefined, undefined, e.sentWhole === true);
  }

  const { status } = res;
  if (status >= 200 && status < 300) {
    // Taken: an answer that cannot be read does not make the message undelivered.
    if (res.requestId === undefined)
      log.debug({ host: target.host, status }, 'TRP peer did not echo request-identifier');
    else if (res.requestId !== opts.requestId)
      return { status, body: null, unread: 'its answer carries another request-identifier' };
    if (res.truncated)
      return {
        status,
        body: null,
        unread: `its answer is larger than ${MAX_RESPONSE_BYTES} bytes`,
      };
    if (res.text.trim() === '') return { status, body: null };
    try {
      return { status, body: JSON.parse(res.text) as unknown };
    } catch {
      return { status, body: null, unread: 'its answer is not JSON' };
    }
  }
  if (status >= 300 && status < 400)
    throw trpError(`redirect ${status} not followed`, false, status);
  const retryable = status >= 500 || status === 408 || status === 429;
  const message = peerMessage(res.text);
  const bare = `peer answered ${status}`;
  const text = message ? `${bare}: ${message}` : bare;
  // What logs and the job's error say: never the peer's words, which may echo the persons.
  const forLog = message ? `${bare} (its words are in the transfer's record)` : bare;
  if (status === 429 || status === 503)
    throw new TrpRetryable(
      text,
      status,
      retryAfterSeconds(res.retryAfter) ?? undefined,
      false,
      forLog,
    );
  throw trpError(text, retryable, status, forLog);
}
