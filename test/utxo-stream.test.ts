import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createApiKey } from '../src/keys/keys.js';
import { PermanentError } from '../src/errors.js';
import { buildUtxoPayload } from '../src/streams/utxo-payload.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import {
  SKIP_MESSAGE,
  skipWithoutLitecoind,
  startLitecoind,
  type Litecoind,
} from './helpers/litecoind.js';
import { Receiver, type Received } from './helpers/receiver.js';
import { expectWebhookContract } from './helpers/webhook-contract.js';

let node: Litecoind;
let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let receiver: Receiver;
let key: { id: string; apikey: string; webhook_secret: string };

/** An amount of the node's JSON in litoshi: the test's own conversion (regtest amounts are far below 2^53). */
const sats = (v: number) => Math.round(v * 1e8);

/** The spec's Bitcoin shape of a transaction, built independently from the node's own data. */
async function expectedPayload(
  txid: string,
  blockHash: string,
  confirmed: boolean,
  address: string,
) {
  const tx = await node.rpc('getrawtransaction', txid, true, blockHash);
  const header = await node.rpc('getblockheader', blockHash);
  const inputs: any[] = [];
  for (const vin of tx.vin) {
    if (vin.coinbase !== undefined) {
      inputs.push({
        prevout: { hash: '0'.repeat(64), index: 4294967295 },
        sequence: vin.sequence,
        script: vin.coinbase,
        coin: null,
      });
      continue;
    }
    const prev = await node.rpc('getrawtransaction', vin.txid, true);
    const out = prev.vout[vin.vout];
    const prevHeader = await node.rpc('getblockheader', prev.blockhash);
    inputs.push({
      prevout: { hash: vin.txid, index: vin.vout },
      sequence: vin.sequence,
      script: vin.scriptSig.hex,
      coin: {
        version: prev.version,
        height: prevHeader.height,
        value: sats(out.value),
        script: out.scriptPubKey.hex,
        address: out.scriptPubKey.addresses[0],
        type: out.scriptPubKey.type,
        reqSigs: out.scriptPubKey.reqSigs,
        coinbase: prev.vin[0].coinbase !== undefined,
      },
    });
  }
  const outputs = tx.vout.map((o: any) => ({
    value: sats(o.value),
    script: o.scriptPubKey.hex,
    address: o.scriptPubKey.addresses?.[0] ?? null,
    scriptPubKey: { type: o.scriptPubKey.type, reqSigs: o.scriptPubKey.reqSigs ?? null },
  }));
  const sum = (m: Map<string, number>, a: string | null, v: number) =>
    a === null ? m : m.set(a, (m.get(a) ?? 0) + v);
  const coins = inputs.flatMap((i) => (i.coin ? [i.coin] : []));
  const mappedIn = coins.reduce((m, c) => sum(m, c.address, c.value), new Map<string, number>());
  const mappedOut = outputs.reduce(
    (m: Map<string, number>, o: any) => sum(m, o.address, o.value),
    new Map<string, number>(),
  );
  const fee =
    coins.length === 0
      ? 0
      : coins.reduce((s, c) => s + c.value, 0) -
        outputs.reduce((s: number, o: any) => s + o.value, 0);
  return {
    hash: txid,
    hex: tx.hex,
    version: tx.version,
    size: tx.size,
    vsize: tx.vsize,
    weight: tx.weight,
    locktime: tx.locktime,
    timestamp: header.time,
    fee,
    inputs,
    outputs,
    addresses: [...new Set([...mappedIn.keys(), ...mappedOut.keys()])],
    mapped: {
      inputs: [...mappedIn].map(([address, value]) => ({ address, value })),
      outputs: [...mappedOut].map(([address, value]) => ({ address, value })),
    },
    address,
    confirmed,
    network: 'litecoin',
    blockNumber: header.height,
    blockHash,
  };
}

function deliveriesOf(txid: string, address: string): Received[] {
  return receiver.received.filter((r) => r.json?.hash === txid && r.json.address === address);
}

