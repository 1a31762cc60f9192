import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { getRequestListener, RequestError } from '@hono/node-server';
import type { Hono } from 'hono';
import type { TlsMaterial } from './tls.js';
import { TLS_VERSIONS } from '../net/tls-certs.js';
import { ErrorNumber, errorBody } from '../errors.js';
import { ConfigError } from '../config/index.js';

/**
 * TLS of the API: TLS 1.2 and 1.3 only (a client offering TLS 1.1 or older fails the handshake),
 * stated here rather than left to Node's default, which an operator can lower with
 * --tls-min-v1.0. Ciphers stay Node's default list (forward-secret AEAD suites first, no RC4,
 * 3DES or export suites), which follows OpenSSL's security updates.
 */
export const TLS_OPTIONS = TLS_VERSIONS;

/**
 * How long an idle keep-alive connection stays open (sent as `Keep-Alive: timeout=65`; clients
 * such as undici keep theirs a second less). Node's default is 5 s: a backend calling every few
 * seconds paid a new TLS handshake each time, and a pool of connections that fell idle together
 * came back together, a burst of handshakes that held the event loop (measured: 150–350 ms
 * stalls, the p99 of /analyze/aml at 1,000 req/s over 200 connections 180–340 ms, with 65 s 11–12
 * ms). Above the 60 s idle timeout of common load balancers, so that a proxy in front
 * (trust_proxy) never sends a request on a connection this side is closing.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * A TLS handshake must be done within 10 s (Node's default is 120 s). A connection whose
 * handshake failed or timed out is destroyed: ending it with an answer waited for a handshake that
 * would not come, and it stayed in CLOSE-WAIT after the client left, a file descriptor lost for
 * good (20,000 such connections took the process to its file limit, the API and the health
 * listener answered nothing, and a stop waited for them; found by an outside probe). A connection
 * that sends nothing after its handshake gets its 408 at headersTimeout, as a slow one does.
 */
export const HANDSHAKE_TIMEOUT_MS = 10_000;

/** How long a stop waits for connections to finish their requests before cutting them. */
const CLOSE_GRACE_MS = 5_000;

export interface RunningServer {
  port: number;
  close(): Promise<void>;
}

/**
 * A request's headers must arrive within 15 s, all of it within 30 s (else 408, in the error
 * shape: answerMalformedRequests), checked every second: Node checks every 30 s by default, so
 * a client trickling its headers (slowloris) held a connection up to 45 s.
 */
const TIMING = {
  headersTimeout: 15_000,
  requestTimeout: 30_000,
  connectionsCheckingInterval: 1_000,
  // Checked by requestListener instead, which answers in the error shape.
  requireHostHeader: false,
} as const;

/**
 * Serves the app over HTTPS; plain HTTP to this port never reaches it (the TLS handshake fails).
 * With trustProxy the server speaks plain HTTP for a TLS-terminating proxy in front, and the app
 * refuses requests the proxy did not mark as https.
 */
export function startServer(
  app: Hono<any>,
  opts: {
    host: string;
    port: number;
    tls: TlsMaterial | null;
    /**
     * Ask each client for its certificate (TRP's mutual TLS). The handshake completes without
     * one, or with one no CA vouches for: the app decides, by the certificate's fingerprint.
     */
    clientCertificates?: boolean;
    /** The setting that chose the port (default `TOLLGATE_PORT`): named when it cannot be listened on. */
    portSetting?: string;
  },
): Promise<RunningServer> {
  const serverOptions = opts.tls
    ? {
        ...TIMING,
        handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
        // Node offers only http/1.1: a client asking for HTTP/1.0 by ALPN (curl --http1.0) failed
        // the handshake (no_application_protocol) although 1.0 requests are answered (found by an
        // outside probe). A client offering both gets 1.1; one offering only h2 is still refused.
        ALPNProtocols: ['http/1.1', 'http/1.0'],
        cert: opts.tls.cert,
        key: opts.tls.key,
        ...TLS_OPTIONS,
        ...(opts.clientCertificates ? { requestCert: true, rejectUnauthorized: false } : {}),
      }
    : TIMING;
  const listener = requestListener(app, opts.host);
  const server: Server = opts.tls
    ? createHttpsServer(serverOptions, listener)
    : createHttpServer(serverOptions, listener);
  const established = watchConnections(server, opts.tls !== null);
  answerMalformedRequests(server, established.secured);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    server.once('error', (err) => reject(listenRefusal(err, opts)));
    server.listen(opts.port, opts.host, () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
            // Every connection, also one mid-handshake or that never sent a request (which
            // closeAllConnections does not know of).
            setTimeout(() => {
              server.closeAllConnections();
              for (const socket of established.open) socket.destroy();
            }, CLOSE_GRACE_MS).unref();
          }),
      });
    });
  });
}

