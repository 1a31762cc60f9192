import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { Hex } from 'viem';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { fundedWallet, randomAddress } from './helpers/chain.js';
import { Receiver, type Received } from './helpers/receiver.js';
import { eventually } from './helpers/eventually.js';
import { expectWebhookContract } from './helpers/webhook-contract.js';

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let receiver: Receiver;
let key: { apikey: string; webhook_secret: string };
let w: Awaited<ReturnType<typeof fundedWallet>>;

beforeAll(async () => {
  db = await freshDatabase();
  app = await startTestAppliance(db.url);
  receiver = await new Receiver().start();
  key = await createApiKey(db.sql, 'e2e');
  w = await fundedWallet();
});
afterAll(async () => {
  await app?.stop();
  await receiver?.stop();
  await db?.drop();
});

async function stream(address: string) {
  const res = await call(app.baseUrl, 'POST', '/v2/stream/create', {
    headers: { apikey: key.apikey },
    body: { address, webhook: receiver.url },
  });
  expect(res.json).toEqual({ code: 0, message: 'OK', data: null });
}

/**
 * Both deliveries of a transaction to a streamed address. The unconfirmed event is created
 * before the confirmed one: its `sequence` (the per-stream order deliveries follow, sql/0013) is
 * lower. Not `created_at, id`: a block confirmed when first stored gets both events in one
 * transaction (one created_at), and ids are random uuids. Their arrival order is not promised
 * (README: deliveries run in parallel and retries reorder them), so it is not asserted.
 */
async function bothDeliveries(txHash: string, address: string): Promise<[Received, Received]> {
  const mine = (all: Received[]) =>
    all.filter((r) => r.json?.tx?.hash === txHash && r.json?.tx?.address === address.toLowerCase());
  await receiver.waitFor(
    (all) => mine(all).some((r) => r.json.confirmed) && mine(all).some((r) => !r.json.confirmed),
  );
  const list = mine(receiver.received);
  const unconfirmed = list.find((r) => !r.json.confirmed)!;
  const confirmed = list.find((r) => r.json.confirmed)!;
  const created = await db.sql<{ confirmed: boolean }[]>`
    select confirmed from webhook_events where id in (${unconfirmed.headers['webhook-id']!.slice(4)}, ${confirmed.headers['webhook-id']!.slice(4)})
    order by sequence`;
  expect(created.map((e) => e.confirmed)).toEqual([false, true]);
  expectWebhookContract('streamEvm', [unconfirmed.json, confirmed.json]);
  return [unconfirmed, confirmed];
}

function verifySignature(r: Received) {
  const wh = new Webhook(key.webhook_secret);
  // Throws when the signature, id or timestamp do not verify.
  wh.verify(r.body, {
    'webhook-id': r.headers['webhook-id']!,
    'webhook-timestamp': r.headers['webhook-timestamp']!,
    'webhook-signature': r.headers['webhook-signature']!,
  });
  expect(r.headers['content-type']).toBe('application/json');
}