async function bothDeliveries(txid: string, address: string): Promise<[Received, Received]> {
  await receiver.waitFor(
    () =>
      [true, false].every((c) => deliveriesOf(txid, address).some((r) => r.json.confirmed === c)),
    40_000,
  );
  const list = deliveriesOf(txid, address);
  const u = list.find((r) => !r.json.confirmed)!;
  const c = list.find((r) => r.json.confirmed)!;
  expect(u.at).toBeLessThanOrEqual(c.at);
  for (const r of [u, c]) {
    new Webhook(key.webhook_secret).verify(r.body, {
      'webhook-id': r.headers['webhook-id']!,
      'webhook-timestamp': r.headers['webhook-timestamp']!,
      'webhook-signature': r.headers['webhook-signature']!,
    });
  }
  expectWebhookContract('streamBitcoin', [u.json, c.json]);
  return [u, c];
}

describe.skipIf(skipWithoutLitecoind)(
  `Bitcoin-family streams on litecoind -regtest${skipWithoutLitecoind ? ` (${SKIP_MESSAGE})` : ''}`,
  () => {
    let segwit: string;
    let legacy: string;

    beforeAll(async () => {
      node = await startLitecoind();
      await node.mine(110); // coinbase outputs mature after 100 blocks
      db = await freshDatabase();
      receiver = await new Receiver().start();
      key = await createApiKey(db.sql, 'utxo');
      segwit = await node.rpc('getnewaddress', '', 'bech32');
      legacy = await node.rpc('getnewaddress', '', 'legacy');
      expect(segwit).toMatch(/^rltc1/);
      expect(legacy).toMatch(/^[mn]/);
      for (const address of [segwit, legacy]) {
        await db.sql`insert into tracked_addresses (api_key_id, address, family, stream_webhook, stream_created_at)
        values (${key.id}, ${address}, 'utxo', ${receiver.url}, now())`;
      }
      app = await startTestAppliance(
        db.url,
        {
          TOLLGATE_RPC_LITECOIN: node.rpcUrl,
          TOLLGATE_CONFIRMATIONS_LITECOIN: '3',
          TOLLGATE_POLL_INTERVAL_MS_LITECOIN: '100',
        },
        { api: false, worker: true, indexer: 'all', devChain: false },
      );
      await eventually(
        () => db.sql`select block_number from indexer_cursors where network = 'litecoin'`,
        (r) => r[0]?.block_number === '110',
      );
    });
    afterAll(async () => {
      await app?.stop();
      await receiver?.stop();
      await db?.drop();
      await node?.stop();
    });

    it('delivers the spec shape, unconfirmed then confirmed, with exact amounts and resolved coins', async () => {
      // tx1 spends coinbase outputs mined before the indexer started (coins from the node).
      const tx1 = await node.rpc<string>('sendmany', '', { [segwit]: 1.23456789, [legacy]: 0.5 });
      const raw1 = await node.rpc('getrawtransaction', tx1, true);
      const vout = (a: string) =>
        raw1.vout.findIndex((o: any) => o.scriptPubKey.addresses?.[0] === a);
      // tx2 spends tx1's two outputs in the same block (coins from the block itself), fee 12345.
      const sink = await node.rpc<string>('getnewaddress', '', 'bech32');
      const tx2 = await sendRaw(
        [
          { txid: tx1, vout: vout(segwit) },
          { txid: tx1, vout: vout(legacy) },
        ],
        { [sink]: 1.73444444 },
      );
      const [b1] = await node.mine(1);
      const height1 = (await node.rpc('getblockheader', b1)).height;
      // tx3 spends tx2's output from a block already indexed (coins from utxo_outputs), fee 10000.
      await eventually(
        () => db.sql`select block_number from indexer_cursors where network = 'litecoin'`,
        (r) => Number(r[0]!.block_number) >= height1,
      );
      const tx3 = await sendRaw([{ txid: tx2, vout: 0 }], { [segwit]: 1.73434444 });
      const [b2] = await node.mine(1);

      // Every unconfirmed delivery first; nothing confirmed before the third block on top.
      const cases: [string, string, string][] = [
        [tx1, b1!, segwit],
        [tx1, b1!, legacy],
        [tx2, b1!, segwit],
        [tx2, b1!, legacy],
        [tx3, b2!, segwit],
      ];
      const unconfirmed = await eventually(
        () =>
          db.sql`select count(*)::int as n from webhook_events where not confirmed and status = 'delivered'`,
        (r) => r[0]!.n === cases.length,
      );
      expect(unconfirmed[0]!.n).toBe(cases.length);
      expect(receiver.received.filter((r) => r.json?.confirmed)).toHaveLength(0);
      await node.mine(3);

      for (const [txid, blockHash, address] of cases) {
        const [u, c] = await bothDeliveries(txid, address);
        // The subscription's sequence first (not in the spec's shape), the confirmed one's after.
        expect(Object.keys(u.json)[0]).toBe('sequence');
        expect(c.json.sequence).toBeGreaterThan(u.json.sequence);
        expect({ ...u.json, sequence: undefined }).toEqual({
          ...(await expectedPayload(txid, blockHash, false, address)),
          sequence: undefined,
        });
        expect({ ...c.json, sequence: undefined }).toEqual({
          ...(await expectedPayload(txid, blockHash, true, address)),
          sequence: undefined,
        });
        expect(u.headers['webhook-id']).not.toBe(c.headers['webhook-id']);
      }
      // One unconfirmed and one confirmed delivery per streamed address and transaction, no more.
      const events = await eventually(
        () =>
          db.sql<
            { address: string; tx_hash: string; confirmed: boolean; status: string }[]
          >`select address, tx_hash, confirmed, status from webhook_events`,
        (r) => r.length === cases.length * 2 && r.every((e) => e.status === 'delivered'),
      );
      const expected = cases.flatMap(([txid, , address]) =>
        [false, true].map((confirmed) => ({
          address,
          tx_hash: txid,
          confirmed,
          status: 'delivered',
        })),
      );
      const order = (e: { address: string; tx_hash: string; confirmed: boolean }) =>
        `${e.address} ${e.tx_hash} ${e.confirmed}`;
      expect([...events].map(order).sort()).toEqual(expected.map(order).sort());
      expect(receiver.received).toHaveLength(cases.length * 2);

      const [u1] = await bothDeliveries(tx1, segwit);
      const wallet1 = await node.rpc('gettransaction', tx1);
      expect(u1.json.fee).toBe(-sats(wallet1.fee));
      expect(
        u1.json.inputs.every((i: any) => i.coin.coinbase === true && i.coin.height <= 110),
      ).toBe(true);
      expect(u1.body).toContain('"value":123456789');
      expect(u1.body).toContain('"value":50000000');
      const [u2] = await bothDeliveries(tx2, legacy);
      expect(u2.body).toContain('"fee":12345');
      expect(
        u2.json.inputs.map((i: any) => [
          i.coin.address,
          i.coin.value,
          i.coin.height,
          i.coin.coinbase,
        ]),
      ).toEqual([
        [segwit, 123456789, height1, false],
        [legacy, 50000000, height1, false],
      ]);
      expect(u2.json.mapped).toEqual({
        inputs: [
          { address: segwit, value: 123456789 },
          { address: legacy, value: 50000000 },
        ],
        outputs: [{ address: sink, value: 173444444 }],
      });
      const [u3] = await bothDeliveries(tx3, segwit);
      expect(u3.json.fee).toBe(10000);
      expect(u3.json.inputs[0].coin).toMatchObject({
        address: sink,
        value: 173444444,
        height: height1,
        type: 'witness_v0_keyhash',
        reqSigs: 1,
        coinbase: false,
      });
      expect(u3.json.outputs).toEqual([
        {
          value: 173434444,
          script: expect.stringMatching(/^0014/),
          address: segwit,
          scriptPubKey: { type: 'witness_v0_keyhash', reqSigs: 1 },
        },
      ]);
    });

    it('delivers a coinbase with coin null, and refuses to build a body for a transaction not in that block', async () => {
      const [b] = await node.mine(1, segwit);
      await node.mine(2);
      const block = await node.rpc('getblock', b, 1);
      const [u, c] = await bothDeliveries(block.tx[0], segwit);
      expect({ ...c.json, sequence: undefined }).toEqual({
        ...(await expectedPayload(block.tx[0], b!, true, segwit)),
        sequence: undefined,
      });
      expect(u.json.inputs).toEqual([
        {
          prevout: { hash: '0'.repeat(64), index: 4294967295 },
          sequence: 4294967295,
          script: expect.any(String),
          coin: null,
        },
      ]);
      expect(u.json.fee).toBe(0);
      expect(u.json.mapped.inputs).toEqual([]);
      const event = {
        network: 'litecoin',
        address: segwit,
        tx_hash: block.tx[0],
        block_hash: '00'.repeat(32),
        confirmed: false,
      };
      await expect(buildUtxoPayload(db.sql, event)).rejects.toBeInstanceOf(PermanentError);
    });

    it("numbers a block's events in the block's order: a coin received, then spent, in one block", async () => {
      // P pays the address; C spends that coin in the same block, and its txid sorts before P's.
      // Numbered by txid, the spend was delivered before the receipt (found by an outside probe).
      const p = await node.rpc<string>('sendtoaddress', legacy, 1);
      const paid = await node.rpc<{
        vout: { n: number; scriptPubKey: { addresses?: string[]; address?: string } }[];
      }>('getrawtransaction', p, true);
      const vout = paid.vout.find(
        (o) => (o.scriptPubKey.address ?? o.scriptPubKey.addresses?.[0]) === legacy,
      )!.n;
      let c = '';
      for (let fee = 1; fee < 200; fee++) {
        const unsigned = await node.rpc<string>('createrawtransaction', [{ txid: p, vout }], {
          [legacy]: (1e8 - 10_000 * fee) / 1e8,
        });
        const signed = await node.rpc<{ hex: string }>('signrawtransactionwithwallet', unsigned);
        const txid = (await node.rpc<{ txid: string }>('decoderawtransaction', signed.hex)).txid;
        if (txid < p) {
          c = await node.rpc<string>('sendrawtransaction', signed.hex);
          break;
        }
      }
      expect(c).not.toBe('');
      const [b] = await node.mine(1);
      expect((await node.rpc<{ tx: string[] }>('getblock', b, 1)).tx.slice(1)).toEqual([p, c]);
      await receiver.waitFor(() => [p, c].every((t) => deliveriesOf(t, legacy).length > 0), 40_000);
      const sequence = (t: string) =>
        deliveriesOf(t, legacy).find((r) => !r.json.confirmed)!.json.sequence;
      expect(sequence(p)).toBeLessThan(sequence(c));
    });

    it('sent only bodies that keep the documented streamBitcoin contract (unknown keys refused)', () => {
      expectWebhookContract(
        'streamBitcoin',
        receiver.received.map((r) => r.json),
      );
    });
  },
);

/** Builds, signs with the wallet and broadcasts a transaction with exactly these inputs and outputs. */
async function sendRaw(
  inputs: { txid: string; vout: number }[],
  outputs: Record<string, number>,
): Promise<string> {
  const unsigned = await node.rpc<string>('createrawtransaction', inputs, outputs);
  const signed = await node.rpc<{ hex: string; complete: boolean }>(
    'signrawtransactionwithwallet',
    unsigned,
  );
  expect(signed.complete).toBe(true);
  return node.rpc<string>('sendrawtransaction', signed.hex);
}
