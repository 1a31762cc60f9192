import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { eventually } from './helpers/eventually.js';
import {
  SKIP_MESSAGE,
  skipWithoutLitecoind,
  startLitecoind,
  type Litecoind,
} from './helpers/litecoind.js';

let node: Litecoind;
let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let apikey: string;
let early: string;

describe.skipIf(skipWithoutLitecoind)(
  `tx_detail and AML on litecoind -regtest${skipWithoutLitecoind ? ` (${SKIP_MESSAGE})` : ''}`,
  () => {
    beforeAll(async () => {
      node = await startLitecoind();
      await node.mine(110);
      // A transaction mined before the index starts (it starts at the head): tx_detail asks the node.
      early = await node.rpc<string>(
        'sendtoaddress',
        await node.rpc<string>('getnewaddress', '', 'legacy'),
        0.75,
      );
      await node.mine(2); // the index starts at the head, one block above the early transaction's
      db = await freshDatabase();
      apikey = (await createApiKey(db.sql, 'utxo-aml')).apikey;
      app = await startTestAppliance(
        db.url,
        { TOLLGATE_RPC_LITECOIN: node.rpcUrl, TOLLGATE_POLL_INTERVAL_MS_LITECOIN: '100' },
        { api: true, worker: false, indexer: 'all', devChain: false },
      );
      await eventually(
        () => db.sql`select block_number from indexer_cursors where network = 'litecoin'`,
        (r) => r[0]?.block_number === '112',
      );
    });
    afterAll(async () => {
      await app?.stop();
      await db?.drop();
      await node?.stop();
    });

    it('details an indexed litecoin transaction with its transfers and the parties’ AML data', async () => {
      const to = await node.rpc<string>('getnewaddress', '', 'bech32');
      const txid = await node.rpc<string>('sendtoaddress', to, 1.25);
      const [block] = await node.mine(1);
      const height = (await node.rpc('getblockheader', block)).height;
      await eventually(
        () => db.sql`select block_number from indexer_cursors where network = 'litecoin'`,
        (r) => Number(r[0]!.block_number) >= height,
      );
      // The recipient is labeled mixer: the transaction's AML data says so.
      await db.sql`insert into labels (network, address, category, source, name) values ('litecoin', ${to}, 'mixer', 'test', 'test mixer')`;

      const res = await call(
        app.baseUrl,
        'GET',
        `/v2/analyze/tx_detail?hash=${txid}&network=litecoin`,
        { headers: { apikey } },
      );
      expect(res.json).toMatchObject({ code: 0, message: 'OK' });
      const d = res.json.data;
      const raw = await node.rpc('getrawtransaction', txid, true);
      const header = await node.rpc('getblockheader', block);
      expect(d).toMatchObject({
        hash: txid,
        network: 'litecoin',
        status: 'Success',
        timestamp: header.time,
      });
      // `to` is the first output not paying back to an input: the recipient or the wallet's fresh change.
      expect(raw.vout.map((o: any) => o.scriptPubKey.addresses?.[0])).toContain(d.to);
      expect(typeof d.from).toBe('string');
      expect(d.from).not.toBe(to);
      expect(d.transfers).toHaveLength(raw.vout.length);
      expect(d.transfers).toContainEqual(
        expect.objectContaining({ to, value: 1.25, token_symbol: 'LTC' }),
      );
      expect(d.aml_data.tags).toMatchObject({ mixer: true });
      expect(d.aml_data.score).toBeGreaterThan(0);
      expect(d.aml_data.threshold).toEqual({ low: 25, modarate: 50, high: 75 });

      // The sender dealt with a labeled mixer: direct exposure over the indexed edges.
      const sender = await call(
        app.baseUrl,
        'GET',
        `/v2/analyze/aml?address=${d.from}&network=litecoin`,
        { headers: { apikey } },
      );
      expect(sender.json.data.tags.direct_mixer).toBe(true);

      // Older than the index: from the node, the same shape.
      const old = await call(
        app.baseUrl,
        'GET',
        `/v2/analyze/tx_detail?hash=${early}&network=litecoin`,
        { headers: { apikey } },
      );
      expect(old.json).toMatchObject({ code: 0 });
      const rawEarly = await node.rpc('getrawtransaction', early, true);
      expect(old.json.data).toMatchObject({
        hash: early,
        network: 'litecoin',
        status: 'Success',
        timestamp: rawEarly.blocktime,
      });
      expect(old.json.data.transfers).toHaveLength(rawEarly.vout.length);
      expect(old.json.data.transfers).toContainEqual(
        expect.objectContaining({ value: 0.75, token_symbol: 'LTC' }),
      );
      expect(old.json.data.from).toMatch(/^rltc1|^[mn2Q]/);
      expect(await db.sql`select 1 from utxo_transactions where txid = ${early}`).toHaveLength(0);

      const missing = await call(
        app.baseUrl,
        'GET',
        `/v2/analyze/tx_detail?hash=${'ab'.repeat(32)}&network=litecoin`,
        { headers: { apikey } },
      );
      expect(missing.json).toMatchObject({ code: 5002 });
    });

    it('streams only addresses of the chain the node runs (regtest here), saying so of others', async () => {
      // The indexer recorded what the node said it runs.
      expect(
        (await db.sql`select node_chain from indexer_cursors where network = 'litecoin'`)[0],
      ).toEqual({ node_chain: 'regtest' });
      const hook = 'http://127.0.0.1:9/hook';
      const create = (path: string, address: string) =>
        call(app.baseUrl, 'POST', path, { headers: { apikey }, body: { address, webhook: hook } });
      // The node's own form (rltc1) and a base58 test form are taken.
      for (const type of ['bech32', 'legacy']) {
        const own = await node.rpc<string>('getnewaddress', '', type);
        expect((await create('/v2/stream/create', own)).json.code, own).toBe(0);
      }
      // A mainnet address and a testnet one (tltc1) never appear on a regtest chain: they were
      // taken, and their webhooks never called (found by an outside probe).
      for (const address of [
        'ltc1qdp7p2rpx4a2f80h7a4crvppczgg4egmv5c78w8',
        'tltc1qh50sy0823vxn4l9zk2820w4fuj0q4fgv48ma6c',
      ])
        for (const path of ['/v2/stream/create', '/v2/liveaml/create']) {
          const res = await create(path, address);
          expect(res.status, `${path} ${address}`).toBe(400);
          expect(res.json.code).toBe(5002);
          expect(res.json.message).toBe(
            "Invalid Address: an address of another chain than this appliance's litecoin node's (regtest), so its webhook would never be called.",
          );
        }
    });

    it('details a coinbase (from "") and a payment to a script without an address (P2PK)', async () => {
      const detail = async (hash: string) =>
        (
          await call(app.baseUrl, 'GET', `/v2/analyze/tx_detail?hash=${hash}&network=litecoin`, {
            headers: { apikey },
          })
        ).json.data;
      // 0.5 LTC to a P2PK script: a legacy address's template with its P2PKH script swapped for
      // <pubkey> OP_CHECKSIG (the node names no address for it), funded and signed by the wallet.
      const address = await node.rpc<string>('getnewaddress', '', 'legacy');
      const info = await node.rpc<{ pubkey: string; scriptPubKey: string }>(
        'getaddressinfo',
        address,
      );
      const template = await node.rpc<string>('createrawtransaction', [], [{ [address]: 0.5 }]);
      const p2pk = `21${info.pubkey}ac`;
      const unfunded = template.replace(
        `19${info.scriptPubKey}`,
        `${(p2pk.length / 2).toString(16)}${p2pk}`,
      );
      expect(unfunded).not.toBe(template);
      const funded = await node.rpc<{ hex: string }>('fundrawtransaction', unfunded);
      const signed = await node.rpc<{ hex: string }>('signrawtransactionwithwallet', funded.hex);
      const txid = await node.rpc<string>('sendrawtransaction', signed.hex);
      const [block] = await node.mine(1);
      const { height, tx } = await node.rpc<{ height: number; tx: string[] }>('getblock', block);
      await eventually(
        () => db.sql`select block_number from indexer_cursors where network = 'litecoin'`,
        (r) => Number(r[0]!.block_number) >= height,
      );

      // A coinbase spends no coin: no sender (it read "NULL" from the index).
      const coinbase = await detail(tx[0]!);
      expect(coinbase.from).toBe('');
      expect(coinbase.transfers.every((t: { from: string }) => t.from === '')).toBe(true);
      // Its witness commitment (no address, no value) is no transfer.
      const rawCoinbase = await node.rpc<{ vout: { value: number }[] }>(
        'getrawtransaction',
        tx[0],
        true,
      );
      expect(coinbase.transfers).toHaveLength(rawCoinbase.vout.filter((o) => o.value > 0).length);

      // The P2PK payment left the sender: it is in the value and a transfer to '' (both left
      // it out, as if nothing had been paid).
      const paid = await detail(txid);
      expect(paid.transfers).toContainEqual(
        expect.objectContaining({ to: '', value: 0.5, token_symbol: 'LTC' }),
      );
      expect(paid.value).toBeGreaterThanOrEqual(0.5);
      expect(paid.to).not.toBe('');
    });
  },
);