/**
 * Checks, before anything else of a start runs, that each port can be listened on (a port 0 is
 * any free one), with startServer's refusals. A start on a port another process holds (the old
 * version, still running) migrated the database under that process and only then found the port
 * taken (found by an outside probe). Listened on and closed at once: a port taken between this
 * check and the start's own listen still stops the start, later.
 */
export async function checkPortsFree(
  ports: readonly { host: string; port: number; portSetting: string }[],
): Promise<void> {
  for (const opts of ports) {
    if (opts.port === 0) continue;
    const probe = createNetServer();
    await new Promise<void>((resolve, reject) => {
      probe.once('error', (err) => reject(listenRefusal(err, opts)));
      probe.listen(opts.port, opts.host, () => probe.close(() => resolve()));
    });
  }
}

/**
 * What the operator can mend when a port cannot be listened on, as a configuration error naming
 * the setting (the start ends with the configuration errors' exit code); anything else as it is.
 */
function listenRefusal(
  err: unknown,
  opts: { host: string; port: number; portSetting?: string },
): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  const setting = opts.portSetting ?? 'TOLLGATE_PORT';
  const at = `${opts.host}:${opts.port}`;
  switch (code) {
    case 'EADDRINUSE':
      return new ConfigError(
        `${setting}=${opts.port}: another process listens on ${at}; stop it or choose another port`,
      );
    case 'EACCES':
      return new ConfigError(
        `${setting}=${opts.port}: not allowed to listen on ${at} (ports below 1024 need the capability CAP_NET_BIND_SERVICE); choose a port from 1024`,
      );
    case 'EADDRNOTAVAIL':
      return new ConfigError(
        `TOLLGATE_HOST=${opts.host}: no network interface of this machine has that address`,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return new ConfigError(`TOLLGATE_HOST=${opts.host}: the name does not resolve (${code})`);
    default:
      return err;
  }
}

/**
 * The version of a well-formed request line Node's parser refused for its version (HTTP/1.2,
 * HTTP/3.0: a 505, as the request listener answers HTTP/2.0 and 0.9, which the parser lets
 * through); undefined for any other parse error (a malformed line stays a 400).
 */
function unsupportedVersion(err: NodeJS.ErrnoException): string | undefined {
  if (err.code !== 'HPE_INVALID_VERSION') return undefined;
  const raw = (err as { rawPacket?: Buffer }).rawPacket;
  return raw
    ? /^[A-Z]+ [^\s]+ HTTP\/(\d\.\d)\r?\n/.exec(raw.subarray(0, 8192).toString('latin1'))?.[1]
    : undefined;
}

/**
 * The app as Node's request listener (@hono/node-server's adapter), with what no URL can be made
 * of answered in the error shape: an HTTP/1.1 request without Host, or with two (RFC 9112 section
 * 3.2 wants a 400; Node's own check, turned off in TIMING, answers with a bare status line), a
 * version other than 1.x (505), and a Host or a
 * path the adapter cannot build a URL from (a space in the Host, a backslash in the path), which
 * it answers with an empty 400. An HTTP/1.0 request may lack Host: it is served, as the adapter
 * does, as if to `host`.
 */
function requestListener(
  app: Hono<any>,
  host: string,
): (req: IncomingMessage, res: ServerResponse) => void {
  const handle = getRequestListener(app.fetch, {
    hostname: host,
    errorHandler: (err) =>
      err instanceof RequestError
        ? refusal(400, 'Malformed request URL or Host header.')
        : refusal(500, 'Internal error.', ErrorNumber.INTERNAL),
  });
  const refuse = (res: ServerResponse, status: number, message: string) => {
    const answer = refusalParts(message, { close: true });
    res.writeHead(status, answer.headers);
    res.end(answer.body);
  };
  return (req, res) => {
    // Node's parser takes any version in the request line ("HTTP/2.0" was served as 1.1).
    if (req.httpVersionMajor !== 1)
      return refuse(res, 505, `HTTP/${req.httpVersion} is not supported: send HTTP/1.1.`);
    if (req.httpVersion === '1.1' && req.headers.host === undefined)
      return refuse(res, 400, 'A Host header is required.');
    // RFC 9112 section 3.2: a request with more than one Host is answered 400 (Node keeps the first).
    if ((req.headersDistinct.host?.length ?? 0) > 1)
      return refuse(res, 400, 'More than one Host header: send one.');
    void handle(req, res);
  };
}

