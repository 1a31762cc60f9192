import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevChain, type DevChain } from '../src/devchain/devchain.js';
import { freePort } from '../support/ports.js';
import { indexerStatus, formatStatusTable } from '../src/indexer/status.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { call } from './helpers/http.js';
import { createOperator } from '../src/operators/operators.js';
import { dashboardLogin } from './helpers/dashboard-client.js';
import {
  SKIP_MESSAGE,
  skipWithoutLitecoind,
  startLitecoind,
  type Litecoind,
} from './helpers/litecoind.js';

/**
 * A node that stops following its chain (it lost its peers, its process is stuck) still answers,
 * with the head it has: Tollgate is caught up with it and would index nothing new, silently.
 * A dev chain of its own (anvil, a block a second; the shared one's clock may have been moved
 * ahead by other tests) behind a proxy that answers eth_blockNumber with a frozen head, as such
 * a node does, then lets the head move again. A real appliance (API and
 * indexer) and a real Postgres.
 */

type Call = { id: number; method: string };

let db: TestDatabase;
let chain: DevChain;
let proxy: Server;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
/** The head the proxy answers while the node is "stuck" (hex), or none. */
let frozenHead: string | undefined;

beforeAll(async () => {
  chain = await startDevChain(await freePort(), 'anvil');
  const target = chain.url;
  proxy = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const calls = JSON.parse(body) as Call | Call[];
    const forwarded = (await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    }).then((r) => r.json())) as { id: number; result?: unknown } | { id: number }[];
    const frozen = (c: Call, a: unknown) =>
      frozenHead !== undefined && c.method === 'eth_blockNumber'
        ? { jsonrpc: '2.0', id: c.id, result: frozenHead }
        : a;
    const answer = Array.isArray(calls)
      ? (forwarded as unknown[]).map((a, i) => frozen(calls[i]!, a))
      : frozen(calls, forwarded);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  db = await freshDatabase();
  app = await startTestAppliance(
    db.url,
    {
      TOLLGATE_RPC_ETH: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      // The dev chain's id is not Ethereum's: without the setting, no limit would apply.
      TOLLGATE_NODE_BEHIND_S_ETH: '3',
      TOLLGATE_FINALITY_ETH: 'depth',
    },
    { api: true, worker: false, indexer: 'all', devChain: false },
  );
}, 60_000);

afterAll(async () => {
  await app?.stop();
  proxy?.close();
  await db?.drop();
  await chain?.stop();
});

const readyz = async () => (await call(app.baseUrl, 'GET', '/readyz')).json;
const behindMetric = async () =>
  /tollgate_indexer_node_behind\{network="eth"\} (\d)/.exec(
    (await call(app.baseUrl, 'GET', '/metrics')).text,
  )?.[1];

