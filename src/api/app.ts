import { withAuditClient } from '../audit/index.js';
import { networkInfo } from '../config/networks.js';
import { randomUUID } from 'node:crypto';
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import type { PublicClient } from 'viem';
import type { AmlConfig } from '../config/aml.js';
import type { Sql } from '../db/index.js';
import { ApiKeyCache } from '../keys/index.js';
import { ApiError, ErrorNumber, describeError, errorBody } from '../errors.js';
import { log } from '../log.js';
import type { AllowList } from '../net/ssrf.js';
import { ProxyTrust } from '../net/proxy.js';
import { type AuthEnv, requireApiKey } from './auth.js';
import { rateLimit, type RateLimitOptions } from './ratelimit.js';
import { openApiDocument } from './openapi.js';
import { docsRoutes } from './docs.js';
import { methodsByPath, mountRoutes, type Route } from './route.js';
import { streamRoutes } from './routes/streams.js';
import { walletTransactionRoutes } from './routes/wallet-transactions.js';
import { walletNftRoutes } from './routes/wallet-nfts.js';
import { liveAmlRoutes } from './routes/liveaml.js';
import { analyzeRoutes } from './routes/analyze.js';
import { healthRoutes } from './health.js';
import type { UtxoRpc } from '../chains/utxo/client.js';
import { travelRuleRoutes, viewPageHandler } from './routes/travelrule.js';
import { webhookRoutes } from './routes/webhooks.js';
import { opsRoutes } from './operator-api.js';
import { trpInbound } from './trp.js';
import type { TravelRuleDeps } from '../travelrule/index.js';
import { createMetrics } from '../monitoring/metrics.js';
import { DEFAULT_METRICS_CIDRS, metricsAccess } from '../monitoring/metrics-access.js';
import { dashboardRoutes } from '../dashboard/app.js';
import { databaseCannotServe, isDatabaseUnavailable } from '../db/unavailable.js';
import { deadlineAnswer, loggedPath, requestDeadline, whileArriving } from './deadline.js';
import { type Admission, announcesBody } from './admission.js';
import { unsupportedEncoding } from '../net/content-encoding.js';
import type { PageCache } from '../wallet/index.js';
import { NO_SUBSCRIPTION_LIMITS, type SubscriptionLimits } from '../streams/index.js';

export interface AppDeps {
  sql: Sql;
  allow: AllowList;
  /**
   * Plain HTTP behind these TLS-terminating proxies (config trust_proxy): only requests one of
   * them forwards, marked https, are served. Null: HTTPS, no proxy.
   */
  trustProxy: ProxyTrust | null;
  networks: readonly string[];
  /** Confirmations of each indexed network (stream replays decide confirmed from them). */
  confirmations?: ReadonlyMap<string, number>;
  maxLagBlocks: number;
  maxBodyBytes?: number;
  version: string;
  /** Base URL that ipfs:// media links are rewritten to (TOLLGATE_NFT_IPFS_GATEWAY). */
  nftIpfsGateway: string;
  /** AML score weights, thresholds and exposure limits (config key `aml`). */
  aml: AmlConfig;
  /** viem clients of the indexed EVM networks: tx_detail asks the node for what the index lacks. */
  evmClients?: ReadonlyMap<string, PublicClient>;
  /** Bitcoin-family nodes: tx_detail asks them for what the index lacks. */
  utxoClients?: ReadonlyMap<string, UtxoRpc>;
  /** The Travel Rule (its /v2 routes, the operator API under /ops, TRP under /trp). */
  travelRule?: TravelRuleDeps;
  /** TRP has a listener of its own (createTrpApp): not served on this port. */
  trpListener?: boolean;
  /** Bearer token of GET /metrics (config metrics_token); none: allowed addresses only. */
  metricsToken?: string;
  /** Addresses that may read GET /metrics without the token (config metrics_allow_cidrs; default loopback). */
  metricsAllowCidrs?: readonly string[];
  /** Per API key token bucket on /v2 (config rate_limit_per_minute, rate_limit_burst); none or 0: off. */
  rateLimit?: RateLimitOptions;
  /** The API keys this process has seen (the appliance stops it); none: one made here. */
  apiKeys?: ApiKeyCache;
  /** The longest a request waits for its answer (config request_timeout_ms; src/api/deadline.ts). */
  requestTimeoutMs: number;
  /**
   * The line of requests that share the API's pool (config api_max_concurrent_requests;
   * src/api/admission.ts); none: no line.
   */
  admission?: Admission;
  /** /wallet/transactions pages kept (config wallet_page_cache_mb; src/wallet/page-cache.ts). */
  walletPageCache?: PageCache;
  /** The most streams and live AML trackings a key may have (config max_streams_per_key, …); none: no limit. */
  subscriptionLimits?: SubscriptionLimits;
}

