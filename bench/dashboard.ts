/**
 * Dashboard page render time with 10,000 travel rule transactions: one real transaction made
 * through create_tx (sealed and screened by the appliance), cloned 9,999 times with
 * generate_series (statuses, directions, dates and counterparty VASPs spread; clones keep the
 * template's ciphertext, which only the template's id opens, and list pages never decrypt),
 * each with its history, plus 20,000 audit log entries and an indexed network. An operator logs
 * in over HTTPS through the login form (cookie and CSRF token, as a browser would), then each
 * page is requested one at a time after a warm-up; the figure is the whole request as the
 * client sees it (TLS keep-alive, render, transfer).
 * The two CSV exports (every transaction, every audit entry: as many rows as there are, up to
 * the export's limit of 100,000) are timed too, against the request deadline (20 s by default).
 *   node --import tsx bench/dashboard.ts [requests-per-page] [transactions]
 *     writes bench/results/dashboard.json (dashboard-<transactions>.json when not 10,000)
 * Figures, not assertions. Target (issue 6): under 200 ms per page.
 */
import { Agent, request } from 'undici';
import { ensureNetworkPartitions } from '../src/indexer/evm/store.js';
import { createApiKey } from '../src/keys/keys.js';
import { createOperator } from '../src/operators/operators.js';
import { upsertVasp } from '../src/travelrule/vasps.js';
import { travelBody } from '../support/travel-rule-body.js';
import { startBenchApi } from './lib/api-appliance.js';
import { machine, writeResult } from './lib/common.js';

const REQUESTS = Number(process.argv[2] ?? 200);
const WARMUP = 10;
/** At most 100,000 (an export's limit; the clones' references have five digits). */
const TRANSACTIONS = Math.min(100_000, Number(process.argv[3] ?? 10_000));
const VASPS = 50;
const AUDIT_ENTRIES = Math.max(20_000, TRANSACTIONS);
/** Each export (the whole queue, the whole audit log) timed this many times after one warm-up. */
const EXPORTS = 3;
/** One in five clones is PENDING (2,000 in the default queue); the rest spread over later statuses. */
const CLONE_STATUSES = [
  'PENDING',
  'PENDING',
  'REJECTED',
  'COMPLETED',
  'OTHER_VASP_PENDING',
  'WAITING_TX_HASH',
  'WAITING_ADDRESS_DATA',
  'TRANSACTION_CONFIRMED',
  'OTHER_VASP_REJECTED',
  'APPROVED',
];

const bench = await startBenchApi('dashboard');
const { app } = bench;
const sql = app.db.sql;
const base = `https://127.0.0.1:${app.apiPort}`;
const insecure = new Agent({ connect: { rejectUnauthorized: false } });
await ensureNetworkPartitions(sql, 'eth');
await sql.unsafe(
  `create table if not exists address_edges_eth partition of address_edges for values in ('eth')`,
);

// ---------------------------------------------------------------------------------------------
// Data

const built = performance.now();
const { apikey } = await createApiKey(sql, 'bench');
const vaspUids: string[] = [];
for (let i = 1; i <= VASPS; i++) {
  const uid = `b0000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  await upsertVasp(
    sql,
    {
      uid,
      name: `Bench Exchange ${i}`,
      website: `https://exchange-${i}.example`,
      country: 'DE',
      trp_endpoint: `https://exchange-${i}.example/trp`,
    },
    'cli',
  );
  vaspUids.push(uid);
}
const created = await request(`${base}/v2/travelrule/create_tx`, {
  method: 'POST',
  dispatcher: insecure,
  headers: { apikey, 'content-type': 'application/json' },
  body: JSON.stringify(travelBody('bench-template', { beneficiary_vasp_id: vaspUids[0] })),
});
const createdBody = (await created.body.json()) as { data?: string };
if (createdBody.data !== 'PENDING')
  throw new Error(`create_tx answered ${JSON.stringify(createdBody)}`);
const [template] = await sql<
  { id: string }[]
>`select id from travelrule_transactions where transaction_ref = 'bench-template'`;
const templateId = template!.id;

