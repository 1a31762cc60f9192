import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect as connectTls } from 'node:tls';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.js';
import { createApiKey } from '../src/keys/keys.js';
import { openPool } from '../src/db/index.js';
import { startTestAppliance } from './helpers/appliance.js';
import { call } from './helpers/http.js';
import { freePort } from '../support/ports.js';
import { selfSignedLoopback } from './helpers/certs.js';
import { eventually } from './helpers/eventually.js';

// A Postgres of this test's own, so that stopping it disturbs no other test file.
const dir = mkdtempSync(join(tmpdir(), 'tollgate-outage-'));
chmodSync(dir, 0o711);
let port: number;
let pg: EmbeddedDatabase;

beforeAll(async () => {
  port = await freePort();
  pg = await startEmbeddedPostgres(dir, port);
});
/** Postgres's processes stopped by the frozen-server test (woken before anything else). */
let frozen: number[] = [];
function thaw(): void {
  for (const pid of frozen.splice(0)) process.kill(pid, 'SIGCONT');
}
afterAll(async () => {
  thaw();
  await pg?.stop();
});

it('answers 503 JSON while the database is down, stays up, and recovers', async () => {
  const app = await startTestAppliance(
    pg.url,
    {},
    { api: true, worker: false, indexer: false, devChain: false },
  );
  try {
    const sql = openPool(pg.url, { max: 1 });
    const { apikey } = await createApiKey(sql, 'outage');
    await sql.end();
    const list = () => call(app.baseUrl, 'GET', '/v2/stream/list', { headers: { apikey } });
    expect((await list()).json).toMatchObject({ code: 0 });

    await pg.stop();
    const down = await list();
    expect(down.status).toBe(503);
    expect(down.json).toMatchObject({ code: 5030, status: 5030 });
    expect(down.headers['retry-after']).toBe('5');
    expect(down.text).not.toMatch(/ECONNREFUSED|postgres:\/\//);
    const ready = await call(app.baseUrl, 'GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.json.database).toBe(false);
    // The dashboard says so as a page (its session is read from the database), not as a failure.
    const page = await call(app.baseUrl, 'GET', '/dashboard/travelrule', {
      headers: { cookie: 'tollgate_session='.padEnd(60, 'x') },
    });
    expect(page.status).toBe(503);
    expect(page.text).toContain('The database cannot serve this page now (database unreachable)');
    expect(page.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);

    pg = await startEmbeddedPostgres(dir, port);
    let up = await list();
    for (let i = 0; i < 50 && up.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 200));
      up = await list();
    }
    expect(up.json).toMatchObject({ code: 0 });
  } finally {
    await app.stop();
  }
});

it('takes a client that hangs up mid-body for what it is: not a database outage, not a 503', async () => {
  const app = await startTestAppliance(
    pg.url,
    {},
    { api: true, worker: false, indexer: false, devChain: false },
  );
  try {
    const sql = openPool(pg.url, { max: 1 });
    const { apikey } = await createApiKey(sql, 'hang-up');
    await sql.end();
    const { connect } = await import('node:tls');
    for (let i = 0; i < 3; i++) {
      const socket = connect({ host: '127.0.0.1', port: app.apiPort!, rejectUnauthorized: false });
      await new Promise<void>((resolve, reject) =>
        socket.once('secureConnect', resolve).once('error', reject),
      );
      socket.write(
        `POST /v2/stream/create HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\napikey: ${apikey}\r\ncontent-length: 1000\r\n\r\n{"address":`,
      );
      await new Promise((r) => setTimeout(r, 100));
      socket.destroy();
    }
    await new Promise((r) => setTimeout(r, 300));
    const metrics = await call(app.baseUrl, 'GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).not.toMatch(
      /tollgate_http_request_duration_seconds_count\{[^}]*status="503"/,
    );
    expect(
      (await call(app.baseUrl, 'GET', '/v2/stream/list', { headers: { apikey } })).json,
    ).toMatchObject({ code: 0 });
  } finally {
    await app.stop();
  }
});

const apiOnly = { api: true, worker: false, indexer: false, devChain: false } as const;

/**
 * A POST over TLS whose body stops after 10 of its declared 100 bytes: everything the server
 * writes until it closes the connection (or 10 s pass).
 */