export const API_BASE = '/v2';

/** The operator dashboard's paths: it answers with pages, behind checks of its own. */
function isDashboard(path: string): boolean {
  return path.startsWith('/dashboard');
}

/** Paths that do not wait for their turn in the admission line (see createApp). */
function outOfLine(path: string): boolean {
  return (
    path === '/healthz' ||
    path === '/readyz' ||
    path === '/metrics' ||
    path.startsWith('/docs') ||
    isDashboard(path)
  );
}

export function allRoutes(deps: AppDeps): Route[] {
  const limits = deps.subscriptionLimits ?? NO_SUBSCRIPTION_LIMITS;
  return [
    ...streamRoutes(deps.sql, deps.allow, deps.confirmations ?? new Map(), limits, deps.networks),
    ...walletTransactionRoutes(
      deps.sql,
      deps.networks.filter((n) => networkInfo(n)?.family === 'evm'),
      deps.walletPageCache,
    ),
    ...walletNftRoutes(deps.sql, deps.networks, deps.nftIpfsGateway),
    ...analyzeRoutes({
      sql: deps.sql,
      allow: deps.allow,
      aml: deps.aml,
      networks: deps.networks,
      evmClients: deps.evmClients ?? new Map(),
      utxoClients: deps.utxoClients ?? new Map(),
      limits,
    }),
    ...liveAmlRoutes(deps.sql, deps.allow, deps.networks, limits),
    ...(deps.travelRule ? travelRuleRoutes(deps.travelRule, deps.allow) : []),
    ...webhookRoutes(deps),
  ];
}