/**
 * A refusal made before or outside the app, in the API's error shape: its body and headers, the
 * one form for each writer below (a Response for the adapter, a ServerResponse, a raw socket).
 */
function refusalParts(
  message: string,
  options: { number?: number; close?: boolean } = {},
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(errorBody(options.number ?? ErrorNumber.BAD_REQUEST, message));
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
  };
  if (options.close) headers.connection = 'close';
  return { body, headers };
}

function refusal(status: number, message: string, number?: number): Response {
  const { body, headers } = refusalParts(message, { number });
  return new Response(body, { status, headers });
}

/** Every open connection (for a stop to cut), and the TLS ones whose handshake is done. */
function watchConnections(
  server: Server,
  tls: boolean,
): { open: Set<Socket>; secured: WeakSet<Socket> | undefined } {
  const open = new Set<Socket>();
  const secured = tls ? new WeakSet<Socket>() : undefined;
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  if (secured) server.on('secureConnection', (socket: Socket) => secured.add(socket));
  return { open, secured };
}

/**
 * What Node's HTTP parser refuses before the app sees a request (a malformed request line or
 * header, headers over 16 KB, a request not received within headersTimeout/requestTimeout) is
 * answered in the API's error shape, as JSON, and the connection closed (Node's own answer is a
 * bare status line with no body). Answers to earlier requests on the same connection (pipelined
 * before the malformed one) are finished first, then the refusal follows them: Node's default
 * handler drops them.
 *
 * The parser can also fail inside a request the app already has: its body's framing is broken
 * (a chunk size that is not hex). That request's body never ends, so the app would wait for it
 * until the request deadline and then blame the database. The refusal is that request's answer
 * instead, and closing the connection ends its body for the app (with an error, answered to no
 * one); if the app had answered it already (without reading the body), the connection is only
 * closed after that answer, since one request gets one answer.
 */
function answerMalformedRequests(server: Server, secured: WeakSet<Socket> | undefined): void {
  interface Connection {
    /** Answers not finished yet, of requests before a malformed one. */
    answering: number;
    /** The newest request on the connection, and its answer. */
    last?: { req: IncomingMessage; res: ServerResponse; counted: boolean };
    whenDone?: () => void;
  }
  const connections = new WeakMap<Socket, Connection>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const state = connections.get(socket) ?? { answering: 0 };
    connections.set(socket, state);
    const last = { req, res, counted: true };
    state.last = last;
    state.answering++;
    res.once('close', () => {
      if (!last.counted) return;
      last.counted = false;
      state.answering--;
      if (state.answering === 0) state.whenDone?.();
    });
  });
  // An Expect other than 100-continue (Node's own answer: a bare 417 with no body).
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    const answer = refusalParts('Expect: only 100-continue is supported.', { close: true });
    res.writeHead(417, answer.headers);
    res.end(answer.body);
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // A TLS connection whose handshake failed or timed out (an https server hands its
    // tlsClientError here): there is nothing to answer over, and ending it waits for a handshake
    // that will not come.
    if (err.code === 'ECONNRESET' || !socket.writable || (secured && !secured.has(socket))) {
      socket.destroy();
      return;
    }
    const version = unsupportedVersion(err);
    const [status, reason, message] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'Request headers larger than 16 KB.']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'The request was not received in time.']
          : version
            ? [
                505,
                'HTTP Version Not Supported',
                `HTTP/${version} is not supported: send HTTP/1.1.`,
              ]
            : [400, 'Bad Request', 'Malformed HTTP request.'];
    const answer = refusalParts(message, { close: true });
    const head = Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}\r\n`);
    let refuse = () => {
      if (!socket.writable) return void socket.destroy();
      socket.end(`HTTP/1.1 ${status} ${reason}\r\n${head.join('')}\r\n${answer.body}`);
    };
    const state = connections.get(socket);
    const last = state?.last;
    if (state && last && !last.req.complete) {
      if (last.res.headersSent) refuse = () => void socket.end();
      else if (last.counted) {
        // Not waited for: its app never gets its body.
        last.counted = false;
        state.answering--;
      }
    }
    if (state && state.answering > 0) state.whenDone = refuse;
    else refuse();
  });
}
