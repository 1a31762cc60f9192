import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import {
  SKIP_MESSAGE,
  skipWithoutLitecoind,
  startLitecoind,
  type Litecoind,
} from './helpers/litecoind.js';
import { Receiver } from './helpers/receiver.js';

/**
 * A node without a transaction index whose getblock describes the coins inputs spend
 * (verbosity 3, Bitcoin Core 23+): the indexer finds coins from before its start block by their
 * block's hash, never by id.
 *
 * litecoind has no verbosity 3, so a JSON-RPC proxy in front of it answers `getblock <hash> 3`
 * the way Bitcoin Core 23's RPC help documents it: verbosity 2 plus, on each non-coinbase
 * input, `prevout: {generated, height, value, scriptPubKey}`. The proxy learns each coin from
 * the node's wallet (gettransaction) and its block (getrawtransaction with the block hash), which
 * need no transaction index; everything else goes to the node unchanged.
 */

interface RpcRequest {
  id?: unknown;
  method: string;
  params?: unknown[];
}

class Verbosity3Proxy {
  private server?: Server;
  /** The getrawtransaction calls Tollgate made: with a block hash, or by id alone. */
  readonly rawTxCalls = { byBlock: 0, byId: 0 };

  constructor(private readonly node: Litecoind) {}

  async start(): Promise<string> {
    this.server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString()) as RpcRequest | RpcRequest[];
      const answer = Array.isArray(body)
        ? await Promise.all(body.map((r) => this.handle(r)))
        : await this.handle(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    const port = (this.server!.address() as AddressInfo).port;
    const node = new URL(this.node.rpcUrl);
    return `http://${node.username}:${node.password}@127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    await new Promise((r) => this.server?.close(r));
  }

  private async handle({ id, method, params = [] }: RpcRequest) {
    try {
      if (method === 'getrawtransaction')
        this.rawTxCalls[params.length >= 3 ? 'byBlock' : 'byId']++;
      const result =
        method === 'getblock' && params[1] === 3
          ? await this.blockWithPrevouts(params[0] as string)
          : await this.node.rpc(method, ...params);
      return { id, result, error: null };
    } catch (err) {
      const e = err as { code?: number; message?: string };
      return { id, result: null, error: { code: e.code ?? -1, message: e.message ?? String(err) } };
    }
  }

  private async blockWithPrevouts(hash: string) {
    const block = await this.node.rpc('getblock', hash, 2);
    for (const tx of block.tx)
      for (const vin of tx.vin) {
        if (vin.coinbase !== undefined) continue;
        const { blockhash } = await this.node.rpc('gettransaction', vin.txid);
        const prev = await this.node.rpc('getrawtransaction', vin.txid, true, blockhash);
        const { height } = await this.node.rpc('getblockheader', blockhash);
        const out = prev.vout[vin.vout];
        vin.prevout = {
          generated: prev.vin[0].coinbase !== undefined,
          height,
          value: out.value,
          scriptPubKey: out.scriptPubKey,
        };
      }
    return block;
  }
}

describe.skipIf(skipWithoutLitecoind)(
  `prevouts from getblock verbosity 3, without -txindex${skipWithoutLitecoind ? ` (${SKIP_MESSAGE})` : ''}`,
  () => {
    let node: Litecoind;
    let proxy: Verbosity3Proxy;
    let db: TestDatabase;
    let receiver: Receiver;
    let app: Awaited<ReturnType<typeof startTestAppliance>>;

    beforeAll(async () => {
      node = await startLitecoind({ txindex: false });
      await node.mine(110); // coinbase outputs mature after 100 blocks
      proxy = new Verbosity3Proxy(node);
      const url = await proxy.start();
      db = await freshDatabase();
      receiver = await new Receiver().start();
      app = await startTestAppliance(
        db.url,
        {
          TOLLGATE_RPC_LITECOIN: url,
          TOLLGATE_CONFIRMATIONS_LITECOIN: '1',
          TOLLGATE_POLL_INTERVAL_MS_LITECOIN: '100',
        },
        { api: false, worker: true, indexer: 'all', devChain: false },
      );
    });
    afterAll(async () => {
      await app?.stop();
      await receiver?.stop();
      await db?.drop();
      await proxy?.stop();
      await node?.stop();
    });

    it('resolves coins mined before the start block by their block hash', async () => {
      // The node truly has no transaction index: a coin's transaction is not found by id alone.
      const [early] = await node.rpc<string[]>('getblockhash', 5).then((h) => [h]);
      const coinbase = (await node.rpc('getblock', early, 1)).tx[0];
      await expect(node.rpc('getrawtransaction', coinbase, true)).rejects.toThrow(/txindex/i);

      const key = await createApiKey(db.sql, 'prevouts');
      const to = await node.rpc<string>('getnewaddress', '', 'bech32');
      await db.sql`insert into tracked_addresses (api_key_id, address, family, stream_webhook, stream_created_at)
        values (${key.id}, ${to}, 'utxo', ${receiver.url}, now())`;
      // Spends coinbase outputs of blocks 1–10, all below the indexer's start block (110).
      const txid = await node.rpc<string>('sendtoaddress', to, 60);
      const [block] = await node.mine(1);

      const delivered = await receiver.waitFor((r) =>
        r.some((x) => x.json?.hash === txid && x.json?.confirmed),
      );
      const payload = delivered.find((x) => x.json?.hash === txid)!.json;

      const tx = await node.rpc('getrawtransaction', txid, true, block);
      expect(payload.inputs).toHaveLength(tx.vin.length);
      for (const [k, vin] of tx.vin.entries()) {
        const { blockhash } = await node.rpc('gettransaction', vin.txid);
        const prev = await node.rpc('getrawtransaction', vin.txid, true, blockhash);
        const { height } = await node.rpc('getblockheader', blockhash);
        expect(height).toBeLessThan(110);
        expect(payload.inputs[k]).toMatchObject({
          prevout: { hash: vin.txid, index: vin.vout },
          coin: {
            version: prev.version,
            height,
            value: Math.round(prev.vout[vin.vout].value * 1e8),
            script: prev.vout[vin.vout].scriptPubKey.hex,
            coinbase: true,
          },
        });
      }
      expect(payload.fee).toBe(-Math.round((await node.rpc('gettransaction', txid)).fee * 1e8));
      expect(proxy.rawTxCalls.byBlock).toBeGreaterThan(0);
      expect(proxy.rawTxCalls.byId).toBe(0);
    });
  },
);
