import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { hardhat } from 'viem/chains';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { Receiver } from './helpers/receiver.js';
import { expectWebhookContract } from './helpers/webhook-contract.js';
import { eventually } from './helpers/eventually.js';
import { startOwnChain, type OwnChain } from './helpers/own-chain.js';

// A node of this file's own: evm_revert would rewind every other test file's chain.
let chain: OwnChain;
let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let receiver: Receiver;
let apikey: string;
const tracked = privateKeyToAccount(generatePrivateKey()).address;

beforeAll(async () => {
  chain = await startOwnChain();
  db = await freshDatabase();
  // The chain's funded wallet is the labelled mixer that pays the tracked address.
  await db.sql`insert into labels (network, address, category, source) values ('evm', ${chain.wallet.account.address.toLowerCase()}, 'mixer', 'test')`;
  receiver = await new Receiver().start();
  app = await startTestAppliance(db.url, {
    TOLLGATE_RPC_ETH: chain.url,
    // Hardhat calls every block final, and these blocks are reverted: the depth limit alone.
    TOLLGATE_FINALITY_ETH: 'depth',
    TOLLGATE_CONFIRMATIONS_ETH: '8',
    TOLLGATE_POLL_INTERVAL_MS_ETH: '50',
  });
  apikey = (await createApiKey(db.sql, 'liveaml-reorg')).apikey;
  await call(app.baseUrl, 'POST', '/v2/liveaml/create', {
    headers: { apikey },
    body: { address: tracked, webhook: receiver.url },
  });
});
afterAll(async () => {
  await app?.stop();
  await receiver?.stop();
  await db?.drop();
  await chain?.stop();
});

const indexedHead = () => chain.indexedHead(db.sql);

const forTx = (hash: string) => receiver.received.filter((r) => r.json?.hash === hash);

/** The key's live AML events, as /v2/liveaml/events lists them. */
const listed = async (): Promise<unknown[]> =>
  (
    await call(app.baseUrl, 'GET', '/v2/liveaml/events?page=1&limit=50', {
      headers: { apikey },
    })
  ).json.data;

describe('live AML webhooks and reorgs', () => {
  it('retracts a delivered live AML webhook of an orphaned transaction and stops listing its event', async () => {
    await indexedHead();
    const snapshot = await chain.test.snapshot();
    const hash: Hex = await chain.wallet.sendTransaction({
      account: chain.wallet.account,
      chain: hardhat,
      to: tracked,
      value: 1n,
    });
    await chain.pub.waitForTransactionReceipt({ hash });
    await receiver.waitFor(() => forTx(hash).length > 0);
    await eventually(
      () => db.sql`select status from webhook_events where kind = 'liveaml' and tx_hash = ${hash}`,
      (r) => r[0]?.status === 'delivered',
    );
    expect(await listed()).toHaveLength(1);

    await chain.test.revert({ id: snapshot });
    await chain.mine(2);
    await receiver.waitFor(() => forTx(hash).some((r) => r.json.removed === true));
    await indexedHead();

    const got = forTx(hash);
    const original = got.find((r) => r.json.removed === undefined)!;
    const retraction = got.find((r) => r.json.removed === true)!;
    expect(got.filter((r) => r.json.removed === true)).toHaveLength(1);
    expect(retraction.body).toMatch(/^\{"sequence":\d+,"removed":true,/);
    expect(retraction.headers['webhook-id']).not.toBe(original.headers['webhook-id']);
    // The same body under a sequence of its own, after the original's.
    expect(retraction.json.sequence).toBeGreaterThan(original.json.sequence);
    expect({ ...retraction.json, removed: undefined, sequence: undefined }).toEqual({
      ...original.json,
      removed: undefined,
      sequence: undefined,
    });
    expect(original.json.hash_tags).toEqual({ direct_mixer: true });
    expectWebhookContract('liveAml', [original.json]);
    expectWebhookContract('retraction', [retraction.json]);
    expect(await listed()).toHaveLength(0);
  });

  it('alerts again when the orphaned block comes back, lists the event again, and sends no second retraction', async () => {
    await indexedHead();
    const blockA = await chain.returningBlock(tracked, 3n);
    const a = await blockA.mine();
    await receiver.waitFor(() => forTx(a.tx).length === 1);
    await blockA.branch();
    await receiver.waitFor(() => forTx(a.tx).some((r) => r.json.removed === true));
    await indexedHead();
    expect(await listed()).toHaveLength(0);

    expect(await blockA.back()).toEqual(a);
    await receiver.waitFor(() => forTx(a.tx).length === 3);
    await chain.mine(8);
    await indexedHead();
    await new Promise((r) => setTimeout(r, 500)); // nothing more comes for it

    const got = forTx(a.tx);
    expect(got.map((r) => r.json.removed === true)).toEqual([false, true, false]);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(3);
    const [first, retraction, returned] = got.map((r) => r.json);
    expect(retraction!.sequence).toBeGreaterThan(first!.sequence);
    expect(returned!.sequence).toBeGreaterThan(retraction!.sequence);
    // A new alert of the same transaction: only its sequence and the time it was raised differ.
    expect({ ...returned, sequence: undefined, created_at: undefined }).toEqual({
      ...first,
      sequence: undefined,
      created_at: undefined,
    });
    expect(Date.parse(returned!.created_at)).toBeGreaterThan(Date.parse(first!.created_at));
    expectWebhookContract('liveAml', [returned]);
    expect(await listed()).toHaveLength(1);
  });
});
