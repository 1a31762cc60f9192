/**
 * The API past what it can answer: many clients connecting at once, as an outside load harness or
 * a backend's retry storm does. The api role as its own process (HTTPS, as deployed, the per-key
 * rate limit on but never reached), GET /v2/stream/list (page 1 of a key with 1,000 streams)
 * from CONNECTIONS keep-alive connections opened together, each sending again as soon as it is
 * answered (autocannon, closed loop), for DURATION seconds, no warm-up: the burst of new
 * connections is part of what is measured.
 *   npm run bench:overload -- [connections] [seconds]   (default 2,000 connections, 20 s)
 *     writes bench/results/overload.json
 * Reports answers per second by status, latency p50/p99/max over every answer, errors by code
 * (ECONNRESET: a connection dropped; timeouts: no answer in 10 s), the api role's peak RSS, and
 * whether /healthz answers right after; during the load, a probe a second on a new connection to
 * /healthz on the API port and on the health listener (TOLLGATE_HEALTH_PORT). Figures, not
 * assertions. BENCH_PATH loads another path (e.g. /healthz: the floor, no database).
 * BENCH_PROXY=haproxy: the same load through HAProxy (from PATH) run with the example
 * configuration config/haproxy/haproxy.cfg, terminating TLS in front of the api role (plain HTTP,
 * TOLLGATE_TRUST_PROXY its address): the deployment README's "Many clients at once" describes.
 */
import autocannon, { type Result } from 'autocannon';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { loadConfig } from '../src/config/index.js';
import { openDatabase } from '../src/db/open.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { createApiKey } from '../src/keys/keys.js';
import { setLogLevel } from '../src/log.js';
import { startHaproxy } from '../support/haproxy.js';
import { freePort } from '../support/ports.js';
import { latencySummary, machine, round, writeResult } from './lib/common.js';
import { startRole } from './lib/role.js';

const CONNECTIONS = Number(process.argv[2] ?? 2_000);
const DURATION_S = Number(process.argv[3] ?? 20);
const STREAMS = 1_000;
const PROXY = process.env.BENCH_PROXY === 'haproxy';
const PATH = process.env.BENCH_PATH ?? '/v2/stream/list?page=1&limit=50';

setLogLevel('warn');
const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-overload-'));
chmodSync(dir, 0o711);
const pg = await startEmbeddedPostgres(join(dir, 'pg'), await freePort());
const port = await freePort();
/** The api role's health listener (TOLLGATE_HEALTH_PORT), probed during the load. */
const healthPort = await freePort();
const env: Record<string, string> = {
  DATABASE_URL: pg.url,
  TOLLGATE_DATA_DIR: dir,
  TOLLGATE_HOST: '127.0.0.1',
  TOLLGATE_PORT: String(port),
  TOLLGATE_RPC_ETH: 'http://127.0.0.1:1',
  TOLLGATE_LOG_LEVEL: 'warn',
  TOLLGATE_RATE_LIMIT_PER_MINUTE: '1000000',
  TOLLGATE_RATE_LIMIT_BURST: '1000000',
  TOLLGATE_HEALTH_PORT: String(healthPort),
  ...(PROXY ? { TOLLGATE_TRUST_PROXY: '127.0.0.1/32' } : {}),
  // Anything else for the api role, e.g. BENCH_API_ENV='TOLLGATE_RATE_LIMIT_PER_MINUTE=0'.
  ...Object.fromEntries(
    (process.env.BENCH_API_ENV ?? '')
      .split(' ')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  ),
};
const db = await openDatabase(loadConfig(env));
const sql = db.sql;
const key = await createApiKey(sql, 'bench');
await sql.unsafe(`insert into tracked_addresses (api_key_id, address, family, stream_webhook, stream_created_at)
  select ${key.id}, '0x' || lpad(to_hex(g), 40, '0'), 'evm', 'https://receiver.example/hook', now() from generate_series(1, ${STREAMS}) g`);
await sql.unsafe('vacuum analyze tracked_addresses');

