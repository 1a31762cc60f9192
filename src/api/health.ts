import { Hono } from 'hono';
import type { Sql } from '../db/index.js';
import { ErrorNumber, describeError, errorBody } from '../errors.js';
import { log } from '../log.js';
import { readiness } from './readiness.js';

/**
 * The liveness and readiness answers, served on the API port and, with `health_port`, on a
 * plain-HTTP listener of their own.
 *
 * Why a listener of their own: a Node process takes one new connection per event-loop turn and
 * per listening socket (libuv since 1.45). When thousands of clients connect to the API port at
 * once, a probe's new connection there waits behind them for seconds (measured: 2 of 3 probes
 * unanswered in 5 s during a burst of 2,000 connections; bench/README.md), and a supervisor that
 * takes that for a dead process restarts it under load. A second socket is accepted from once
 * per turn on its own, whatever waits on the first.
 */
export interface HealthDeps {
  sql: Sql;
  networks: readonly string[];
  maxLagBlocks: number;
}

/** Adds GET /healthz (the process answers) and GET /readyz (database and indexers) to `app`. */
export function healthRoutes<A extends Hono<any>>(app: A, deps: HealthDeps): A {
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    const ready = await readiness(deps.sql, deps.networks, deps.maxLagBlocks);
    return c.json(ready, ready.ready ? 200 : 503);
  });
  return app;
}

/** The health listener's app: /healthz and /readyz, nothing else (no key, no TLS, no data). */
export function createHealthApp(deps: HealthDeps): Hono {
  const app = healthRoutes(new Hono(), deps);
  app.notFound((c) =>
    c.json(
      errorBody(
        ErrorNumber.ROUTE_NOT_FOUND,
        'The health listener answers GET /healthz and GET /readyz only.',
      ),
      404,
    ),
  );
  app.onError((err, c) => {
    log.error({ listener: 'health', error: describeError(err) }, 'health request failed');
    return c.json(errorBody(ErrorNumber.INTERNAL, 'internal error'), 500);
  });
  return app;
}