function slowBody(
  port: number,
  path: string,
  apikey: string,
  framing: 'length' | 'chunked' = 'length',
): Promise<string> {
  return new Promise((resolve) => {
    const socket = connectTls({ port, host: '127.0.0.1', rejectUnauthorized: false }, () =>
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\napikey: ${apikey}\r\nContent-Type: application/json\r\n${
          framing === 'length'
            ? 'Content-Length: 100\r\n\r\n{"address":'
            : 'Transfer-Encoding: chunked\r\n\r\nb\r\n{"address":\r\n'
        }`,
      ),
    );
    let data = '';
    socket.on('data', (d) => (data += d.toString('utf8')));
    socket.on('close', () => resolve(data));
    socket.on('error', () => resolve(data));
    setTimeout(() => socket.destroy(), 10_000);
  });
}

/** Every answer is the spec's 503 (retry later) or a success; nothing of Postgres's words leaks. */
function expectOkOr503(res: Awaited<ReturnType<typeof call>>): void {
  if (res.status === 200) return void expect(res.json).toMatchObject({ code: 0 });
  expect(res.status).toBe(503);
  expect(res.json).toMatchObject({ code: 5030, status: 5030 });
  expect(res.headers['retry-after']).toBe('5');
  expect(res.text).not.toMatch(/too many|clients|read-only|postgres/i);
}

/** Ends every other client's session on this test's Postgres (the API's pool reconnects). */
async function closeOtherConnections(admin: ReturnType<typeof openPool>): Promise<void> {
  await admin`
    select pg_terminate_backend(pid) from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`;
}

it('answers 503 (retry later) while Postgres has no connection to give, not a 500', async () => {
  const app = await startTestAppliance(pg.url, {}, apiOnly);
  const admin = openPool(pg.url, { max: 300 });
  const held: Awaited<ReturnType<typeof admin.reserve>>[] = [];
  try {
    const { apikey } = await createApiKey(admin, 'full');
    const list = () => call(app.baseUrl, 'GET', '/v2/stream/list', { headers: { apikey } });
    expect((await list()).status).toBe(200);
    // The API's open connections closed (as a failover or an idle timeout would), so the requests
    // below need new ones: with a warm connection they may all be served one after another on it.
    await closeOtherConnections(admin);
    // Every connection Postgres has (max_connections) taken, as by other clients of a shared server.
    for (;;) {
      try {
        held.push(await admin.reserve());
      } catch (err) {
        expect((err as { code?: string }).code).toBe('53300');
        break;
      }
    }
    // Requests side by side need connections the API's pool does not hold now.
    const answers = await Promise.all(Array.from({ length: 30 }, list));
    for (const res of answers) expectOkOr503(res);
    expect(answers.filter((r) => r.status === 503).length).toBeGreaterThan(0);

    for (const c of held.splice(0)) c.release();
    await admin.end();
    let again = await Promise.all(Array.from({ length: 30 }, list));
    for (let i = 0; i < 20 && again.some((r) => r.status !== 200); i++) {
      await new Promise((r) => setTimeout(r, 200));
      again = await Promise.all(Array.from({ length: 30 }, list));
    }
    expect(again.map((r) => r.status)).toEqual(again.map(() => 200));
  } finally {
    for (const c of held) c.release();
    await admin.end().catch(() => {});
    await app.stop();
  }
});

it('answers 503 (retry later) to a write while the database is read-only (a failover), then takes it', async () => {
  const app = await startTestAppliance(pg.url, {}, apiOnly);
  const admin = openPool(pg.url, { max: 1 });
  // The API's connections are opened again: from now on they are read-only sessions.
  const reconnectApi = () => closeOtherConnections(admin);
  try {
    const { apikey } = await createApiKey(admin, 'read-only');
    const create = () =>
      call(app.baseUrl, 'POST', '/v2/stream/create', {
        headers: { apikey },
        body: { address: `0x${'7'.repeat(40)}`, webhook: 'http://127.0.0.1:9/hook' },
      });
    await admin`alter database postgres set default_transaction_read_only = on`;
    await reconnectApi();
    let res = await create();
    // The first request after the cut may meet a terminated connection (503 too).
    for (let i = 0; i < 5 && res.status !== 503; i++) res = await create();
    expectOkOr503(res);
    expect(res.status).toBe(503);
    expect(await admin`select 1 from tracked_addresses`).toEqual([]);

    await admin`alter database postgres reset default_transaction_read_only`;
    await reconnectApi();
    res = await create();
    for (let i = 0; i < 20 && res.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 200));
      res = await create();
    }
    expect(res.json).toMatchObject({ code: 0 });
  } finally {
    await admin`alter database postgres reset default_transaction_read_only`.catch(() => {});
    await admin.end();
    await app.stop();
  }
});

/** The postmaster of this test's Postgres and its processes (every backend), from /proc. */
function postgresProcesses(): number[] {
  const postmaster = Number(
    readFileSync(join(dir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
  );
  const children = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
  return [postmaster, ...children];
}

it('answers 503 at its deadline while Postgres is frozen (no statement fails, nothing answers), and carries on when it answers again', async () => {
  // The TRP listener of its own too (mutual TLS): its answers are worded apart.
  const certs = mkdtempSync(join(tmpdir(), 'tollgate-frozen-trp-'));
  const ours = await selfSignedLoopback('127.0.0.1');
  writeFileSync(join(certs, 'cert.pem'), ours.cert);
  writeFileSync(join(certs, 'key.pem'), ours.key);
  const app = await startTestAppliance(
    pg.url,
    {
      TOLLGATE_REQUEST_TIMEOUT_MS: '2000',
      TOLLGATE_TRP_PORT: String(await freePort()),
      TOLLGATE_TRP_CLIENT_CERT_FILE: join(certs, 'cert.pem'),
      TOLLGATE_TRP_CLIENT_KEY_FILE: join(certs, 'key.pem'),
      TOLLGATE_TRP_REQUIRE_CLIENT_CERT: 'true',
    },
    apiOnly,
  );
  const admin = openPool(pg.url, { max: 1 });
  try {
    const { apikey } = await createApiKey(admin, 'frozen');
    const headers = { apikey };
    const list = () => call(app.baseUrl, 'GET', '/v2/stream/list', { headers });
    const address = `0x${'5'.repeat(40)}`;
    // Every connection of the API's pool open: a statement sent on one now waits for the server
    // (only a new connection would time out by itself).
    for (const res of await Promise.all(Array.from({ length: 15 }, list)))
      expect(res.status).toBe(200);

    frozen = postgresProcesses();
    for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    const [read, write, ready, page, trp] = await Promise.all([
      list(),
      call(app.baseUrl, 'POST', '/v2/stream/create', {
        headers,
        body: { address, webhook: 'http://127.0.0.1:9/hook' },
      }),
      call(app.baseUrl, 'GET', '/readyz'),
      call(app.baseUrl, 'GET', '/dashboard/travelrule', {
        headers: { cookie: 'tollgate_session='.padEnd(60, 'x') },
      }),
      // A counterparty's certificate is looked up in the directory before its message is read.
      call(
        `https://127.0.0.1:${app.trpPort}`,
        'POST',
        '/trp/v3/inquiries/counterparty-token-0123456789',
        {
          headers: { 'api-version': '3.1.0', 'request-identifier': randomUUID() },
          body: {},
          clientCert: await selfSignedLoopback('127.0.0.1'),
        },
      ),
    ]);
    expect(read.status).toBe(503);
    expect(read.json).toMatchObject({ code: 5030, status: 5030 });
    expect(read.json.message).toMatch(
      /^Service unavailable: no answer within 2 s \(the database.*retry later \(request id /,
    );
    expect(read.headers['retry-after']).toBe('5');
    // A write may have reached the server before it froze: the answer does not promise otherwise.
    expect(write.status).toBe(503);
    expect(write.json).toMatchObject({ code: 5030, status: 5030 });
    expect(write.json.message).toMatch(
      /The change may still be applied when it answers: check before sending it again/,
    );
    // /readyz bounds its own wait and says what it knows.
    expect(ready.status).toBe(503);
    expect(ready.json).toMatchObject({ ready: false, database: false });
    // The dashboard words it as a page.
    expect(page.status).toBe(503);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('did not answer within 2 s');
    expect(trp.status).toBe(503);
    expect(trp.json).toMatchObject({ code: 5030, status: 5030 });
    expect(trp.json.message).toMatch(/no answer within 2 s/);
    expect(trp.headers.connection).toBe('close');
    // The process answers what needs no database meanwhile.
    expect((await call(app.baseUrl, 'GET', '/healthz')).status).toBe(200);

    thaw();
    // The write handed to the database before the deadline took effect once it answered, as its
    // answer warned; everything else answers again.
    const after = await eventually(list, (r) => r.status === 200 && r.json.data.length > 0);
    expect(after.json.data.map((s: { address: string }) => s.address.toLowerCase())).toEqual([
      address,
    ]);
    expect((await call(app.baseUrl, 'GET', '/readyz')).json.database).toBe(true);
  } finally {
    thaw();
    await admin.end();
    await app.stop();
  }
});

