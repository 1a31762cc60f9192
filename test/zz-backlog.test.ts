import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.js';
import { createApiKey } from '../src/keys/keys.js';
import { openPool } from '../src/db/index.js';
import { startTestAppliance } from './helpers/appliance.js';
import { call } from './helpers/http.js';
import { freePort } from '../support/ports.js';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-backlog-'));
chmodSync(dir, 0o711);
let pg: EmbeddedDatabase;
beforeAll(async () => {
  pg = await startEmbeddedPostgres(dir, await freePort());
});
let frozen: number[] = [];
const thaw = () => {
  for (const pid of frozen.splice(0)) process.kill(pid, 'SIGCONT');
};
afterAll(async () => {
  thaw();
  await pg?.stop();
});
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

it('backlog', async () => {
  const app = await startTestAppliance(
    pg.url,
    { TOLLGATE_REQUEST_TIMEOUT_MS: '2000', TOLLGATE_RATE_LIMIT_PER_MINUTE: '0' },
    { api: true, worker: false, indexer: false, devChain: false },
  );
  const admin = openPool(pg.url, { max: 1 });
  try {
    const { apikey } = await createApiKey(admin, 'b');
    const list = () => call(app.baseUrl, 'GET', '/v2/stream/list', { headers: { apikey } });
    for (const r of await Promise.all(Array.from({ length: 20 }, list))) expect(r.status).toBe(200);
    const commits = async () =>
      Number(
        (
          await admin`select (xact_commit + xact_rollback)::text as n from pg_stat_database where datname = current_database()`
        )[0]!.n,
      );
    await new Promise((r) => setTimeout(r, 1500));
    const before = await commits();
    frozen = postgresProcesses();
    for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    const sent: Promise<{ status: number }>[] = [];
    const N = Number(process.env.N ?? 4000);
    for (let i = 0; i < N; i += 250) {
      for (let j = 0; j < 250; j++) sent.push(list().catch(() => ({ status: -1 })));
      await new Promise((r) => setTimeout(r, 250));
    }
    const statuses = (await Promise.all(sent)).map((r) => r.status);
    const counts: Record<string, number> = {};
    for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
    const t0 = Date.now();
    thaw();
    const first = await list();
    const firstMs = Date.now() - t0;
    await new Promise((r) => setTimeout(r, 12000));
    const after = await commits();
    console.log(
      `statuses ${JSON.stringify(counts)}; first answer after thaw ${first.status} in ${firstMs} ms; transactions committed after the freeze ${after - before}`,
    );
  } finally {
    thaw();
    await admin.end();
    await app.stop();
  }
}, 300_000);
