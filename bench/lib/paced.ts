import { Pool } from 'undici';
import { latencySummary, round } from './common.js';

/**
 * An open-loop load: requests sent at an even `rate` per second over at most `connections`
 * keep-alive connections (one request in flight on each), whatever the answers' speed, the way
 * independent clients arrive. Each latency is measured from the moment its request was due, so
 * time spent waiting for a free connection counts (no coordinated omission). autocannon's own
 * rate limit sends each connection's share of a second in one burst, which measures the burst.
 * The first `warmupS` seconds at the same rate, on the same connections, are not measured (the
 * TLS handshakes of new connections, the JIT); they were a separate pool, so every measured run
 * began by opening its connections again.
 */
export async function pacedLoad(opts: {
  origin: string;
  path: string;
  headers: Record<string, string>;
  connections: number;
  rate: number;
  durationS: number;
  warmupS?: number;
}) {
  const pool = new Pool(opts.origin, {
    connections: opts.connections,
    pipelining: 1,
    connect: { rejectUnauthorized: false },
  });
  if (opts.warmupS) await paced(pool, opts, opts.warmupS);
  const result = await paced(pool, opts, opts.durationS);
  await pool.close();
  return result;
}

async function paced(
  pool: Pool,
  opts: { path: string; headers: Record<string, string>; rate: number },
  durationS: number,
) {
  const total = Math.round(opts.rate * durationS);
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const pending: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / opts.rate;
    const wait = due - performance.now();
    if (wait >= 1) await new Promise((r) => setTimeout(r, wait));
    pending.push(
      pool.request({ path: opts.path, method: 'GET', headers: opts.headers }).then(
        async (res) => {
          await res.body.dump();
          if (res.statusCode < 200 || res.statusCode > 299) non2xx++;
          latencies.push(performance.now() - due);
        },
        () => {
          errors++;
        },
      ),
    );
  }
  await Promise.all(pending);
  const elapsedS = (performance.now() - start) / 1000;
  return {
    offered_rps: opts.rate,
    rps: round(latencies.length / elapsedS),
    ...latencySummary(latencies),
    non_2xx: non2xx,
    errors,
  };
}
