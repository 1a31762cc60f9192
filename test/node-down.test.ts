import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { freePort } from '../support/ports.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { call } from './helpers/http.js';
import { startTcpRelay, type TcpRelay } from './helpers/tcp-relay.js';
import { captureLog } from './helpers/log-capture.js';

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let port: number;
let relay: TcpRelay | undefined;
/** The appliance's log lines (this process's logger, written here instead). */
let captured: ReturnType<typeof captureLog> | undefined;

beforeAll(async () => {
  db = await freshDatabase();
  // What a process killed while eth's node failed left behind (its node answers now).
  await db.sql`insert into indexer_node_errors (network, node, error, since)
    values ('eth', 'http://127.0.0.1:1', 'ECONNREFUSED', now() - interval '1 hour')`;
  captured = captureLog();
  port = await freePort();
  // polygon's node is down from the start: nothing listens on its port (yet).
  app = await startTestAppliance(
    db.url,
    {
      // Credentials in the userinfo and, as many providers put an API key, in the path.
      TOLLGATE_RPC_POLYGON: `http://user:secret-in-url@127.0.0.1:${port}/v3/key-in-path`,
      TOLLGATE_POLL_INTERVAL_MS_POLYGON: '100',
      TOLLGATE_LOG_LEVEL: 'info',
    },
    { api: true, worker: false, indexer: ['eth', 'polygon'], devChain: false },
    { waitForCursors: false }, // polygon's cannot start yet
  );
});
afterAll(async () => {
  await app?.stop();
  captured?.restore();
  await relay?.close();
  await db?.drop();
});

it('says on /readyz which node does not answer and why, and forgets it once the node answers', async () => {
  const ready = await eventually(
    () => call(app.baseUrl, 'GET', '/readyz'),
    (r) => /failing since/.test(r.json?.networks?.polygon?.reason ?? ''),
    30_000,
  );
  expect(ready.status).toBe(503);
  const reason: string = ready.json.networks.polygon.reason;
  expect(reason).toMatch(
    new RegExp(`^not indexed yet: node http://127\\.0\\.0\\.1:${port} failing since \\S+: .+`),
  );
  expect(reason).toMatch(/ECONNREFUSED|fetch failed|HTTP request failed/i);
  expect(reason).not.toContain('secret-in-url');
  expect(reason).not.toContain('key-in-path');
  expect(ready.json.networks.eth.ready).toBe(true);

  // The node comes up on that port (a relay to the test chain): indexed, the record gone.
  relay = await startTcpRelay(new URL(inject('rpcUrl')), port);
  await eventually(
    () => call(app.baseUrl, 'GET', '/readyz'),
    (r) => r.json?.networks?.polygon?.ready === true,
    30_000,
  );
  expect(await db.sql`select * from indexer_node_errors`).toEqual([]);
  // Its end is said in the log, as each failure was (there was no line for it).
  const lines = captured!
    .text()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg: string; network?: string; down_ms?: number });
  const back = lines.find((l) => l.msg === 'node answers again; indexing goes on');
  expect(back).toMatchObject({ network: 'polygon' });
  expect(back!.down_ms).toBeGreaterThan(0);
  expect(captured!.text()).not.toContain('secret-in-url');
}, 90_000);

it('forgets a failure an earlier process left behind once the node answers (killed while its node failed)', async () => {
  // It stayed: /readyz named it at the next failure, failing since an hour before (found by an
  // outside probe).
  const left = await eventually(
    () => db.sql`select network from indexer_node_errors where network = 'eth'`,
    (rows) => rows.length === 0,
    30_000,
  );
  expect(left).toEqual([]);
});
