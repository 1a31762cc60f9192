/**
 * Travel Rule transfers taken a second: TRP inquiries from a counterparty (the inbound path: the
 * protocol's checks, IVMS101 validation, screening, sealing the parties, the transaction, its
 * history and the backend's webhook row), and create_tx from the backend (the outbound path:
 * the same, and the operator's queue). The API role in this process (its TRP endpoints on the
 * API port, tokens only) on an embedded Postgres of its own; eth counts as indexed, so screening
 * runs as in production. Each request is a new transfer, sent `concurrency` at a time over
 * kept-alive TLS connections, after a warm-up; the figure is the whole request as the client
 * sees it. The counterparty's rate limit (TOLLGATE_TRP_INQUIRIES_PER_MINUTE) is off here.
 *   node --import tsx bench/travelrule.ts [transfers] [concurrency]   (default 1,000 × 8)
 *     writes bench/results/travelrule.json
 * Figures, not assertions.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { createApiKey } from '../src/keys/keys.js';
import { upsertVasp } from '../src/travelrule/vasps.js';
import { travelBody } from '../support/travel-rule-body.js';
import { startBenchApi } from './lib/api-appliance.js';
import { latencySummary, machine, round, writeResult } from './lib/common.js';

const TRANSFERS = Number(process.argv[2] ?? 1_000);
const CONCURRENCY = Number(process.argv[3] ?? 8);
const WARMUP = 50;
const TOKEN = 'bench-inbound-token-0123456789abcdef01234';

const bench = await startBenchApi('travelrule', {
  TOLLGATE_TRP_INQUIRIES_PER_MINUTE: '0',
  TOLLGATE_TRP_REQUIRE_CLIENT_CERT: 'false',
  TOLLGATE_TRP_ALLOW_CIDRS: '127.0.0.0/8',
});
const { app } = bench;
const sql = app.db.sql;
const base = `https://127.0.0.1:${app.apiPort}`;
const key = await createApiKey(sql, 'backend');
const COUNTERPARTY = '0c0c0c0c-0000-4000-8000-00000000000c';
await upsertVasp(
  sql,
  {
    uid: COUNTERPARTY,
    name: 'Counterparty AG',
    website: 'https://counterparty.example',
    trp_endpoint: 'https://127.0.0.1:9/trp',
    inbound_token: TOKEN,
  },
  'cli',
);
const dispatcher = new Agent({
  connect: { rejectUnauthorized: false },
  connections: CONCURRENCY,
  pipelining: 1,
});

const parties = travelBody('ignored');
/** A TRP inquiry as a counterparty sends it (TRP 3.1: asset, amount, callback, IVMS101). */
const inquiry = JSON.stringify({
  asset: { slip0044: 60 },
  amount: 1.25,
  callback: 'https://127.0.0.1:9/trp/callback',
  IVMS101: {
    originator: {
      originatorPersons: parties.originator.persons,
      accountNumber: parties.originator.accountNumber,
    },
    beneficiary: {
      beneficiaryPersons: parties.beneficiary.persons,
      accountNumber: parties.beneficiary.accountNumber,
    },
    originatingVASP: {
      originatingVASP: {
        legalPerson: {
          name: {
            nameIdentifier: [
              { legalPersonName: 'Counterparty AG', legalPersonNameIdentifierType: 'LEGL' },
            ],
          },
        },
      },
    },
  },
});

type Send = (i: number) => Promise<number>;
const sendInquiry: Send = async () => {
  const r = await request(`${base}/trp/v3/inquiries/${TOKEN}`, {
    method: 'POST',
    dispatcher,
    headers: {
      'content-type': 'application/json',
      'api-version': '3.1.0',
      'request-identifier': randomUUID(),
    },
    body: inquiry,
  });
  await r.body.text();
  return r.statusCode;
};
let refs = 0;
const sendCreate: Send = async () => {
  const r = await request(`${base}/v2/travelrule/create_tx`, {
    method: 'POST',
    dispatcher,
    headers: { 'content-type': 'application/json', apikey: key.apikey },
    body: JSON.stringify(travelBody(`bench-${++refs}`, { beneficiary_vasp_id: COUNTERPARTY })),
  });
  await r.body.text();
  return r.statusCode;
};

/** `n` transfers, CONCURRENCY at a time: the rate, the latencies, the statuses seen. */
async function run(send: Send, n: number) {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < n; i = next++) {
        const t = performance.now();
        const status = await send(i);
        latencies.push(performance.now() - t);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    transfers: n,
    per_s: round(n / seconds),
    latency_ms: latencySummary(latencies),
    statuses: Object.fromEntries(statuses),
  };
}

const result: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: machine(),
  concurrency: CONCURRENCY,
};
for (const [name, send] of [
  ['trp_inquiries', sendInquiry],
  ['create_tx', sendCreate],
] as const) {
  await run(send, WARMUP);
  const r = await run(send, TRANSFERS);
  result[name] = r;
  console.log(
    `${name}: ${r.per_s} transfers/s; latency p50 ${r.latency_ms.p50} ms, p99 ${r.latency_ms.p99} ms, max ${r.latency_ms.max} ms; statuses ${JSON.stringify(r.statuses)}`,
  );
}
const [stored] = await sql<{ n: number }[]>`select count(*)::int as n from travelrule_transactions`;
result.stored = stored!.n;
console.log(`stored transfers: ${stored!.n} (expected ${2 * (TRANSFERS + WARMUP)})`);
writeResult('travelrule', result);
await dispatcher.close();
await bench.stop();