await sql`
  insert into travelrule_transactions (id, api_key_id, direction, transaction_ref, asset, network, amount, decimals,
    beneficiary_vasp_id, counterparty_protocol, counterparty_vasp_id, status, ivms101_ciphertext, ivms101_nonce, ivms101_key_id,
    originator_score, beneficiary_score, screening, screened_at, threshold, created_at, updated_at)
  select gen_random_uuid(), t.api_key_id, case when g % 2 = 0 then 'incoming' else 'outgoing' end,
    'bench-' || lpad(g::text, 5, '0'), t.asset, t.network, (g % 1000) / 100.0 + 0.01, t.decimals,
    v.uid, 'trp', v.uid, (${CLONE_STATUSES}::text[])[1 + g % ${CLONE_STATUSES.length}],
    t.ivms101_ciphertext, t.ivms101_nonce, t.ivms101_key_id, g % 101, (g * 7) % 101, t.screening, t.screened_at, t.threshold,
    now() - g * interval '25 minutes', now() - g * interval '25 minutes'
  from travelrule_transactions t, generate_series(1, ${TRANSACTIONS - 1}) g,
    lateral (select (${vaspUids}::uuid[])[1 + g % ${VASPS}] as uid) v
  where t.id = ${templateId}`;
// Each clone's history: the template's own (creation, screening, PENDING), shifted to its
// creation time, then one operator decision for those past PENDING.
await sql`
  insert into travelrule_history (transaction_id, from_status, to_status, trigger, actor_type, actor_id, reason, at)
  select c.id, h.from_status, h.to_status, h.trigger, h.actor_type, h.actor_id, h.reason, c.created_at + (h.at - t.created_at)
  from travelrule_transactions c
    join travelrule_transactions t on t.id = ${templateId}
    join travelrule_history h on h.transaction_id = t.id
  where c.transaction_ref ~ '^bench-[0-9]{5}$'
  order by c.created_at, h.id`;
await sql`
  insert into travelrule_history (transaction_id, from_status, to_status, trigger, actor_type, actor_id, reason, at)
  select id, 'PENDING', status, 'operator_decision', 'operator', 'bench.reviewer', case when status = 'REJECTED' then 'bench' end, created_at + interval '5 minutes'
  from travelrule_transactions where transaction_ref ~ '^bench-[0-9]{5}$' and status <> 'PENDING'`;
await sql`
  insert into audit_log (at, actor, action, target, details)
  select now() - g * interval '10 minutes', 'bench.reviewer',
    (array['travelrule_accept', 'travelrule_reject', 'travelrule_view', 'login'])[1 + g % 4], gen_random_uuid()::text, '{}'::jsonb
  from generate_series(1, ${AUDIT_ENTRIES}) g`;
// A network as an indexer leaves it, for the operations page.
await sql`
  insert into indexer_cursors (network, chain_id, block_number, block_hash, head_number, head_seen_at)
  values ('eth', 1, 21000000, ${'0x' + 'ab'.repeat(32)}, 21000003, now())
  on conflict (network) do update set block_number = excluded.block_number, head_number = excluded.head_number, head_seen_at = now()`;
for (const table of ['travelrule_transactions', 'travelrule_history', 'audit_log', 'vasps'])
  await sql.unsafe(`vacuum analyze ${table}`);
const [counted] = await sql<{ n: number; pending: number }[]>`
  select count(*)::int as n, count(*) filter (where status = 'PENDING')::int as pending from travelrule_transactions`;
const buildS = (performance.now() - built) / 1000;
console.log(
  `data: ${counted!.n} travel rule transactions (${counted!.pending} PENDING), ${VASPS} VASPs, ${AUDIT_ENTRIES} audit entries; built in ${buildS.toFixed(1)} s`,
);

// ---------------------------------------------------------------------------------------------
// Log in as a browser does: the login form's CSRF cookie and field, then the session cookie.

const jar = new Map<string, string>();
const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
function keepCookies(headers: Record<string, string | string[] | undefined>): void {
  const set = headers['set-cookie'];
  for (const line of Array.isArray(set) ? set : set ? [set] : []) {
    const [pair] = line.split(';');
    const eq = pair!.indexOf('=');
    jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
  }
}
const csrfOf = (html: string) =>
  /name="_csrf"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="_csrf"/
    .exec(html)
    ?.slice(1)
    .find(Boolean);

const operator = await createOperator(sql, 'bench.reviewer', 'reviewer');
const loginPage = await request(`${base}/dashboard/login`, { dispatcher: insecure });
keepCookies(loginPage.headers);
const loginCsrf = csrfOf(await loginPage.body.text());
if (!loginCsrf) throw new Error('no _csrf field on /dashboard/login');
const loggedIn = await request(`${base}/dashboard/login`, {
  method: 'POST',
  dispatcher: insecure,
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    cookie: cookieHeader(),
    origin: base,
  },
  body: new URLSearchParams({
    login: operator.login,
    password: operator.password,
    _csrf: loginCsrf,
  }).toString(),
});
await loggedIn.body.dump();
keepCookies(loggedIn.headers);
if ((loggedIn.statusCode !== 302 && loggedIn.statusCode !== 303) || !jar.has('tollgate_session'))
  throw new Error(`login failed: HTTP ${loggedIn.statusCode}`);