it('leaves nothing of the requests that waited for their turn past their deadline to run when a frozen Postgres answers again', async () => {
  const LIMIT = 8;
  const app = await startTestAppliance(
    pg.url,
    {
      TOLLGATE_REQUEST_TIMEOUT_MS: '2000',
      TOLLGATE_RATE_LIMIT_PER_MINUTE: '0',
      TOLLGATE_API_MAX_CONCURRENT_REQUESTS: String(LIMIT),
    },
    apiOnly,
  );
  const admin = openPool(pg.url, { max: 1 });
  try {
    const { apikey, id: keyId } = await createApiKey(admin, 'line');
    const headers = { apikey };
    expect((await call(app.baseUrl, 'GET', '/v2/stream/list', { headers })).status).toBe(200);
    // A body that stops arriving is the client's delay, not the database's: 408 at the deadline,
    // and the connection closed (the rest may still come); not counted as waiting for a turn.
    // Chunked too: its body is read whole before its turn (it was a 503 blaming the database,
    // the change "may still be applied"; found by an outside probe).
    for (const [path, framing] of [
      ['/v2/stream/create', 'length'],
      ['/v2/stream/create', 'chunked'],
      ['/dashboard/login', 'length'],
      ['/dashboard/login', 'chunked'],
    ] as const) {
      const answer = await slowBody(app.apiPort!, path, apikey, framing);
      const [head, body] = answer.split('\r\n\r\n');
      expect(head, path).toMatch(/^HTTP\/1\.1 408 /);
      expect(head!.toLowerCase()).toContain('connection: close');
      expect(body).toMatch(/not received within 2 s/);
      if (path.startsWith('/v2/'))
        expect(JSON.parse(body!)).toMatchObject({ code: 5000, status: 5000 });
    }
    frozen = postgresProcesses();
    for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    // 80 writes while the server is frozen: the first LIMIT are at work (their statements out),
    // the rest wait for their turn.
    const addresses = Array.from(
      { length: 80 },
      (_, i) => `0x${(0xa000 + i).toString(16).padStart(40, '0')}`,
    );
    const answers = await Promise.all(
      addresses.map((address) =>
        call(app.baseUrl, 'POST', '/v2/stream/create', {
          headers,
          body: { address, webhook: 'http://127.0.0.1:9/hook' },
        }),
      ),
    );
    for (const a of answers) {
      expect(a.status).toBe(503);
      expect(a.json).toMatchObject({ code: 5030, status: 5030 });
    }
    const mayApply = addresses.filter((_, i) =>
      /may still be applied/.test(answers[i]!.json.message),
    );
    const neverRan = addresses.filter((_, i) =>
      /did not start within 2 s \(the requests before it are waiting on the database\); nothing of it was applied: retry later/.test(
        answers[i]!.json.message,
      ),
    );
    expect(mayApply.length).toBe(LIMIT);
    expect(neverRan.length).toBe(addresses.length - LIMIT);
    // The health listener's and /healthz's answers do not wait in the line.
    expect((await call(app.baseUrl, 'GET', '/healthz')).status).toBe(200);

    thaw();
    // What was at work is applied once the server answers; nothing of what waited is.
    const stored = async () =>
      (
        await admin<
          { address: string }[]
        >`select lower(address) as address from tracked_addresses where api_key_id = ${keyId}`
      ).map((r) => r.address);
    expect((await eventually(stored, (a) => a.length >= LIMIT)).sort()).toEqual(
      [...mayApply].sort(),
    );
    // A little later still nothing more (the waiting ones were dropped, not delayed).
    await new Promise((r) => setTimeout(r, 1000));
    expect((await stored()).sort()).toEqual([...mayApply].sort());
    // And the line is empty again: the requests that come now are served.
    const again = await call(app.baseUrl, 'POST', '/v2/stream/create', {
      headers,
      body: { address: neverRan[0], webhook: 'http://127.0.0.1:9/hook' },
    });
    expect(again.status).toBe(200);
    const metrics = await call(app.baseUrl, 'GET', '/metrics');
    expect(metrics.text).toMatch(/^tollgate_api_requests_expired_waiting_total 72$/m);
    expect(metrics.text).toMatch(/^tollgate_api_requests_waiting 0$/m);
  } finally {
    thaw();
    await admin.end();
    await app.stop();
  }
});