describe('address streams on the EVM dev chain', () => {
  it('delivers an ETH transfer unconfirmed, then confirmed, signed per Standard Webhooks', async () => {
    const to = randomAddress();
    await stream(to);
    const receipt = await w.send(to, 1_500_000_000_000_000_000n);
    const [u, c] = await bothDeliveries(receipt.transactionHash, to);
    for (const r of [u, c]) {
      verifySignature(r);
      expect(r.json).toMatchObject({
        blockNumber: Number(receipt.blockNumber),
        chainId: 31337,
        network: 'eth',
        approvals: [],
        erc20Transfers: [],
        erc721Transfers: [],
        erc1155Transfers: [],
        contract_type: '', // a string, as the spec types it, also without token transfers
        tx: {
          from: w.address.toLowerCase(),
          to: to.toLowerCase(),
          hash: receipt.transactionHash,
          input: '0x',
          address: to.toLowerCase(),
          network: 'eth',
          formattedValue: 1.5,
          status: 1,
          blockNumber: Number(receipt.blockNumber),
          logs: [],
        },
      });
      // Chain integers are exact JSON numbers, not rounded floats.
      expect(r.body).toContain('"value":1500000000000000000');
      expect(typeof r.json.tx.gas).toBe('number');
      expect(typeof r.json.tx.gasPrice).toBe('number');
    }
    expect(u.json.confirmed).toBe(false);
    expect(c.json.confirmed).toBe(true);
    expect(u.headers['webhook-id']).not.toBe(c.headers['webhook-id']);
    const delay =
      u.at - Number((await w.pub.getBlock({ blockNumber: receipt.blockNumber })).timestamp) * 1000;
    console.log(
      `block to unconfirmed webhook: ~${delay} ms (block timestamps have 1 s resolution)`,
    );
  });

  it('decodes ERC-20 transfers and approvals', async () => {
    const token = await w.deploy(inject('contracts').TestERC20);
    const abi = inject('contracts').TestERC20.abi;
    await w.write(token, abi, 'mint', [w.address, 10_000_000n]);
    const to = randomAddress();
    await stream(to);
    const transfer = await w.write(token, abi, 'transfer', [to, 1_234_567n]);
    const [, c] = await bothDeliveries(transfer.transactionHash, to);
    verifySignature(c);
    expect(c.json.contract_type).toBe('ERC20');
    expect(c.json.tx.to).toBe(token.toLowerCase());
    expect(c.json.tx.logs).toHaveLength(1);
    expect(c.json.tx.logs[0]).toMatchObject({
      address: token.toLowerCase(),
      transactionHash: transfer.transactionHash,
      logIndex: 0,
      blockNumber: Number(transfer.blockNumber),
    });
    expect(c.json.erc20Transfers).toEqual([
      expect.objectContaining({
        address: token.toLowerCase(),
        from: w.address.toLowerCase(),
        to: to.toLowerCase(),
        method: 'transfer',
        type: 'ERC20',
        name: 'Test Dollar',
        symbol: 'TUSD',
        decimals: 6,
        value: 1234567,
        formattedValue: 1.234567,
        index: 0,
      }),
    ]);
    expect(new Date(c.json.erc20Transfers[0].created_at).getTime()).toBeGreaterThan(0);

    const approval = await w.write(token, abi, 'approve', [to, 5n]);
    const [ua] = await bothDeliveries(approval.transactionHash, to);
    expect(ua.json.approvals).toEqual([
      {
        address: token.toLowerCase(),
        topic: expect.stringMatching(/^0x8c5be1e5/),
        from: w.address.toLowerCase(),
        to: to.toLowerCase(),
        method: 'approval',
        index: 0,
      },
    ]);
  });

  it('decodes an ERC-721 mint and ERC-1155 single and batch mints', async () => {
    const { TestERC721, TestERC1155 } = inject('contracts');
    const nft = await w.deploy(TestERC721);
    const multi = await w.deploy(TestERC1155);
    const owner = randomAddress();
    await stream(owner);

    const mint = await w.write(nft, TestERC721.abi, 'mint', [owner, 42n]);
    const [u721] = await bothDeliveries(mint.transactionHash, owner);
    expect(u721.json.contract_type).toBe('ERC721');
    expect(u721.json.erc721Transfers).toEqual([
      expect.objectContaining({
        address: nft.toLowerCase(),
        from: '0x0000000000000000000000000000000000000000',
        to: owner.toLowerCase(),
        type: 'ERC721',
        name: 'Test Apes',
        symbol: 'TAPE',
        tokenID: 42,
      }),
    ]);

    const single = await w.write(multi, TestERC1155.abi, 'mint', [owner, 7n, 3n]);
    const [u1] = await bothDeliveries(single.transactionHash, owner);
    expect(u1.json.erc1155Transfers).toEqual([
      expect.objectContaining({
        type: 'ERC1155',
        to: owner.toLowerCase(),
        tokenID: 7,
        tokenValue: 3,
      }),
    ]);

    const batch = await w.write(multi, TestERC1155.abi, 'mintBatch', [owner, [1n, 2n], [10n, 20n]]);
    const [ub] = await bothDeliveries(batch.transactionHash, owner);
    expect(ub.json.erc1155Transfers.map((t: any) => [t.tokenID, t.tokenValue])).toEqual([
      [1, 10],
      [2, 20],
    ]);
  });

  it('delivers to the sender too, records every attempt, and stops after delete', async () => {
    const sender = await fundedWallet('5');
    await stream(sender.address);
    const receipt = await sender.send(randomAddress() as Hex, 1n);
    const [u] = await bothDeliveries(receipt.transactionHash, sender.address);
    expect(u.json.tx.from).toBe(sender.address.toLowerCase());
    const rows = await eventually(
      () => db.sql`select d.status_code from webhook_deliveries d join webhook_events e on e.id = d.event_id
      where e.tx_hash = ${receipt.transactionHash}`,
      (r) => r.length >= 2,
    );
    expect(rows.map((r) => r.status_code)).toEqual([200, 200]);

    await call(app.baseUrl, 'DELETE', `/v2/stream/delete?address=${sender.address}`, {
      headers: { apikey: key.apikey },
    });
    const after = await sender.send(randomAddress() as Hex, 1n);
    // Let the indexer pass that block and a few confirmations, then check nothing was enqueued.
    const target = after.blockNumber + 4n;
    await eventually(
      () => db.sql`select block_number from indexer_cursors where network = 'eth'`,
      (r) => BigInt(r[0]!.block_number) >= target,
    );
    const events =
      await db.sql`select 1 from webhook_events where tx_hash = ${after.transactionHash}`;
    expect(events).toHaveLength(0);
  });

  it('sent only bodies that keep the documented streamEvm contract (unknown keys refused)', () => {
    expectWebhookContract(
      'streamEvm',
      receiver.received.map((r) => r.json),
    );
  });
});