// ---------------------------------------------------------------------------------------------
// Pages

const PAGES: { name: string; path: string }[] = [
  { name: 'queue (PENDING, default)', path: '/dashboard/travelrule' },
  { name: 'queue (all statuses)', path: '/dashboard/travelrule?status=' },
  { name: 'search by reference', path: '/dashboard/travelrule?status=&ref=bench-04321' },
  { name: 'transaction detail', path: `/dashboard/travelrule/${templateId}` },
  { name: 'operations', path: '/dashboard/operations' },
  { name: 'audit log', path: '/dashboard/audit' },
  { name: 'audit log of one reference', path: '/dashboard/audit?target=bench-04321' },
  { name: 'VASP directory', path: '/dashboard/vasps' },
];

const pct = (sorted: number[], p: number) =>
  Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! * 10) / 10;
const results: {
  page: string;
  path: string;
  bytes: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}[] = [];
for (const page of PAGES) {
  const timings: number[] = [];
  let bytes = 0;
  for (let i = 0; i < REQUESTS + WARMUP; i++) {
    const started = performance.now();
    const res = await request(base + page.path, {
      dispatcher: insecure,
      headers: { cookie: cookieHeader() },
    });
    const html = await res.body.text();
    const ms = performance.now() - started;
    if (res.statusCode !== 200) throw new Error(`${page.path}: HTTP ${res.statusCode}`);
    bytes = Buffer.byteLength(html);
    if (i >= WARMUP) timings.push(ms); // the first ones warm caches, the pool and the JIT
  }
  timings.sort((a, b) => a - b);
  results.push({
    page: page.name,
    path: page.path,
    bytes,
    p50: pct(timings, 50),
    p95: pct(timings, 95),
    p99: pct(timings, 99),
    max: pct(timings, 100),
  });
}

const width = Math.max(...results.map((r) => r.page.length));
console.log(
  `\n${'page'.padEnd(width)}  ${['p50', 'p95', 'p99', 'max'].map((h) => h.padStart(8)).join('')}  (ms, ${REQUESTS} requests each)     size`,
);
for (const r of results) {
  console.log(
    `${r.page.padEnd(width)}  ${[r.p50, r.p95, r.p99, r.max].map((v) => v.toFixed(1).padStart(8)).join('')}  ${r.p99 < 200 ? 'under 200 ms' : 'OVER 200 ms '}  ${(r.bytes / 1024).toFixed(1).padStart(6)} KiB`,
  );
}

// ---------------------------------------------------------------------------------------------
// Exports: the whole queue and the whole audit log as CSV, one at a time.

const EXPORT_PATHS = [
  { name: 'transactions CSV (all statuses)', path: '/dashboard/travelrule/export?status=' },
  { name: 'audit log CSV (all entries)', path: '/dashboard/audit/export' },
];
const exports: { export: string; rows: number; bytes: number; ms: number[] }[] = [];
for (const ex of EXPORT_PATHS) {
  const ms: number[] = [];
  let csv = '';
  for (let i = 0; i < EXPORTS + 1; i++) {
    const started = performance.now();
    const res = await request(base + ex.path, {
      dispatcher: insecure,
      headers: { cookie: cookieHeader() },
      headersTimeout: 120_000,
      bodyTimeout: 120_000,
    });
    csv = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${ex.path}: HTTP ${res.statusCode}`);
    if (i > 0) ms.push(Math.round(performance.now() - started));
  }
  exports.push({
    export: ex.name,
    rows: csv.split('\r\n').length - 2,
    bytes: Buffer.byteLength(csv),
    ms,
  });
}
console.log(`\nexport (${EXPORTS} times each, after a warm-up)`);
for (const e of exports)
  console.log(
    `${e.export.padEnd(width)}  ${e.rows} rows, ${(e.bytes / 1024 / 1024).toFixed(1)} MiB: ${e.ms.join(', ')} ms`,
  );

const result = {
  date: new Date().toISOString(),
  machine: machine(),
  data: {
    transactions: counted!.n,
    pending: counted!.pending,
    vasps: VASPS,
    audit_entries: AUDIT_ENTRIES,
    build_s: Math.round(buildS * 10) / 10,
  },
  target_ms: 200,
  requests_per_page: REQUESTS,
  latency_ms: results,
  exports,
};
writeResult(TRANSACTIONS === 10_000 ? 'dashboard' : `dashboard-${TRANSACTIONS}`, result);
await insecure.close();
await bench.stop();