export function createApp(deps: AppDeps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const routes = allRoutes(deps);
  const document = openApiDocument(routes, deps.version);
  const metrics = createMetrics(deps.sql, deps.admission);
  const apiKeys = deps.apiKeys ?? new ApiKeyCache(deps.sql);

  app.use('*', metrics.httpMiddleware);
  app.use('*', async (c, next) => {
    const given = c.req.header('x-request-id');
    const requestId = given && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
    c.set('requestId', requestId);
    c.header('x-request-id', requestId);
    const started = performance.now();
    await next();
    if (!log.isLevelEnabled('info')) return;
    // The path only: the query string may carry an API key (or a view link's token).
    log.info(
      {
        request_id: requestId,
        method: c.req.method,
        path: loggedPath(c.req.path),
        status: c.res.status,
        duration_ms: Math.round(performance.now() - started),
      },
      'request',
    );
  });

  // No answer of the API or the operator API is for a cache: each is one key's or one
  // operator's (the key travels in an `apikey` header that shared caches do not take for
  // credentials), and some carry personal data (tx_status, a transaction's parties). Registered
  // before every check that answers by itself (HTTPS, the deadline's 503, the body limit's 413).
  const noStore: MiddlewareHandler = async (c, next) => {
    await next();
    if (!c.res.headers.has('cache-control')) c.res.headers.set('cache-control', 'no-store');
  };
  app.use(`${API_BASE}/*`, noStore);
  app.use('/ops/*', noStore);

  const proxies = deps.trustProxy;
  if (proxies) {
    app.use('*', async (c, next) => {
      // From anyone but a configured proxy, X-Forwarded-Proto is not believed: plain HTTP.
      if (ProxyTrust.originOf(c, proxies, false).proto !== 'https')
        throw new ApiError(
          403,
          ErrorNumber.FORBIDDEN,
          'HTTPS required: plain HTTP requests are refused.',
        );
      await next();
    });
  }

  // The client address of each request, for the audit entries it writes (src/audit/client.ts).
  app.use('*', (c, next) =>
    withAuditClient(ProxyTrust.originOf(c, proxies ?? null, true).client, next),
  );

  // Past its deadline a request is answered 503 (src/api/deadline.ts); the dashboard words that
  // answer as a page, with a deadline of its own; /readyz bounds its own wait (readiness.ts).
  const deadline = requestDeadline(deps.requestTimeoutMs, 'api');
  app.use('*', (c, next) =>
    isDashboard(c.req.path) || c.req.path === '/readyz' ? next() : deadline(c, next),
  );

  const maxBodyBytes = deps.maxBodyBytes ?? 1024 * 1024;
  const limitBody = bodyLimit({
    maxSize: maxBodyBytes,
    // The rest of the body is not read, so the connection cannot be reused: say so.
    onError: (c) =>
      c.json(
        errorBody(ErrorNumber.PAYLOAD_TOO_LARGE, `Request body larger than ${maxBodyBytes} bytes.`),
        413,
        { connection: 'close' },
      ),
  });
  // Only a request that carries a body is looked at: hono's bodyLimit reads `raw.body`, which
  // makes @hono/node-server build a full Request even for a GET without one. The dashboard
  // checks both below itself, answering with pages (src/dashboard/app.tsx).
  // A body without a length (chunked) is read here whole: a deadline passing meanwhile finds it
  // still arriving (408, nothing of it applied), not waiting on the database (a 503 saying the
  // change may still be applied, and a warning blaming the database; found by an outside probe).
  const readBody = whileArriving(limitBody);
  app.use('*', (c, next) =>
    announcesBody(c) && !isDashboard(c.req.path) ? readBody(c, next) : next(),
  );
  // A compressed body is not taken: read as it is, a gzip body was "malformed JSON", and plain
  // JSON labelled gzip was taken as JSON (found by an outside probe). Said plainly instead.
  app.use('*', async (c, next) => {
    const encoding = unsupportedEncoding(c.req.header('content-encoding'));
    if (encoding === undefined || !announcesBody(c) || isDashboard(c.req.path)) return next();
    return c.json(
      errorBody(
        ErrorNumber.BAD_REQUEST,
        `Content-Encoding ${encoding} is not supported: send the body uncompressed.`,
      ),
      415,
    );
  });
  // A body the route did not read (refused before it: no key, bad token, unknown id) is read to
  // its end here, within the limit above. Left unread, @hono/node-server destroys the socket after
  // the response without "Connection: close", and the client's next request on that keep-alive
  // connection fails ("other side closed"; found by test/fuzz.test.ts).
  // A request without a body (no Content-Length, no Transfer-Encoding: most GETs) is left alone:
  // touching `raw.body` makes @hono/node-server build a full Request for it (measured: a few % of
  // the CPU of GET /v2/stream/list under load).
  app.use('*', async (c, next) => {
    await next();
    if (!announcesBody(c)) return;
    const raw = c.req.raw;
    if (raw.body && !raw.bodyUsed) await raw.arrayBuffer().catch(() => undefined);
  });

  // Each request then waits for its turn (src/api/admission.ts), but for those that must answer
  // when everything else waits (health, readiness, metrics), the API reference, and the dashboard
  // (its own line, behind its own deadline).
  const admission = deps.admission;
  if (admission)
    app.use('*', (c, next) => (outOfLine(c.req.path) ? next() : admission.middleware(c, next)));

  healthRoutes(app, deps);
  // Outside /v2 (no API key): its own token or an allowed address (src/monitoring/metrics-access.ts).
  app.get(
    '/metrics',
    metricsAccess({
      token: deps.metricsToken,
      allowCidrs: deps.metricsAllowCidrs ?? DEFAULT_METRICS_CIDRS,
      trustProxy: deps.trustProxy,
    }),
    metrics.handler,
  );

  if (deps.travelRule) {
    // Registered before the API key check and answering itself: the e-mailed view link's token
    // is its credential (the other VASP has no API key).
    app.get(`${API_BASE}/travelrule/transaction/:id`, viewPageHandler(deps.travelRule));
    app.route('/ops', opsRoutes(deps.travelRule, deps.trustProxy ?? null) as never);
    // The operator dashboard: its own sessions, CSRF tokens and HTML error pages.
    app.route(
      '/dashboard',
      dashboardRoutes({
        travelRule: deps.travelRule,
        trustProxy: deps.trustProxy,
        requestTimeoutMs: deps.requestTimeoutMs,
        admission: deps.admission,
        apiKeys,
        maxBodyBytes,
      }) as never,
    );
    // Without the mutual-TLS listener (travel_rule.trp_port), TRP is served here.
    if (!deps.trpListener) app.route('/', trpInbound(deps.travelRule));
  }
  // The API reference (no key: the contract, no data).
  app.route('/docs', docsRoutes(document));
  app.use(`${API_BASE}/*`, requireApiKey(apiKeys));
  // After the key check: the limit is per key, and a request without a valid one is already refused.
  if (deps.rateLimit && deps.rateLimit.perMinute > 0)
    app.use(`${API_BASE}/*`, rateLimit(deps.rateLimit));
  app.get(`${API_BASE}/openapi.json`, (c) => c.json(document));
  mountRoutes(app, API_BASE, routes);

  // A path of the API asked with another method is a 405 naming the methods it takes (a 404 said
  // there was no such route; found by an outside probe).
  const allowed = methodsByPath(API_BASE, routes).set(`${API_BASE}/openapi.json`, ['GET', 'HEAD']);
  app.notFound((c) => {
    const methods = allowed.get(c.req.path);
    if (methods)
      return c.json(
        errorBody(
          ErrorNumber.METHOD_NOT_ALLOWED,
          `${c.req.path} takes ${methods.join(', ')}, not ${c.req.method}.`,
        ),
        405,
        { allow: methods.join(', ') },
      );
    return c.json(
      errorBody(ErrorNumber.ROUTE_NOT_FOUND, `No route ${c.req.method} ${c.req.path}.`),
      404,
    );
  });
  app.onError((err, c) => {
    const pastDeadline = deadlineAnswer(c, err, describeError);
    if (pastDeadline) return pastDeadline;
    if (err instanceof ApiError)
      return c.json(errorBody(err.errorNumber, err.message, err.detail), err.httpStatus);
    if (err instanceof HTTPException && err.status < 500)
      return c.json(errorBody(ErrorNumber.BAD_REQUEST, 'Bad request.'), 400);
    const requestId = c.get('requestId');
    // The client went away (closed the connection mid-body, or before the answer): nothing failed
    // on our side, and nobody reads this answer.
    if (c.req.raw.signal.aborted) {
      log.debug(
        { request_id: requestId, path: c.req.path, error: describeError(err) },
        'client closed the request before its answer',
      );
      return c.json(errorBody(ErrorNumber.BAD_REQUEST, 'Request aborted by the client.'), 400);
    }
    // The database out of reach, or reachable but unable to serve now (databaseBusy): retry later.
    const reason = databaseCannotServe(err);
    if (reason) {
      const unreachable = isDatabaseUnavailable(err);
      log.warn(
        { request_id: requestId, path: c.req.path, reason, error: describeError(err) },
        unreachable
          ? 'database unavailable: answered 503'
          : 'database cannot serve the request now: answered 503',
      );
      return c.json(
        errorBody(
          ErrorNumber.UNAVAILABLE,
          `Service unavailable: the database ${unreachable ? 'cannot be reached' : 'cannot serve this request now'}; retry later (request id ${requestId}).`,
        ),
        503,
        { 'retry-after': '5' },
      );
    }
    log.error(
      { request_id: requestId, path: c.req.path, error: describeError(err) },
      'request failed',
    );
    return c.json(
      errorBody(ErrorNumber.INTERNAL, `Internal error (request id ${requestId}).`),
      500,
    );
  });
  return app;
}
