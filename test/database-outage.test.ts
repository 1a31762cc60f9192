import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.js';
import { createApiKey } from '../src/keys/keys.js';
import { openPool } from '../src/db/index.js';
import { startTestAppliance } from './helpers/appliance.js';
import { call } from './helpers/http.js';
import { freePort } from '../support/ports.js';

// A Postgres of this test's own, so that stopping it disturbs no other test file.
const dir = mkdtempSync(join(tmpdir(), 'tollgate-outage-'));
chmodSync(dir, 0o711);
let port: number;
let pg: EmbeddedDatabase;

beforeAll(async () => {
  port = await freePort();
  pg = await startEmbeddedPostgres(dir, port);
});
afterAll(async () => {
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