it('under steady traffic through a restart and a freeze of Postgres, every answer is a success or the spec-shaped 503, never a 500 or a dropped connection', async () => {
  const app = await startTestAppliance(
    pg.url,
    // The clients below send far more than a key's rate limit allows.
    { TOLLGATE_REQUEST_TIMEOUT_MS: '2000', TOLLGATE_RATE_LIMIT_PER_MINUTE: '0' },
    apiOnly,
  );
  const admin = openPool(pg.url, { max: 1 });
  const { apikey } = await createApiKey(admin, 'traffic');
  await admin.end();
  const headers = { apikey };
  const answers: Awaited<ReturnType<typeof call>>[] = [];
  // Requests sent and answered before the faults, and a while after the last (their statuses).
  let phase: 'before' | 'faults' | 'after' = 'before';
  const calm: Record<'before' | 'after', number[]> = { before: [], after: [] };
  /** The calm phases' answers other than 200, with when they were sent and answered. */
  const calmFailures: string[] = [];
  const t0 = Date.now();
  let created = 0;
  let running = true;
  // Reads of three kinds and writes of new streams, ten clients, each sending again as soon as
  // it is answered.
  const client = async (i: number) => {
    for (let n = 0; running; n++) {
      const address = `0x${i.toString(16).padStart(2, '0')}${n.toString(16).padStart(38, '0')}`;
      const sentIn = phase;
      const sentAt = Date.now() - t0;
      const res = await [
        () => call(app.baseUrl, 'GET', '/v2/stream/list', { headers }),
        () =>
          call(app.baseUrl, 'GET', `/v2/analyze/aml?network=eth&address=${address}`, { headers }),
        () => call(app.baseUrl, 'GET', '/v2/liveaml/list?page=1&limit=10', { headers }),
        () => {
          created++;
          return call(app.baseUrl, 'POST', '/v2/stream/create', {
            headers,
            body: { address, webhook: 'http://127.0.0.1:9/hook' },
          });
        },
      ][n % 4]!();
      answers.push(res);
      if ((sentIn === 'before' || sentIn === 'after') && phase === sentIn) {
        calm[sentIn].push(res.status);
        if (res.status !== 200)
          calmFailures.push(
            `${sentIn} ${n % 4} sent ${sentAt} ms, answered ${Date.now() - t0} ms: ${res.status} ${res.text}`,
          );
      }
    }
  };
  const clients = Array.from({ length: 10 }, (_, i) => client(i));
  try {
    await new Promise((r) => setTimeout(r, 1000));
    phase = 'faults';
    await pg.stop();
    await new Promise((r) => setTimeout(r, 1500));
    pg = await startEmbeddedPostgres(dir, port);
    await new Promise((r) => setTimeout(r, 1500));
    frozen = postgresProcesses();
    for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    await new Promise((r) => setTimeout(r, 3000));
    thaw();
    // Requests sent in the freeze's last moments are answered after it: then calm again.
    await new Promise((r) => setTimeout(r, 2500));
    phase = 'after';
    await new Promise((r) => setTimeout(r, 1500));
  } finally {
    thaw();
    running = false;
    await Promise.all(clients);
    await app.stop();
  }
  const byStatus = new Map<number, number>();
  for (const res of answers) byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
  // Both faults were felt (a refused connection is answered at once, so most answers of the
  // restart are 503s), and the API served fully before and after them.
  expect([...byStatus.keys()].sort()).toEqual([200, 503]);
  expect(calm.before.length).toBeGreaterThan(0);
  expect(calm.after.length).toBeGreaterThan(0);
  expect(calmFailures).toEqual([]);
  expect(new Set([...calm.before, ...calm.after])).toEqual(new Set([200]));
  for (const res of answers) expectOkOr503(res);
  expect(
    answers.filter((r) => /no answer within 2 s/.test(r.json?.message ?? '')).length,
  ).toBeGreaterThan(0);
  expect(created).toBeGreaterThan(0);
}, 60_000);