const api = startRole('api', env);
// Clients connect to the api role itself, or to HAProxy in front of it.
const haproxy = PROXY ? await startHaproxy('haproxy', port) : undefined;
const base = haproxy?.baseUrl ?? `https://127.0.0.1:${port}`;
const insecure = new Agent({ connect: { rejectUnauthorized: false } });
async function health(): Promise<number | string> {
  try {
    const res = await request(`${base}/healthz`, { dispatcher: insecure, headersTimeout: 10_000 });
    await res.body.dump();
    return res.statusCode;
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
}
async function stopAll(): Promise<number> {
  const rss = api.running() ? await api.stop() : 0;
  await haproxy?.stop();
  await insecure.close();
  await db.close();
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
  return rss;
}
for (let i = 0; (await health()) !== 200; i++) {
  if (i > 300 || !api.running()) {
    await stopAll();
    throw new Error(`the api role did not answer${PROXY ? ' through haproxy' : ''}`);
  }
  await new Promise((r) => setTimeout(r, 100));
}

const errorsByCode: Record<string, number> = {};
const byStatus: Record<string, number> = {};
const latencies: number[] = [];
/** autocannon's clients (one per connection, kept across its reconnects) answered at least once. */
const answeredClients = new Set<unknown>();
/** Errors in each second of the run (0: the first), to tell the connection burst from the rest. */
const errorsBySecond: number[] = Array.from({ length: DURATION_S + 1 }, () => 0);
const loadStarted = performance.now();
/**
 * A liveness probe as a supervisor sends it during the load: GET /healthz on a new connection
 * every second, given up after 5 s; to the API port (HTTPS) and to the health listener
 * (TOLLGATE_HEALTH_PORT, plain HTTP) side by side. Each probe's latency, or why it failed.
 */
let loading = true;
async function probeEverySecond(url: string): Promise<(number | string)[]> {
  const results: (number | string)[] = [];
  while (loading) {
    const started = performance.now();
    const agent = new Agent({ connect: { rejectUnauthorized: false } });
    try {
      const res = await request(url, { dispatcher: agent, signal: AbortSignal.timeout(5_000) });
      await res.body.dump();
      results.push(
        res.statusCode === 200 ? round(performance.now() - started) : `${res.statusCode}`,
      );
    } catch (err) {
      results.push(
        (err as Error).name === 'TimeoutError'
          ? 'timeout'
          : String((err as { code?: string }).code ?? err),
      );
    } finally {
      await agent.destroy();
    }
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, 1_000 - (performance.now() - started))),
    );
  }
  return results;
}
const probing = Promise.all([
  probeEverySecond(`${base}/healthz`),
  probeEverySecond(`http://127.0.0.1:${healthPort}/healthz`),
]);
const r = await new Promise<Result>((resolve, reject) => {
  const instance = autocannon(
    {
      url: base + PATH,
      connections: CONNECTIONS,
      duration: DURATION_S,
      headers: { apikey: key.apikey },
    },
    (err, result) => (err ? reject(err) : resolve(result)),
  );
  instance.on('response', (client, statusCode, _bytes, responseTime) => {
    answeredClients.add(client);
    byStatus[statusCode] = (byStatus[statusCode] ?? 0) + 1;
    latencies.push(responseTime);
  });
  instance.on('reqError', (err: Error & { code?: string }) => {
    const code = err.code ?? err.message;
    const second = Math.floor((performance.now() - loadStarted) / 1000);
    errorsBySecond[second] = (errorsBySecond[second] ?? 0) + 1;
    errorsByCode[code] = (errorsByCode[code] ?? 0) + 1;
  });
});
loading = false;
const [apiProbes, healthProbes] = await probing;
const probeFigures = (probes: (number | string)[]) => {
  const ms = probes.filter((p): p is number => typeof p === 'number');
  return {
    sent: probes.length,
    answered: ms.length,
    ...(ms.length ? latencySummary(ms) : {}),
    failed: probes.filter((p) => typeof p !== 'number'),
  };
};
const afterMs = performance.now();
const healthAfter = await health();
const healthMs = round(performance.now() - afterMs);
const apiRssMb = await stopAll();

const lat = latencySummary(latencies);
const figures = {
  through: PROXY ? 'haproxy' : 'direct',
  connections: CONNECTIONS,
  duration_s: DURATION_S,
  answers_per_s: round(latencies.length / DURATION_S),
  by_status: byStatus,
  p50_ms: lat.p50,
  p99_ms: lat.p99,
  max_ms: lat.max,
  connections_never_answered: CONNECTIONS - answeredClients.size,
  errors: r.errors,
  timeouts: r.timeouts,
  errors_by_code: errorsByCode,
  errors_by_second: errorsBySecond,
  /** New-connection /healthz probes during the load, one a second: answered within 5 s, latency. */
  probes: { api_port: probeFigures(apiProbes), health_port: probeFigures(healthProbes) },
  healthz_after: healthAfter,
  healthz_after_ms: healthMs,
  api_peak_rss_mb: apiRssMb,
};
console.log(
  `${figures.through}: ${PATH.split('?')[0]}, ${CONNECTIONS} connections at once, ${DURATION_S} s: ${figures.answers_per_s} answers/s (${Object.entries(
    byStatus,
  )
    .map(([s, n]) => `${n} × ${s}`)
    .join(
      ', ',
    )}), p50 ${figures.p50_ms} ms, p99 ${figures.p99_ms} ms, max ${figures.max_ms} ms; ${figures.connections_never_answered} connections never answered; errors ${r.errors} (${JSON.stringify(errorsByCode)}), timeouts ${r.timeouts}; /healthz probes (new connection, 1/s, 5 s timeout) ${Object.entries(
    figures.probes,
  )
    .map(
      ([where, f]) =>
        `${where}: ${f.answered} of ${f.sent} answered (p50 ${f.p50 ?? '-'} ms, max ${f.max ?? '-'} ms)`,
    )
    .join(', ')}; /healthz after: ${healthAfter} in ${healthMs} ms; api peak RSS ${apiRssMb} MiB`,
);
writeResult(PROXY ? 'overload-haproxy' : 'overload', {
  date: new Date().toISOString(),
  machine: machine(),
  ...figures,
});