describe('a node that stops following its chain', () => {
  it('is named behind once its newest block is older than the limit, and cleared when it moves again', async () => {
    // Following a node that moves: ready, nothing said.
    await eventually(readyz, (r) => r.ready === true, 30_000);
    expect(await behindMetric()).toBe('0');

    // The node stops at its current head.
    const head = await fetch(chain.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
    }).then((r) => r.json() as Promise<{ result: string }>);
    frozenHead = head.result;
    const stuck = await eventually(
      readyz,
      (r) => /newest block/.test(r.networks?.eth?.reason ?? ''),
      30_000,
    );
    expect(stuck.ready).toBe(false);
    expect(stuck.networks.eth.reason).toMatch(
      new RegExp(
        `^the node's newest block ${BigInt(frozenHead)} is from \\S+Z, more than 3 s ago \\(TOLLGATE_NODE_BEHIND_S_ETH, a block every ~12 s\\): the node is behind the network`,
      ),
    );
    // Caught up with the node all the same: the lag says nothing of it.
    expect(stuck.networks.eth.lag_blocks).toBe(0);
    expect(await behindMetric()).toBe('1');
    const [status] = await indexerStatus(db.sql);
    expect(status!.node_behind).toBe(stuck.networks.eth.reason);
    expect(Date.parse(status!.node_behind_since!)).not.toBeNaN();
    await createOperator(db.sql, 'olga.viewer', 'viewer', 'a long enough password 1');
    const viewer = await dashboardLogin(app.baseUrl, 'olga.viewer', 'a long enough password 1');
    expect((await viewer.get('/dashboard/operations')).text).toContain(
      `<strong>node behind since ${status!.node_behind_since}: the node&#39;s newest block ${BigInt(frozenHead)} is from`,
    );
    expect(formatStatusTable([status!])).toContain(
      `NODE BEHIND since ${status!.node_behind_since}`,
    );

    // The node follows the chain again: its new blocks are indexed and the state is cleared.
    frozenHead = undefined;
    const moving = await eventually(
      readyz,
      (r) => r.ready === true && BigInt(r.networks.eth.indexed_block) > BigInt(head.result),
      30_000,
    );
    expect(moving.networks.eth.reason).toBeUndefined();
    expect(BigInt(moving.networks.eth.indexed_block)).toBeGreaterThan(BigInt(head.result));
    expect(await behindMetric()).toBe('0');
    const [after] = await indexerStatus(db.sql);
    expect(after).toMatchObject({ node_behind: null, node_behind_since: null });
  });
});

describe.skipIf(skipWithoutLitecoind)(
  `a Bitcoin-family node that makes no new block${skipWithoutLitecoind ? ` (${SKIP_MESSAGE})` : ''}`,
  () => {
    let node: Litecoind;
    let ltcDb: TestDatabase;
    let ltc: Awaited<ReturnType<typeof startTestAppliance>>;

    beforeAll(async () => {
      node = await startLitecoind();
      await node.mine(101);
      ltcDb = await freshDatabase();
      ltc = await startTestAppliance(
        ltcDb.url,
        {
          TOLLGATE_RPC_LITECOIN: node.rpcUrl,
          TOLLGATE_POLL_INTERVAL_MS_LITECOIN: '100',
          TOLLGATE_START_BLOCK_LITECOIN: '0',
          // litecoind -regtest mines only when asked: its chain is not the mainnet, no limit unless set.
          TOLLGATE_NODE_BEHIND_S_LITECOIN: '3',
        },
        { api: true, worker: false, indexer: 'all', devChain: false },
      );
    }, 120_000);

    afterAll(async () => {
      await ltc?.stop();
      await ltcDb?.drop();
      await node?.stop();
    });

    it('is named behind when its newest block is older than the limit, and cleared by a new block', async () => {
      const readyz = async () => (await call(ltc.baseUrl, 'GET', '/readyz')).json;
      // Regtest blocks mined at once may carry times a little ahead: behind once they are 3 s old.
      const stuck = await eventually(
        readyz,
        (r) => /newest block/.test(r.networks.litecoin?.reason ?? ''),
        60_000,
      );
      expect(stuck.networks.litecoin).toMatchObject({
        ready: false,
        indexed_block: '101',
        lag_blocks: 0,
      });
      expect(stuck.networks.litecoin.reason).toMatch(
        /^the node's newest block 101 is from \S+Z, more than 3 s ago \(TOLLGATE_NODE_BEHIND_S_LITECOIN, a block every ~150 s\): the node is behind the network/,
      );
      await node.mine(1);
      // The block is stored, then checked against the limit: in between, /readyz still names 101.
      const moving = await eventually(
        readyz,
        (r) =>
          r.networks.litecoin?.indexed_block === '102' &&
          !/newest block 101 /.test(r.networks.litecoin?.reason ?? ''),
        60_000,
      );
      // Cleared with the new block (unless it is already 3 s old: then named again, for block 102).
      if (moving.networks.litecoin.reason !== undefined)
        expect(moving.networks.litecoin.reason).toMatch(/newest block 102 /);
      else expect(moving.networks.litecoin.ready).toBe(true);
    });
  },
);
